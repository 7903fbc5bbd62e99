package ngca

// Progress reports how far a fit has got. A fit runs Steps stages one
// after the other; Stage names the current one, which is number Step
// (counting from 1). Done counts its finished units of work out of Total:
// for the least-squares stages a unit is one (width, coordinate) pair of a
// cross-validation grid, for MIPP one index function. The fraction of the
// whole fit that is done is (Step − 1 + Done/Total)/Steps.
type Progress struct {
	Stage       string
	Step, Steps int
	Done, Total int
}

// reporter numbers the stages of one fit and forwards their progress to
// the caller's callback (fn, which may be nil). It is used only on the
// goroutine that called Fit. A nil *reporter reports nothing.
type reporter struct {
	fn    func(Progress)
	steps int
	step  int
	stage string
}

// begin starts the next stage.
func (r *reporter) begin(stage string) {
	if r == nil {
		return
	}
	r.step++
	r.stage = stage
}

// report reports done of total units of the current stage.
func (r *reporter) report(done, total int) {
	if r != nil && r.fn != nil {
		r.fn(Progress{Stage: r.stage, Step: r.step, Steps: r.steps, Done: done, Total: total})
	}
}

// forward returns a callback for a nested fit that reports its progress as
// that of the current stage (nil if there is no callback).
func (r *reporter) forward() func(Progress) {
	if r == nil || r.fn == nil {
		return nil
	}
	return func(p Progress) { r.report(p.Done, p.Total) }
}

// Fraction returns the fraction of the whole fit that is done,
// (Step − 1 + Done/Total)/Steps, or 0 if Steps or Total is not positive.
func (p Progress) Fraction() float64 {
	if p.Steps < 1 || p.Total < 1 {
		return 0
	}
	return (float64(p.Step-1) + float64(p.Done)/float64(p.Total)) / float64(p.Steps)
}
