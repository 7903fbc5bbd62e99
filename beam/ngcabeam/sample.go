package ngcabeam

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gonum.org/v1/gonum/mat"
)

// Sampled is a sample of rows, as Sample returns it.
type Sampled struct {
	// Rows holds the rows of the sample in the order of their hashes (no
	// source, lines, labels or kept cells).
	Rows Rows
	// Of is the number of rows it was drawn from.
	Of int
}

// Sample returns a singleton PCollection of the Sampled: a uniform random
// sample of k rows of the PCollection of Rows (all of them if it has k
// rows or fewer), drawn by bottom-k sampling: every row's hash is the
// first 8 bytes (big-endian) of the SHA-256 of the seed (8 bytes,
// little-endian) followed by its values (8 bytes each, the little-endian
// bits of the float64), and the sample is the k rows of smallest hash, in
// the order of their hashes (ties, which only identical rows have in
// practice, in the order of their values' bits).
//
// The sample is a function of the rows' values and the seed alone: it
// does not depend on how the rows are split into files, blocks, bundles
// or workers, nor on their order, so that a fit of it is the same bits
// however the input was split. Sample is a Beam combine: each worker keeps
// the k smallest hashes of its rows (at most 2k rows between compactions)
// and the runner merges them. Identical rows have the same hash, so they
// are in the sample together or not at all (each still with probability
// k/n); with distinct rows every subset of k rows is equally likely, for
// hashes that behave as random. A row with a missing value fails the
// pipeline.
func Sample(s beam.Scope, rows beam.PCollection, k int, seed uint64) beam.PCollection {
	if k < 1 {
		panic(fmt.Sprintf("ngcabeam: Sample of %d rows", k))
	}
	return beam.Combine(s.Scope("ngcabeam.Sample"), &sampleFn{K: k, Seed: seed}, rows)
}

// SampleMatrix returns, on one machine, the sample that Sample draws from
// the rows of x with the same k and seed: the k rows of smallest hash (all
// of them if x has k rows or fewer), in the order of their hashes.
func SampleMatrix(x mat.Matrix, k int, seed uint64) *mat.Dense {
	n, d := x.Dims()
	f := &sampleFn{K: max(k, 1), Seed: seed}
	acc := sampleAcc{Cols: d}
	var buf []byte
	row := make([]float64, d)
	for i := 0; i < n; i++ {
		mat.Row(row, i, x)
		var h uint64
		h, buf = rowHash(seed, row, buf)
		acc.Seen++
		acc.Hash, acc.Values = append(acc.Hash, h), append(acc.Values, row...)
	}
	out := f.ExtractOutput(acc)
	return out.Rows.Matrix()
}

// sampleAcc holds the candidates of a bottom-k sample: the rows whose hash
// is at most Max once Full (every row of a smaller hash is among them).
type sampleAcc struct {
	Cols   int
	Seen   int
	Full   bool
	Max    uint64
	Hash   []uint64
	Values []float64
}

// sampleFn is the bottom-k CombineFn.
type sampleFn struct {
	K    int
	Seed uint64
}

// rowHash returns the hash of a row (see Sample); buf is workspace.
func rowHash(seed uint64, row []float64, buf []byte) (uint64, []byte) {
	buf = binary.LittleEndian.AppendUint64(buf[:0], seed)
	for _, v := range row {
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
	}
	sum := sha256.Sum256(buf)
	return binary.BigEndian.Uint64(sum[:8]), buf
}

func (f *sampleFn) CreateAccumulator() sampleAcc { return sampleAcc{} }

func (f *sampleFn) AddInput(acc sampleAcc, r Rows) (sampleAcc, error) {
	if err := r.check(); err != nil {
		return acc, err
	}
	n := r.Len()
	if n == 0 {
		return acc, nil
	}
	if acc.Cols == 0 {
		acc.Cols = r.Cols
	}
	if r.Cols != acc.Cols {
		return acc, fmt.Errorf("ngcabeam: Sample: rows of %d columns (%s) among rows of %d", r.Cols, r.where(0), acc.Cols)
	}
	var buf []byte
	for i := 0; i < n; i++ {
		if r.Missing != nil && r.Missing[i] {
			return acc, fmt.Errorf("%s has a missing value: a fit takes complete rows (read with Missing error or drop)", r.where(i))
		}
		row := r.Values[i*r.Cols : (i+1)*r.Cols]
		var h uint64
		h, buf = rowHash(f.Seed, row, buf)
		acc.Seen++
		if acc.Full && h > acc.Max {
			continue
		}
		acc.Hash = append(acc.Hash, h)
		acc.Values = append(acc.Values, row...)
		if len(acc.Hash) >= 2*f.K {
			f.compact(&acc)
		}
	}
	return acc, nil
}

func (f *sampleFn) MergeAccumulators(a, b sampleAcc) (sampleAcc, error) {
	switch {
	case a.Seen == 0:
		return b, nil
	case b.Seen == 0:
		return a, nil
	case a.Cols != b.Cols:
		return a, fmt.Errorf("ngcabeam: Sample: rows of %d and of %d columns", a.Cols, b.Cols)
	}
	out := sampleAcc{Cols: a.Cols, Seen: a.Seen + b.Seen, Hash: append(slices.Clone(a.Hash), b.Hash...),
		Values: append(slices.Clone(a.Values), b.Values...)}
	if len(out.Hash) > f.K {
		f.compact(&out)
	}
	return out, nil
}

func (f *sampleFn) ExtractOutput(acc sampleAcc) Sampled {
	if len(acc.Hash) > f.K || !sorted(acc) {
		f.compact(&acc)
	}
	return Sampled{Rows: Rows{Cols: acc.Cols, Values: acc.Values}, Of: acc.Seen}
}

// sorted reports whether the candidates are in their canonical order.
func sorted(acc sampleAcc) bool {
	for i := 1; i < len(acc.Hash); i++ {
		if compareRows(acc, i-1, i) > 0 {
			return false
		}
	}
	return true
}

// compareRows orders candidates i and j by hash, then by their values'
// bits.
func compareRows(acc sampleAcc, i, j int) int {
	if c := cmp.Compare(acc.Hash[i], acc.Hash[j]); c != 0 {
		return c
	}
	d := acc.Cols
	for k := 0; k < d; k++ {
		if c := cmp.Compare(math.Float64bits(acc.Values[i*d+k]), math.Float64bits(acc.Values[j*d+k])); c != 0 {
			return c
		}
	}
	return 0
}

// compact sorts the candidates and keeps the first K: the accumulator is
// then full, with Max the largest hash kept.
func (f *sampleFn) compact(acc *sampleAcc) {
	idx := make([]int, len(acc.Hash))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int { return compareRows(*acc, i, j) })
	if len(idx) > f.K {
		idx = idx[:f.K]
		acc.Full = true
	}
	d := acc.Cols
	hash, vals := make([]uint64, len(idx)), make([]float64, 0, len(idx)*d)
	for k, i := range idx {
		hash[k] = acc.Hash[i]
		vals = append(vals, acc.Values[i*d:(i+1)*d]...)
	}
	acc.Hash, acc.Values = hash, vals
	if acc.Full && len(hash) > 0 {
		acc.Max = hash[len(hash)-1]
	}
}

func encodeSampleAcc(a sampleAcc) []byte {
	b := make([]byte, 0, 40+8*len(a.Hash)+8*len(a.Values))
	b = binary.AppendUvarint(b, uint64(a.Cols))
	b = binary.AppendUvarint(b, uint64(a.Seen))
	if a.Full {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = binary.LittleEndian.AppendUint64(b, a.Max)
	b = binary.AppendUvarint(b, uint64(len(a.Hash)))
	for _, h := range a.Hash {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	for _, v := range a.Values {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

func decodeSampleAcc(b []byte) (sampleAcc, error) {
	rd := &reader{b: b}
	a := sampleAcc{Cols: rd.uvarint(), Seen: rd.uvarint()}
	a.Full = rd.byte() == 1
	if rd.err != nil || len(rd.b) < 8 {
		return a, errRowsCode
	}
	a.Max = binary.LittleEndian.Uint64(rd.b)
	rd.b = rd.b[8:]
	n := rd.uvarint()
	if rd.err != nil || len(rd.b) != 8*n*(1+a.Cols) {
		return a, errRowsCode
	}
	a.Hash, a.Values = make([]uint64, n), make([]float64, n*a.Cols)
	for i := range a.Hash {
		a.Hash[i] = binary.LittleEndian.Uint64(rd.b[8*i:])
	}
	rd.b = rd.b[8*n:]
	for i := range a.Values {
		a.Values[i] = math.Float64frombits(binary.LittleEndian.Uint64(rd.b[8*i:]))
	}
	return a, nil
}

func encodeSampled(s Sampled) ([]byte, error) {
	r, err := encodeRows(s.Rows)
	return append(binary.AppendUvarint(nil, uint64(s.Of)), r...), err
}

func decodeSampled(b []byte) (Sampled, error) {
	of, n := binary.Uvarint(b)
	if n <= 0 {
		return Sampled{}, errRowsCode
	}
	r, err := decodeRows(b[n:])
	return Sampled{Rows: r, Of: int(of)}, err
}

func init() {
	beam.RegisterCoder(reflect.TypeOf(sampleAcc{}), encodeSampleAcc, decodeSampleAcc)
	beam.RegisterCoder(reflect.TypeOf(Sampled{}), encodeSampled, decodeSampled)
	register.Combiner3[sampleAcc, Rows, Sampled](&sampleFn{})
}
