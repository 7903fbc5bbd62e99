package ngcabeam

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gonum.org/v1/gonum/mat"
)

// Rows is a block of consecutive rows of one source (a file): the
// elements of the PCollections of rows that the package's transforms
// take and return. Passing rows in blocks of a few thousand costs a
// runner a few hundred elements per million rows instead of a million.
type Rows struct {
	// Source names where the rows come from (a file's name; "" if none),
	// and Block is the block's position among the blocks of its source,
	// from 0, in the source's order.
	Source string
	Block  int
	// Cols is the number of data columns, and Values holds the rows'
	// values, row after row: row i's are Values[i·Cols : (i+1)·Cols].
	Cols   int
	Values []float64
	// Lines holds the 1-based line of every row in its source (0 where
	// unknown, and nil if all are), for messages.
	Lines []int
	// KeepCols is the number of cells of every row that Project passes
	// through before the coordinates, and Keep holds them, row after row.
	KeepCols int
	Keep     []string
	// Labels holds one label per row, or is nil without labels.
	Labels []string
	// Missing marks the rows with a missing value (NaN in Values), which
	// only Project takes (its coordinates are then NaN); nil if none is.
	Missing []bool
}

// Len returns the number of rows.
func (r Rows) Len() int {
	if r.Cols == 0 {
		return 0
	}
	return len(r.Values) / r.Cols
}

// Matrix returns the rows as a Len×Cols matrix sharing Values.
func (r Rows) Matrix() *mat.Dense { return mat.NewDense(r.Len(), r.Cols, r.Values) }

// check returns an error if the fields' lengths do not agree.
func (r Rows) check() error {
	n := r.Len()
	switch {
	case r.Cols < 0 || r.Cols == 0 && len(r.Values) > 0 || r.Cols > 0 && len(r.Values)%r.Cols != 0:
		return fmt.Errorf("ngcabeam: rows of %d values in %d columns", len(r.Values), r.Cols)
	case r.Lines != nil && len(r.Lines) != n, r.Labels != nil && len(r.Labels) != n, r.Missing != nil && len(r.Missing) != n,
		r.KeepCols < 0 || len(r.Keep) != n*r.KeepCols:
		return fmt.Errorf("ngcabeam: a block of %d rows with %d lines, %d labels, %d missing marks and %d kept cells (%d a row)",
			n, len(r.Lines), len(r.Labels), len(r.Missing), len(r.Keep), r.KeepCols)
	}
	return nil
}

// where names row i of the block in messages: "line 12 of data.csv".
func (r Rows) where(i int) string {
	src := r.Source
	if src == "" {
		src = "the input"
	}
	if r.Lines != nil && r.Lines[i] > 0 {
		return fmt.Sprintf("line %d of %s", r.Lines[i], src)
	}
	return fmt.Sprintf("a row of %s", src)
}

// FromVectors returns the rows of a PCollection<[]float64> (one row a
// vector, all of one length) in blocks of up to blockRows rows of each
// bundle, with no source.
func FromVectors(s beam.Scope, vectors beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("ngcabeam.FromVectors"), &batchFn{}, vectors)
}

// blockRows is the number of rows of a block: that of "ngca transform"'s
// chunks, so that Project forms its coordinates over the same rows.
const blockRows = 4096

// batchFn collects the vectors of a bundle into blocks.
type batchFn struct {
	cur Rows
	n   int
}

func (f *batchFn) ProcessElement(v []float64, emit func(Rows)) error {
	if f.cur.Cols == 0 {
		f.cur.Cols = len(v)
	}
	if len(v) != f.cur.Cols || len(v) == 0 {
		return fmt.Errorf("ngcabeam: a vector of %d values among vectors of %d", len(v), f.cur.Cols)
	}
	f.cur.Values = append(f.cur.Values, v...)
	if f.cur.Len() == blockRows {
		f.flush(emit)
	}
	return nil
}

func (f *batchFn) flush(emit func(Rows)) {
	if f.cur.Len() > 0 {
		f.cur.Block = f.n
		f.n++
		emit(f.cur)
	}
	f.cur = Rows{Cols: f.cur.Cols}
}

func (f *batchFn) FinishBundle(emit func(Rows)) { f.flush(emit); f.cur = Rows{} }

// The binary form of Rows (the coder the package registers): uvarints for
// counts, lengths and integers, 8 little-endian bytes a value.

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func encodeRows(r Rows) ([]byte, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	n := r.Len()
	size := 32 + len(r.Source) + 8*len(r.Values) + 4*len(r.Lines) + n
	for _, s := range r.Keep {
		size += len(s) + 2
	}
	for _, s := range r.Labels {
		size += len(s) + 2
	}
	b := make([]byte, 0, size)
	b = appendString(b, r.Source)
	b = binary.AppendUvarint(b, uint64(r.Block))
	b = binary.AppendUvarint(b, uint64(r.Cols))
	b = binary.AppendUvarint(b, uint64(n))
	for _, v := range r.Values {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	var flags byte
	if r.Lines != nil {
		flags |= 1
	}
	if r.Labels != nil {
		flags |= 2
	}
	if r.Missing != nil {
		flags |= 4
	}
	b = append(b, flags)
	for _, l := range r.Lines {
		b = binary.AppendUvarint(b, uint64(l))
	}
	b = binary.AppendUvarint(b, uint64(r.KeepCols))
	for _, s := range r.Keep {
		b = appendString(b, s)
	}
	for _, s := range r.Labels {
		b = appendString(b, s)
	}
	for _, m := range r.Missing {
		if m {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return b, nil
}

var errRowsCode = errors.New("ngcabeam: bad encoding of rows")

// reader reads the binary form, remembering the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() int {
	if r.err != nil {
		return 0
	}
	v, k := binary.Uvarint(r.b)
	if k <= 0 || v > math.MaxInt32*64 {
		r.err = errRowsCode
		return 0
	}
	r.b = r.b[k:]
	return int(v)
}

func (r *reader) string() string {
	n := r.uvarint()
	if r.err != nil || n > len(r.b) {
		r.err = errRowsCode
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *reader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.err = errRowsCode
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func decodeRows(b []byte) (Rows, error) {
	rd := &reader{b: b}
	var r Rows
	r.Source = rd.string()
	r.Block, r.Cols = rd.uvarint(), rd.uvarint()
	n := rd.uvarint()
	if rd.err != nil || r.Cols > 0 && n > len(rd.b)/8/r.Cols || r.Cols == 0 && n > 0 {
		return Rows{}, errRowsCode
	}
	r.Values = make([]float64, n*r.Cols)
	for i := range r.Values {
		r.Values[i] = math.Float64frombits(binary.LittleEndian.Uint64(rd.b[8*i:]))
	}
	rd.b = rd.b[8*len(r.Values):]
	flags := rd.byte()
	if flags&1 != 0 && n > len(rd.b) {
		return Rows{}, errRowsCode
	}
	if flags&1 != 0 {
		r.Lines = make([]int, n)
		for i := range r.Lines {
			r.Lines[i] = rd.uvarint()
		}
	}
	r.KeepCols = rd.uvarint()
	if rd.err != nil || n*r.KeepCols > len(rd.b) || n > len(rd.b) && flags&6 != 0 {
		return Rows{}, errRowsCode
	}
	if r.KeepCols > 0 {
		r.Keep = make([]string, n*r.KeepCols)
		for i := range r.Keep {
			r.Keep[i] = rd.string()
		}
	}
	if flags&2 != 0 {
		r.Labels = make([]string, n)
		for i := range r.Labels {
			r.Labels[i] = rd.string()
		}
	}
	if flags&4 != 0 {
		r.Missing = make([]bool, n)
		for i := range r.Missing {
			r.Missing[i] = rd.byte() == 1
		}
	}
	if rd.err != nil || len(rd.b) != 0 {
		return Rows{}, errRowsCode
	}
	return r, nil
}

func init() {
	beam.RegisterCoder(reflect.TypeOf(Rows{}), encodeRows, decodeRows)
	register.DoFn2x1[[]float64, func(Rows), error](&batchFn{})
	register.Emitter1[Rows]()
}
