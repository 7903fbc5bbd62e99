package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca/ngcatest"
)

// The commands that the README and the pages of docs/ show are run as
// written: every line of a ```sh block that calls ngca (or "go run
// ./cmd/ngca"), in the order of the page, in a folder that holds the
// files the pages name (docFixtures), so that a page's later commands see
// the files its earlier ones wrote.

// docCommand is an ngca command of a page.
type docCommand struct {
	line        int    // in the page
	text        string // as written
	args        []string
	stdin       string // a file to read standard input from, or ""
	stdout      string // a file to write standard output to, or ""
	mayBeStrict bool   // -strict: exit status 2 is a verdict, not a failure
}

// docPages are the pages whose commands TestDocCommands runs.
func docPages(t *testing.T) []string {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../../README.md"}, pages...)
}

func TestDocCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the commands of the documentation")
	}
	for _, page := range docPages(t) {
		cmds, err := docCommands(page)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if len(cmds) == 0 {
			continue
		}
		t.Run(filepath.Base(page), func(t *testing.T) {
			dir := t.TempDir()
			writeDocFixtures(t, dir)
			t.Chdir(dir)
			for _, c := range cmds {
				if missing := missingData(c.args); missing != "" {
					t.Logf("%s:%d: %s needs %s, which NGCA_DATA does not provide: not run", page, c.line, c.text, missing)
					continue
				}
				code, stderr := runDocCommand(t, c)
				if code != 0 && !(code == 2 && c.mayBeStrict) {
					t.Errorf("%s:%d: %s: exit %d, stderr:\n%s", page, c.line, c.text, code, stderr)
				}
			}
		})
	}
}

// runDocCommand runs c in the current folder and returns its exit status
// and stderr.
func runDocCommand(t *testing.T, c docCommand) (int, string) {
	t.Helper()
	if c.stdin != "" {
		data, err := os.ReadFile(c.stdin)
		if err != nil {
			t.Fatalf("line %d: %v", c.line, err)
		}
		old := stdin
		stdin = bytes.NewReader(data)
		defer func() { stdin = old }()
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), c.args, &out, &errb)
	if c.stdout != "" {
		if err := os.WriteFile(c.stdout, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return code, errb.String()
}

// docCommands returns the ngca commands of the ```sh blocks of the page,
// or an error naming a line that calls ngca in a way the test cannot run
// (the pages keep to single commands, variables, > and <).
func docCommands(page string) ([]docCommand, error) {
	data, err := os.ReadFile(page)
	if err != nil {
		return nil, err
	}
	var cmds []docCommand
	vars := map[string]string{}
	inBlock := false
	var pending string
	pendingLine := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(strings.TrimSpace(line), "```"): // indented in a list item too
			inBlock = strings.TrimSpace(line) == "```sh"
			continue
		case !inBlock:
			continue
		}
		if pending == "" {
			pendingLine = n
		}
		if strings.HasSuffix(line, "\\") {
			pending += strings.TrimSuffix(line, "\\") + " "
			continue
		}
		line, pending = pending+line, ""
		c, ok, err := parseDocLine(line, vars)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", page, pendingLine, err)
		}
		if ok {
			c.line = pendingLine
			cmds = append(cmds, c)
		}
	}
	return cmds, sc.Err()
}

var (
	assignRE  = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=(.*)$`)
	callsNgca = regexp.MustCompile(`(^|[\s;&|(])(ngca|go run \./cmd/ngca)( |$)`)
)

// parseDocLine parses a line of a ```sh block: a variable assignment
// (recorded in vars), an ngca command (ok), or another command (skipped).
func parseDocLine(line string, vars map[string]string) (c docCommand, ok bool, err error) {
	line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "$ "))
	words, err := shellWords(line, vars)
	switch {
	case err != nil && !callsNgca.MatchString(line):
		return c, false, nil // another program's line, in shell the test does not read
	case err != nil || len(words) == 0:
		return c, false, err
	}
	if m := assignRE.FindStringSubmatch(words[0]); m != nil && len(words) == 1 {
		vars[m[1]] = m[2]
		return c, false, nil
	}
	for len(words) > 2 && (words[0] == "/usr/bin/time" && words[1] == "-v") {
		words = words[2:]
	}
	switch {
	case words[0] == "ngca":
		words = words[1:]
	case len(words) > 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/ngca":
		words = words[3:]
	default:
		if callsNgca.MatchString(line) {
			return c, false, fmt.Errorf("a line that calls ngca in a way the test cannot run: %s", line)
		}
		return c, false, nil
	}
	c.text = line
	for i := 0; i < len(words); i++ {
		switch w := words[i]; w {
		case ">", "<":
			if i+1 == len(words) {
				return c, false, fmt.Errorf("%s without a file: %s", w, line)
			}
			if w == ">" {
				c.stdout = words[i+1]
			} else {
				c.stdin = words[i+1]
			}
			i++
		case "|", "||", "&&", ";", "&", ">>", "2>", "2>&1":
			return c, false, fmt.Errorf("%q in a line that calls ngca: %s", w, line)
		default:
			c.args = append(c.args, w)
			c.mayBeStrict = c.mayBeStrict || w == "-strict"
		}
	}
	if len(c.args) > 0 && c.args[0] == "reproduce" {
		return c, false, nil // the studies run for hours; their own tests run them
	}
	return c, true, nil
}

// shellWords splits a line into words as a POSIX shell would for the
// simple lines of the pages: '…' and "…" quoting, $NAME and ${NAME}
// expanded from vars (an unknown one is an error), # starting a comment
// outside quotes, and >, <, |, ;, & as words of their own.
func shellWords(line string, vars map[string]string) ([]string, error) {
	var words []string
	var cur bytes.Buffer
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	expand := func(i int) (int, error) {
		j := i + 1
		brace := j < len(line) && line[j] == '{'
		if brace {
			j++
		}
		k := j
		for k < len(line) && (line[k] == '_' || line[k] >= 'A' && line[k] <= 'Z' || line[k] >= 'a' && line[k] <= 'z' || line[k] >= '0' && line[k] <= '9' && k > j) {
			k++
		}
		name := line[j:k]
		v, ok := vars[name]
		if !ok {
			return 0, fmt.Errorf("$%s is not set on the page: %s", name, line)
		}
		if brace {
			k++
		}
		cur.WriteString(v)
		inWord = true
		return k, nil
	}
	for i := 0; i < len(line); {
		ch := line[i]
		switch {
		case ch == ' ' || ch == '\t':
			flush()
			i++
		case ch == '#' && !inWord:
			return words, nil
		case ch == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("unclosed ' in: %s", line)
			}
			cur.WriteString(line[i+1 : i+1+end])
			inWord = true
			i += end + 2
		case ch == '"':
			i++
			for i < len(line) && line[i] != '"' {
				if line[i] == '$' {
					var err error
					if i, err = expand(i); err != nil {
						return nil, err
					}
					continue
				}
				cur.WriteByte(line[i])
				i++
			}
			if i == len(line) {
				return nil, fmt.Errorf("unclosed \" in: %s", line)
			}
			inWord = true
			i++
		case ch == '$' && i+1 < len(line) && line[i+1] != '?':
			// Unquoted: the value splits into words.
			before := cur.Len()
			k, err := expand(i)
			if err != nil {
				return nil, err
			}
			v := cur.String()[before:]
			cur.Truncate(before)
			for fi, f := range strings.Fields(v) {
				if fi > 0 {
					flush()
				}
				cur.WriteString(f)
				inWord = true
			}
			i = k
		case strings.ContainsRune("<>|;&", rune(ch)):
			flush()
			j := i + 1
			for j < len(line) && strings.ContainsRune("<>|;&", rune(line[j])) {
				j++
			}
			words = append(words, line[i:j])
			i = j
		default:
			cur.WriteByte(ch)
			inWord = true
			i++
		}
	}
	flush()
	return words, nil
}

// libsvmFiles are the LIBSVM data sets the pages use, read from NGCA_DATA.
var libsvmFiles = []string{"vehicle.scale", "svmguide1", "svmguide3", "ijcnn1", "shuttle.trn"}

// missingData returns the LIBSVM data set named in args that NGCA_DATA
// does not hold, or "".
func missingData(args []string) string {
	for _, a := range args {
		for _, f := range libsvmFiles {
			if a == f {
				if _, err := os.Stat(f); err != nil {
					return f
				}
			}
		}
	}
	return ""
}

// writeDocFixtures writes into dir the files the pages name: data.csv,
// train.csv and test.csv (a table with a label column "class", drawn from the paper's model with the subspace turned), big.csv (the
// same, more rows), the committed tables of testdata/docs, and links to
// the LIBSVM data sets of NGCA_DATA when it is set.
func writeDocFixtures(t *testing.T, dir string) {
	t.Helper()
	for name, spec := range map[string]struct {
		n    int
		seed uint64
	}{"data.csv": {600, 1}, "train.csv": {600, 2}, "test.csv": {300, 3}, "big.csv": {5000, 4}} {
		x, _, err := ngcatest.Artificial{N: spec.n, D: 6, Rotate: true}.Sample(rand.NewPCG(spec.seed, 11))
		if err != nil {
			t.Fatal(err)
		}
		table := docTable(x)
		if name == "big.csv" { // numbers only
			table = docTable(x.Slice(0, spec.n, 1, 6).(*mat.Dense))
			table = strings.ReplaceAll(strings.ReplaceAll(table, ",a\n", "\n"), ",b\n", "\n")
			table = strings.Replace(table, ",class\n", "\n", 1)
		}
		writeFile(t, dir, name, table)
	}
	if entries, err := os.ReadDir("testdata/docs"); err == nil {
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join("testdata/docs", e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, dir, e.Name(), string(data))
		}
	}
	if src := os.Getenv("NGCA_DATA"); src != "" {
		if !filepath.IsAbs(src) {
			src = filepath.Join("../..", src)
		}
		for _, f := range libsvmFiles {
			abs, err := filepath.Abs(filepath.Join(src, f))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(abs); err == nil {
				if err := os.Symlink(abs, filepath.Join(dir, f)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// docTable writes x as a CSV table with the data columns x1, … and a
// label column "class" (the sign of the first column).
func docTable(x *mat.Dense) string {
	n, d := x.Dims()
	var b strings.Builder
	for j := 0; j < d; j++ {
		fmt.Fprintf(&b, "x%d,", j+1)
	}
	b.WriteString("class\n")
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			b.WriteString(strconv.FormatFloat(x.At(i, j), 'g', 8, 64) + ",")
		}
		class := "a"
		if x.At(i, 0) > 0 {
			class = "b"
		}
		b.WriteString(class + "\n")
	}
	return b.String()
}

// TestShellWords pins the small shell the pages are read with.
func TestShellWords(t *testing.T) {
	vars := map[string]string{"F": "-label-col cultivar -drop id"}
	for _, tc := range []struct {
		line string
		want []string
	}{
		{`ngca fit -dim 2 data.csv > basis.csv   # a comment`, []string{"ngca", "fit", "-dim", "2", "data.csv", ">", "basis.csv"}},
		{`ngca dim $F "my file.csv"`, []string{"ngca", "dim", "-label-col", "cultivar", "-drop", "id", "my file.csv"}},
		{`ngca fit -title 'a b' -o "$F.json" x`, []string{"ngca", "fit", "-title", "a b", "-o", "-label-col cultivar -drop id.json", "x"}},
	} {
		got, err := shellWords(tc.line, vars)
		if err != nil || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("shellWords(%q) = %q, %v; want %q", tc.line, got, err, tc.want)
		}
	}
	if _, err := shellWords(`ngca fit $NOPE`, vars); err == nil {
		t.Error("an unknown variable is not an error")
	}
}
