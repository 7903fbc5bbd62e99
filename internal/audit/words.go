package audit

import (
	"fmt"
	"strings"

	"github.com/ngca-go/ngca/internal/dataio"
)

// The words of the messages, as cmd/ngca writes them.

// joinAnd joins items as "a, b and c".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// agree returns one if n is 1, else many.
func agree(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// countNoun writes n and the noun: "1 row", "3 rows".
func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// dataColumnName names column j of the data of t: `column 3 ("x3") of data.csv`.
func dataColumnName(t *dataio.Table, name string, j int) string {
	s := fmt.Sprintf("column %d", t.Fields[j])
	if t.Format == dataio.LIBSVM {
		s = fmt.Sprintf("feature %d", t.Fields[j])
	}
	if t.Names != nil && t.Names[j] != "" {
		s += fmt.Sprintf(" (%q)", t.Names[j])
	}
	return s + " of " + name
}
