package words

import "testing"

func TestWords(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{JoinAnd(nil), ""},
		{JoinAnd([]string{"a"}), "a"},
		{JoinAnd([]string{"a", "b"}), "a and b"},
		{JoinAnd([]string{"a", "b", "c"}), "a, b and c"},
		{Agree(1, "is", "are"), "is"},
		{Agree(0, "is", "are"), "are"},
		{CountNoun(1, "row"), "1 row"},
		{CountNoun(3, "row"), "3 rows"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
