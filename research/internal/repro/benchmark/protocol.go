package benchmark

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Split is one run's data: n training and n test rows with d columns (the
// data set's M features, then d − M noise columns), standardised, and
// their ±1 labels.
type Split struct {
	Train, Test   *mat.Dense
	YTrain, YTest []float64
}

// Standardisation says whose statistics standardise the columns of a run.
type Standardisation int

const (
	// OverDataset standardises each feature with its mean and sample
	// standard deviation over all rows of the preprocessed data set
	// (Data.Mean and Data.SD); the noise columns are standard normal
	// already. Only this reproduces the published error rates of no
	// reduction and PCA (the paper's and those of a re-run of the
	// authors' code), so it is presumably what that code does.
	OverDataset Standardisation = iota
	// OverSplit standardises every column, noise included, over the run's
	// training and test rows together, as a literal reading of the
	// protocol has it. Balanced draws then weigh the classes unlike the data
	// set, and PCA's error rates come out far from the published ones
	// (10 runs at d = 50: shuttle 0.049 against 0.024, svmguide1 0.138
	// against 0.159, ijcnn1 0.309 against 0.273).
	OverSplit
)

// String returns "dataset" or "split".
func (s Standardisation) String() string {
	switch s {
	case OverDataset:
		return "dataset"
	case OverSplit:
		return "split"
	}
	return fmt.Sprintf("Standardisation(%d)", int(s))
}

// ParseStandardisation returns the standardisation named as String
// writes it.
func ParseStandardisation(s string) (Standardisation, error) {
	for _, v := range []Standardisation{OverDataset, OverSplit} {
		if s == v.String() {
			return v, nil
		}
	}
	return 0, fmt.Errorf("unknown standardisation %q (want dataset or split)", s)
}

// Draw draws one run of the protocol from data, with randomness from src:
//
//  1. n training rows and another n test rows, disjoint, each set half
//     positive and half negative, drawn uniformly without replacement;
//  2. d − M columns of standard Gaussian noise appended to every row;
//  3. the columns standardised as std says (a constant column becomes
//     zero, as MATLAB's zscore leaves it).
//
// n must be even and d ≥ M; a class with fewer than n rows (n/2 for
// training and n/2 for testing) is an error.
func Draw(data *Data, n, d int, std Standardisation, src rand.Source) (*Split, error) {
	_, m := data.X.Dims()
	if n < 2 || n%2 != 0 {
		return nil, fmt.Errorf("n = %d, want an even number ≥ 2", n)
	}
	if d < m {
		return nil, fmt.Errorf("d = %d is below the data's %d features", d, m)
	}
	rng := rand.New(src)
	train, test, err := drawIndices(data.Y, n, rng)
	if err != nil {
		return nil, err
	}
	s := &Split{
		Train: withNoise(data.X, train, d, rng), YTrain: pick(data.Y, train),
		Test: withNoise(data.X, test, d, rng), YTest: pick(data.Y, test),
	}
	switch std {
	case OverDataset:
		for _, x := range []*mat.Dense{s.Train, s.Test} {
			for i := 0; i < n; i++ {
				row := x.RawRowView(i)
				for j := 0; j < m; j++ {
					row[j] = (row[j] - data.Mean[j]) / data.SD[j]
				}
			}
		}
	case OverSplit:
		standardise(s.Train, s.Test)
	default:
		return nil, fmt.Errorf("unknown standardisation %v", std)
	}
	return s, nil
}

// drawIndices draws n/2 positive and n/2 negative rows for training and
// as many others for testing. Each set lists its positive rows first.
func drawIndices(y []float64, n int, rng *rand.Rand) (train, test []int, err error) {
	var pos, neg []int
	for i, v := range y {
		if v > 0 {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	half := n / 2
	for _, c := range []struct {
		name string
		idx  []int
	}{{"positive", pos}, {"negative", neg}} {
		if len(c.idx) < n {
			return nil, nil, fmt.Errorf("%d %s rows, but n = %d needs %d (n/2 for training and n/2 for testing)", len(c.idx), c.name, n, n)
		}
	}
	for _, idx := range [][]int{pos, neg} {
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	}
	train = append(append(train, pos[:half]...), neg[:half]...)
	test = append(append(test, pos[half:n]...), neg[half:n]...)
	return train, test, nil
}

// withNoise returns the rows idx of x followed by d − M columns of
// standard Gaussian noise, drawn row by row.
func withNoise(x *mat.Dense, idx []int, d int, rng *rand.Rand) *mat.Dense {
	_, m := x.Dims()
	out := mat.NewDense(len(idx), d, nil)
	for r, i := range idx {
		row := out.RawRowView(r)
		copy(row, x.RawRowView(i))
		for j := m; j < d; j++ {
			row[j] = rng.NormFloat64()
		}
	}
	return out
}

func pick(y []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for r, i := range idx {
		out[r] = y[i]
	}
	return out
}

// standardise centres and scales every column of a and b in place with the
// mean and sample standard deviation of the rows of both.
func standardise(a, b *mat.Dense) {
	na, d := a.Dims()
	nb, _ := b.Dims()
	col := make([]float64, na+nb)
	for j := 0; j < d; j++ {
		mat.Col(col[:na], j, a)
		mat.Col(col[na:], j, b)
		mean, sd := meanSD(col)
		for i, v := range col {
			v = (v - mean) / sd
			if i < na {
				a.Set(i, j, v)
			} else {
				b.Set(i-na, j, v)
			}
		}
	}
}

// meanSD returns the mean and sample standard deviation of v, with SD 1
// for a constant v (whose mean is then its value exactly, so that
// standardising gives exact zeros).
func meanSD(v []float64) (mean, sd float64) {
	lo, hi := v[0], v[0]
	var sum float64
	for _, x := range v {
		sum += x
		lo, hi = min(lo, x), max(hi, x)
	}
	if lo == hi || len(v) < 2 {
		return lo, 1
	}
	mean = sum / float64(len(v))
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(v)-1))
}
