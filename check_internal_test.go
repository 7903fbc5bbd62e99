package ngca

import (
	"strings"
	"testing"
)

// TestFewRowsReason: the reason names the user's n when the fit itself has
// fewer than d² rows, and the refits' s when only they do; only an
// equivariant fit is advised to use the columns.
func TestFewRowsReason(t *testing.T) {
	for _, tc := range []struct {
		n, d, s     int
		equivariant bool
		want, not   string
	}{
		{400, 30, 300, true, "400 rows are few for 30 columns: ", "may be better"},
		{400, 30, 300, false, "400 rows are few for 30 columns: ", "robust variant"},
		{1000, 30, 750, true, "the refits' 750 rows are few for 30 columns: ", "400 rows"},
	} {
		got := fewRows(tc.n, tc.d, tc.s, tc.equivariant, false)
		if !strings.HasPrefix(got, tc.want) || strings.Contains(got, tc.not) || !strings.Contains(got, "d² = 900") {
			t.Errorf("fewRows(%d, %d, %d, %v) = %q, want it to start %q, name d² = 900 and not say %q", tc.n, tc.d, tc.s, tc.equivariant, got, tc.want, tc.not)
		}
	}
	rep := &CheckReport{Spread: 0.2, SpreadLimit: 0.05, RefitRows: 750, Refits: make([]float64, 4), FewRows: true, Separation: 100}
	rep.judge(4, 1000, 30, true)
	if !rep.Doubtful || len(rep.Reasons) != 2 || !strings.HasPrefix(rep.Reasons[0], "unstable: refits on 750 of the 1000 rows") ||
		!strings.HasPrefix(rep.Reasons[1], "the refits' 750 rows are few") || rep.RowsNote != rep.Reasons[1] {
		t.Errorf("judge: doubtful %v, reasons %q", rep.Doubtful, rep.Reasons)
	}
	rep = &CheckReport{Spread: 0.01, SpreadLimit: 0.05, RefitRows: 750, FewRows: true, Separation: 100}
	if rep.judge(4, 1000, 30, true); rep.Doubtful || len(rep.Reasons) != 0 {
		t.Errorf("a stable fit with few rows: doubtful %v, reasons %q", rep.Doubtful, rep.Reasons)
	}
	// A stable fit that no reference vouches for, one being too unstable:
	// the rows few for the references are named; a stable reference that
	// disagrees is not blamed on the rows.
	shaky := Agreement{Method: "IMAK", Distance: 0.5, Spread: 0.3, SpreadLimit: 0.15, Limit: 0.03}
	firm := Agreement{Method: "MIPP", Distance: 0.5, Spread: 0.01, SpreadLimit: 0.15, Limit: 0.03}
	rep = &CheckReport{Spread: 0.01, SpreadLimit: 0.05, RefitRows: 750, FewRows: true, Separation: 100, Agreements: []Agreement{shaky, firm}}
	if rep.judge(4, 1000, 30, false); !rep.Doubtful || len(rep.Reasons) != 2 || !strings.HasPrefix(rep.Reasons[1], "the refits' 750 rows are few for 30 columns: the references") ||
		rep.RowsNote != rep.Reasons[1] {
		t.Errorf("stable fit, unstable reference: doubtful %v, reasons %q, note %q", rep.Doubtful, rep.Reasons, rep.RowsNote)
	}
	rep = &CheckReport{Spread: 0.01, SpreadLimit: 0.05, RefitRows: 750, FewRows: true, Separation: 9, Agreements: []Agreement{firm}}
	if rep.judge(4, 1000, 30, false); !rep.Doubtful || len(rep.Reasons) != 2 || rep.RowsNote != "" {
		t.Errorf("stable fit, stable reference far: doubtful %v, reasons %q, note %q", rep.Doubtful, rep.Reasons, rep.RowsNote)
	}
}
