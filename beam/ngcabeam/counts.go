package ngcabeam

import (
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
)

// FilesOf returns what Read counted of each of its files, sorted by path,
// from the metrics of a finished pipeline (beam.PipelineResult.Metrics):
// the counts and notes of File, for a launcher to report as the ngca
// command does. It returns nil if the runner gave no metrics.
func FilesOf(res metrics.Results) []File {
	byPath := map[string]*File{}
	for _, c := range res.AllMetrics().Counters() {
		if c.Namespace() != counterNS {
			continue
		}
		name, path, ok := strings.Cut(c.Name(), "|")
		if !ok {
			continue
		}
		f := byPath[path]
		if f == nil {
			f = &File{Path: path}
			byPath[path] = f
		}
		v := int(c.Result())
		switch name {
		case cRows:
			f.Rows += v
		case cDropped:
			f.Dropped += v
		case cGaps:
			f.Incomplete += v
		case cRowNames:
			f.RowNames = v
		case cShort:
			f.ShortHeader = v > 0
		case cIntHeader:
			f.IntegerHeader = v > 0
		case cZero:
			f.ZeroBased = v > 0
		case cPosition:
			f.ByPosition = v > 0
		}
	}
	var out []File
	for _, f := range byPath {
		out = append(out, *f)
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// SampleOf returns the size of Fit's sample and the number of rows it was
// drawn from, from the metrics of a finished pipeline (0 and 0 without).
func SampleOf(res metrics.Results) (sample, of int) {
	for _, c := range res.AllMetrics().Counters() {
		switch {
		case c.Namespace() != counterNS:
		case c.Name() == "fit.sample":
			sample += int(c.Result())
		case c.Name() == "fit.of":
			of += int(c.Result())
		}
	}
	return sample, of
}
