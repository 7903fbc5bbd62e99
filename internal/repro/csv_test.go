package repro

import (
	"os"
	"path/filepath"
	"reflect"
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
