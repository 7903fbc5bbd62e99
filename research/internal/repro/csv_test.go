package repro

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestLog checks that a Log holds the header and every appended record,
// quoted where needed, one whole line each, and that WriteRows then
// replaces it with the sorted file, leaving no temporary file.
func TestLog(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(path, []byte("an,old,file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	header := []string{"name", "value"}
	l, err := CreateLog(path, header)
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]string{{"b", "2"}, {"a, with comma", "1"}, {"c \"quoted\"\nnew line", "3"}}
	id := func(r []string) []string { return r }
	if err := AppendRows(l, rows[:1], id); err != nil {
		t.Fatal(err)
	}
	if err := AppendRows(l, rows[1:], id); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := append([][]string{header}, rows...); !reflect.DeepEqual(got, want) {
		t.Errorf("log holds %q, want %q", got, want)
	}
	if b, _ := os.ReadFile(path); !strings.HasSuffix(string(b), "\n") {
		t.Errorf("log does not end with a whole line: %q", b)
	}
	if err := WriteRows(path, header, rows[:2], id); err != nil {
		t.Fatal(err)
	}
	if got, _ := ReadCSV(path); len(got) != 3 || got[2][0] != "a, with comma" {
		t.Errorf("after WriteRows: %q", got)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(tmp) > 0 {
		t.Errorf("temporary files left: %q", tmp)
	}
}

func TestReadRows(t *testing.T) {
	dir := t.TempDir()
	atoi := func(rec []string) (int, error) { return strconv.Atoi(rec[0]) }
	if rows, err := ReadRows(filepath.Join(dir, "missing.csv"), atoi); rows != nil || err != nil {
		t.Errorf("missing file: %v, %v; want no rows and no error", rows, err)
	}
	path := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(path, []byte("n\n1\n2\nx\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRows(path, atoi); err == nil || !strings.Contains(err.Error(), "rows.csv:4") {
		t.Errorf("bad record: %v, want an error naming rows.csv:4", err)
	}
	if err := os.WriteFile(path, []byte("n\n1\n2\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if rows, err := ReadRows(path, atoi); err != nil || len(rows) != 2 || rows[1] != 2 {
		t.Errorf("rows %v, %v; want [1 2]", rows, err)
	}
}

// TestStartLog checks that StartLog replaces a file by the header and the
// kept records, then appends after them.
func TestStartLog(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(path, []byte("name,value\nold,1\nstale,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := StartLog(path, []string{"name", "value"}, [][]string{{"old", "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Append([]string{"new", "3"}); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "name,value\nold,1\nnew,3\n" {
		t.Errorf("file holds %q", b)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(tmp) > 0 {
		t.Errorf("temporary files left: %q", tmp)
	}
}
