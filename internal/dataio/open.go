package dataio

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// open returns a reader of the text of r: r itself, or its decompressed
// content if it starts with gzip's magic bytes (whatever its name), with
// the first peekSize bytes of that text, the name to detect the format on
// (name without a ".gz" extension) and whether it was compressed. A
// binary file (see binaryKind), damaged gzip data and an empty file are
// *Error values; a UTF-8 byte-order mark is skipped.
func open(r io.Reader, name string) (br *bufio.Reader, head []byte, detectName string, gz bool, err error) {
	br, head, whole, err := peek(r, name)
	if err != nil {
		return nil, nil, "", false, err
	}
	detectName = name
	if bytes.HasPrefix(head, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, "", false, gzipError(name, err)
		}
		gz = true
		if br, head, whole, err = peek(&gzipReader{zr, name}, name); err != nil {
			return nil, nil, "", false, err
		}
		if ext := filepath.Ext(name); strings.EqualFold(ext, ".gz") {
			detectName = name[:len(name)-len(ext)]
		}
	}
	if bom := []byte("\ufeff"); bytes.HasPrefix(head, bom) {
		br.Discard(len(bom))
		head = head[len(bom):]
	}
	if msg := binaryMessage(head, detectName); msg != "" {
		return nil, nil, "", false, &Error{File: name, Msg: msg}
	}
	if whole && len(bytes.TrimSpace(head)) == 0 {
		return nil, nil, "", false, &Error{File: name, Msg: "empty file (no data)", empty: true}
	}
	return br, head, detectName, gz, nil
}

// peek wraps r in a buffered reader and returns its first peekSize bytes
// (fewer at the end of the input, whole then true).
func peek(r io.Reader, name string) (*bufio.Reader, []byte, bool, error) {
	br := bufio.NewReaderSize(r, peekSize)
	head, err := br.Peek(peekSize)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, nil, false, readError(name, err)
	}
	return br, head, err == io.EOF, nil
}

// readError wraps an error of the reader of file name: an *Error (damaged
// gzip data) as it is, any other with the file's name.
func readError(name string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return fmt.Errorf("read %s: %w", name, err)
}

// gzipReader reads decompressed data; a damaged or truncated stream is an
// *Error naming the file.
type gzipReader struct {
	r    io.Reader
	name string
}

func (g *gzipReader) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = gzipError(g.name, err)
	}
	return n, err
}

func gzipError(name string, err error) error {
	if err == io.ErrUnexpectedEOF {
		return &Error{File: name, Msg: "gzip-compressed data cut short (the file ends inside the compressed stream)"}
	}
	return &Error{File: name, Msg: fmt.Sprintf("damaged gzip-compressed data (%v)", err)}
}

// magics are the first bytes of binary files that people try to read as
// tables, what to call them, and how to write them as CSV. A magic of letters alone ("ORC", "BZh") may also start a text table:
// letters marks it, to count only in content with control bytes.
var magics = []struct {
	prefix, kind, hint string
	letters            bool
}{
	{"PK\x03\x04", "a zip archive", "", false},
	{"PK\x05\x06", "a zip archive", "", false},
	{"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an Excel .xls workbook (or another OLE2 document)", excelHint, false},
	{"PAR1", "a Parquet file", `pandas: pd.read_parquet(f).to_csv("data.csv")`, true},
	{"\x93NUMPY", "a NumPy .npy array", `numpy: np.savetxt("data.csv", np.load(f), delimiter=",")`, false},
	{"\x89HDF\r\n\x1a\n", "an HDF5 file", "", false},
	{"ARROW1", "an Arrow/Feather file", `pandas: pd.read_feather(f).to_csv("data.csv")`, true},
	{"ORC", "an ORC file", "", true},
	{"SQLite format 3\x00", "an SQLite database", "", false},
	{"MATLAB 5.0 MAT-file", "a MATLAB .mat file", `MATLAB: writematrix(x, "data.csv")`, false},
	{"RDX2\n", "an R data file (save)", `R: write.csv(x, "data.csv")`, true},
	{"RDX3\n", "an R data file (save)", `R: write.csv(x, "data.csv")`, true},
	{"X\n\x00\x00\x00", "an R data file (saveRDS)", `R: write.csv(x, "data.csv")`, false},
	{"BZh", "bzip2-compressed", "", true},
	{"\xfd7zXZ\x00", "xz-compressed", "", false},
	{"\x28\xb5\x2f\xfd", "zstd-compressed", "", false},
	{"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", "", false},
	{"%PDF", "a PDF document", "", false},
	{"\x89PNG", "a PNG image", "", false},
	{"\xff\xd8\xff", "a JPEG image", "", false},
	{"\xff\xfe", "UTF-16 text", "", false},
	{"\xfe\xff", "UTF-16 text", "", false},
}

const excelHint = `save the sheet as CSV, or pandas: pd.read_excel(f).to_csv("data.csv")`

// binaryMessage says what a file is that is not a text table, from its
// first bytes head and its name (the extension tells an Excel workbook
// from other zip archives): a known format (zip archives and Excel
// workbooks, Parquet, NumPy's .npy, HDF5, Python pickles, R data, other
// compressions, ...), UTF-16 text, or "a binary file" for any other
// content that holds two NUL bytes in a row, or control characters in
// every tenth byte (at least two of them). It returns "" for text: a
// stray control character in a text table is left to the cell's error.
func binaryMessage(head []byte, name string) string {
	kind, hint := binaryKind(head, name)
	switch {
	case kind == "":
		return ""
	case kind == "UTF-16 text":
		return "UTF-16 text: save it as UTF-8 (ngca reads UTF-8 and ASCII text)"
	case strings.HasSuffix(kind, "-compressed"):
		return kind + ": decompress it first (ngca decompresses gzip only)"
	}
	msg := kind + ", not a text table: ngca reads CSV, TSV, space-separated and LIBSVM text, plain or gzip-compressed"
	if hint != "" {
		msg += " (" + hint + ")"
	}
	return msg
}

// binaryKind names the kind of binary content head (see binaryMessage),
// with a hint on how to export it; "" for text.
func binaryKind(head []byte, name string) (kind, hint string) {
	binary := bytes.ContainsFunc(head, isControl)
	for _, m := range magics {
		if !bytes.HasPrefix(head, []byte(m.prefix)) || m.letters && !binary {
			continue
		}
		if strings.HasPrefix(m.prefix, "PK") {
			switch ext := strings.ToLower(filepath.Ext(name)); ext {
			case ".xlsx", ".xlsm":
				return "an Excel workbook (" + ext + ", a zip archive)", excelHint
			case ".ods":
				return "an OpenDocument spreadsheet (.ods, a zip archive)", "save the sheet as CSV"
			}
		}
		return m.kind, m.hint
	}
	// Python's pickle (and joblib's files) of protocol 2 or later start
	// with the opcode PROTO (0x80) and the protocol.
	if len(head) >= 2 && head[0] == 0x80 && head[1] >= 2 && head[1] <= 5 {
		return "a Python pickle", `pandas: pd.read_pickle(f).to_csv("data.csv")`
	}
	if len(head) >= 262 && string(head[257:262]) == "ustar" {
		return "a tar archive", ""
	}
	if bytes.Contains(head, []byte{0, 0}) {
		if utf16Like(head) {
			return "UTF-16 text", ""
		}
		return "a binary file", ""
	}
	if utf16Like(head) {
		return "UTF-16 text", ""
	}
	control := 0
	for _, c := range head {
		if isControl(rune(c)) {
			control++
		}
	}
	if control >= 2 && control*10 >= len(head) {
		return "a binary file", ""
	}
	return "", ""
}

// utf16Like reports whether head looks like UTF-16 text of ASCII
// characters: NUL in every even or every odd byte of its first 64 bytes.
func utf16Like(head []byte) bool {
	n := min(len(head), 64) &^ 1
	if n < 4 {
		return false
	}
	even, odd := 0, 0
	for i := 0; i < n; i += 2 {
		if head[i] == 0 {
			even++
		}
		if head[i+1] == 0 {
			odd++
		}
	}
	return even == n/2 && odd == 0 || odd == n/2 && even == 0
}

// isControl reports whether the byte c (as a rune) is a control character
// other than the white space of text files (tab, line feed, carriage
// return, form feed, vertical tab).
func isControl(c rune) bool {
	return c < 0x20 && !strings.ContainsRune("\t\n\r\f\v", c) || c == 0x7f
}
