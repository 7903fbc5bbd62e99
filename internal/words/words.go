// Package words holds the small helpers of the commands' messages (ngca
// and ngca-beam, and the audit they share): lists, plurals and counts.
package words

import (
	"fmt"
	"strings"
)

// JoinAnd joins items as "a, b and c".
func JoinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// Agree returns one if n is 1, else many.
func Agree(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// CountNoun writes n and the noun: "1 row", "3 rows".
func CountNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
