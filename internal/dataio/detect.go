package dataio

import (
	"bytes"
	"encoding/csv"
	"path/filepath"
	"strconv"
	"strings"
)

// extensions maps file-name extensions to formats.
var extensions = map[string]Format{
	".csv":    CSV,
	".tsv":    TSV,
	".tab":    TSV,
	".libsvm": LIBSVM,
	".svm":    LIBSVM,
}

// sniffLines is how many non-blank lines Detect looks at.
const sniffLines = 20

// Detect returns the format of a file named name with content data (a
// ".gz" at the end of name is ignored): by the extension (.csv; .tsv or
// .tab; .libsvm or .svm, case-insensitive), or else, since LIBSVM files
// often have none (svmguide1) or another one (vehicle.scale), from the
// content of the first 20 non-blank, non-comment lines: LIBSVM if one of
// them looks like "label index:value ...", TSV if the first holds a tab,
// semicolon-separated if the lines are (see below), space-separated if no
// line holds a comma (nor the first a tab) and every line but the first
// splits at spaces into the same number of fields, at least 2 (the first
// line, a header, may have one fewer, as R's write.table writes it), and
// CSV otherwise. A .csv file whose lines are semicolon- or
// space-separated in this sense (a spreadsheet's export where the decimal
// mark is a comma; R's write.table with the default sep) is read so too.
//
// Lines are semicolon-separated if every one of them splits at ';' into
// the same number of fields, at least 2, and their data lines (all but
// the first, if there are two or more) hold more numbers so split, with a
// decimal comma or point, than split at ',' as CSV ("1,25;-0,5;3" is
// three numbers, not the CSV fields "1", "25;-0" and "5;3"), or hold
// numbers and split at ',' into fields of unequal numbers.
func Detect(name string, data []byte) Format {
	if ext := filepath.Ext(name); strings.EqualFold(ext, ".gz") {
		name = name[:len(name)-len(ext)]
	}
	lines := sniff(data)
	if f, ok := extensions[strings.ToLower(filepath.Ext(name))]; ok {
		switch {
		case f != CSV:
		case semicolonSeparated(lines):
			return Semicolon
		case spaceSeparated(lines):
			return Space
		}
		return f
	}
	for _, l := range lines {
		if looksLIBSVM(l) {
			return LIBSVM
		}
	}
	switch {
	case len(lines) > 0 && strings.Contains(lines[0], "\t"):
		return TSV
	case semicolonSeparated(lines):
		return Semicolon
	case spaceSeparated(lines):
		return Space
	}
	return CSV
}

// semicolonSeparated reports whether lines are those of a
// semicolon-separated file (see Detect).
func semicolonSeparated(lines []string) bool {
	want := -1
	for _, l := range lines {
		if !strings.Contains(l, ";") {
			return false
		}
		rec, ok := splitLine(l, ';')
		if !ok || want >= 0 && len(rec) != want {
			return false
		}
		want = len(rec)
	}
	if want < 2 {
		return false
	}
	data := lines
	if len(lines) > 1 {
		data = lines[1:]
	}
	semi, csv := 0, 0
	for _, l := range data {
		rec, _ := splitLine(l, ';')
		for _, c := range rec {
			if isNumber(c, Semicolon) {
				semi++
			}
		}
		if rec, ok := splitLine(l, ','); ok {
			for _, c := range rec {
				if isNumber(c, CSV) {
					csv++
				}
			}
		}
	}
	return semi > csv || semi > 0 && !sameFields(lines, ',')
}

// sameFields reports whether lines split at comma (as CSV) into the same
// number of fields.
func sameFields(lines []string, comma rune) bool {
	want := -1
	for _, l := range lines {
		rec, ok := splitLine(l, comma)
		if !ok || want >= 0 && len(rec) != want {
			return false
		}
		want = len(rec)
	}
	return true
}

// splitLine splits a line of a CSV file with the separator comma into its
// fields; false if it is not one line of such a file (a quote left open,
// a stray quote).
func splitLine(line string, comma rune) ([]string, bool) {
	r := csv.NewReader(strings.NewReader(line))
	r.Comma = comma
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	rec, err := r.Read()
	return rec, err == nil
}

// sniff returns the first sniffLines non-blank lines of data that are not
// comments (start with '#'), trimmed of spaces. A line cut by the end of
// data is left out if data holds peekSize bytes (the start of a longer
// file).
func sniff(data []byte) []string {
	var lines []string
	cut := len(data) >= peekSize
	for len(data) > 0 && len(lines) < sniffLines {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else if cut && len(lines) > 0 {
			break
		} else {
			line, data = data, nil
		}
		s := strings.TrimSpace(string(line))
		if s == "" || s[0] == '#' || line[0] == '#' {
			continue
		}
		lines = append(lines, s)
	}
	return lines
}

// spaceSeparated reports whether lines are those of a space-separated
// file (see Detect).
func spaceSeparated(lines []string) bool {
	if len(lines) == 0 {
		return false
	}
	want := -1
	for i, l := range lines {
		if strings.Contains(l, ",") || i == 0 && strings.Contains(l, "\t") {
			return false
		}
		n, ok := spaceFields(l)
		switch {
		case !ok:
			return false
		case i == 0 && len(lines) > 1:
			continue
		case want < 0:
			want = n
		case n != want:
			return false
		}
	}
	first, _ := spaceFields(lines[0])
	return want >= 2 && (first == want || first == want-1)
}

// looksLIBSVM reports whether a line reads "label index:value ...": a
// number, then a field of an integer index ≥ 0 (0 in zero-based files), a
// colon and more, and no comma.
func looksLIBSVM(line string) bool {
	if strings.Contains(line, ",") {
		return false
	}
	f := strings.Fields(line)
	if len(f) < 2 {
		return false
	}
	if _, err := strconv.ParseFloat(f[0], 64); err != nil {
		return false
	}
	idx, _, ok := strings.Cut(f[1], ":")
	if !ok {
		return false
	}
	j, err := strconv.Atoi(idx)
	return err == nil && j >= 0
}
