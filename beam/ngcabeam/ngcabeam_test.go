package ngcabeam

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

// The tests run their pipelines on prism in loopback mode: the workers
// are goroutines of the test, which collect the outputs in captured.
var captured sync.Map // key → []any

// captureFn appends each element to captured[Key].
type captureFn struct{ Key string }

func (f *captureFn) ProcessElement(v beam.T) {
	old, _ := captured.Load(f.Key)
	list, _ := old.([]any)
	captured.Store(f.Key, append(list, v))
}

func init() {
	register.DoFn1x0[beam.T](&captureFn{})
}

// TestMain runs the tests on prism: beam.Init, which a Beam program's
// main calls, then the tests, with the runner's log (slog, which Init
// sets up) discarded: the tests check the errors beam.Run returns.
func TestMain(m *testing.M) {
	flag.Parse()
	beam.Init()
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	os.Exit(m.Run())
}

// capture adds a sink of col's elements to the pipeline.
func capture(s beam.Scope, key string, col beam.PCollection) {
	captured.Delete(key)
	beam.ParDo0(s, &captureFn{Key: key}, col)
}

// got returns the elements captured under key.
func got[T any](t *testing.T, key string) []T {
	t.Helper()
	v, _ := captured.Load(key)
	var out []T
	for _, e := range v.([]any) {
		out = append(out, e.(T))
	}
	return out
}

func run(t *testing.T, p *beam.Pipeline) error {
	t.Helper()
	_, err := beam.Run(context.Background(), "prism", p)
	return err
}

// data returns the paper's data (a) with n rows and d columns.
func data(t *testing.T, n, d int) *mat.Dense {
	t.Helper()
	x, _, err := ngcatest.Artificial{N: n, D: d}.Sample(rand.NewPCG(7, 8))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// blocks splits the rows of x into k sources of blocks of at most size
// rows.
func blocks(x *mat.Dense, k, size int) []Rows {
	n, d := x.Dims()
	var out []Rows
	for f := 0; f < k; f++ {
		lo, hi := f*n/k, (f+1)*n/k
		for b, i := 0, lo; i < hi; b, i = b+1, i+size {
			j := min(hi, i+size)
			r := Rows{Source: "src" + string(rune('a'+f)), Block: b, Cols: d}
			for p := i; p < j; p++ {
				r.Values = append(r.Values, x.RawRowView(p)...)
				r.Lines = append(r.Lines, p-lo+2)
			}
			out = append(out, r)
		}
	}
	return out
}

// hashOrder returns the sample of x that Sample draws.
func hashOrder(x *mat.Dense, seed uint64, k int) *mat.Dense { return SampleMatrix(x, k, seed) }

func decode(t *testing.T, f Fitted) *ngca.Result {
	t.Helper()
	r, err := f.Decode()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestBlocks checks the test's own splitting.
func TestBlocks(t *testing.T) {
	x := data(t, 1000, 3)
	var n int
	for _, b := range blocks(x, 3, 128) {
		n += b.Len()
		if err := b.check(); err != nil {
			t.Fatal(err)
		}
	}
	if n != 1000 {
		t.Fatalf("%d rows in the blocks", n)
	}
}

// TestSampleAnySplit checks that the sample, and so the fit, is the same
// bits for 8 and 3 sources and other blocks, and is the fit of the rows
// of smallest hash in the order of their hashes.
func TestSampleAnySplit(t *testing.T) {
	x := data(t, 3000, 6)
	opt := FitOptions{Method: "wflsngca", Dim: 2, Sample: 1200, Seed: 11}
	for _, split := range []struct {
		key         string
		files, size int
	}{{"8", 8, 100}, {"3", 3, 4096}} {
		p, s := beam.NewPipelineWithRoot()
		rows := beam.CreateList(s, blocks(x, split.files, split.size))
		capture(s, "sample"+split.key, Sample(s, rows, opt.Sample, opt.Seed))
		capture(s, "fit"+split.key, Fit(s, rows, opt))
		if err := run(t, p); err != nil {
			t.Fatal(err)
		}
	}
	s8, s3 := got[Sampled](t, "sample8"), got[Sampled](t, "sample3")
	want := hashOrder(x, opt.Seed, opt.Sample)
	for _, s := range [][]Sampled{s8, s3} {
		if len(s) != 1 || s[0].Of != 3000 || !mat.Equal(s[0].Rows.Matrix(), want) {
			t.Fatalf("the sample is not the 1200 rows of smallest hash in their order")
		}
	}
	// Independently of SampleMatrix: ascending hashes, none left out below
	// the largest kept.
	var top uint64
	kept := map[uint64]bool{}
	for i := 0; i < opt.Sample; i++ {
		h, _ := rowHash(opt.Seed, want.RawRowView(i), nil)
		if h < top {
			t.Fatalf("row %d of the sample: hash below the one before", i)
		}
		top, kept[h] = h, true
	}
	for i := 0; i < 3000; i++ {
		if h, _ := rowHash(opt.Seed, x.RawRowView(i), nil); !kept[h] && h <= top {
			t.Fatalf("row %d has a hash below the sample's largest but is not in it", i)
		}
	}
	f8, f3 := got[Fitted](t, "fit8"), got[Fitted](t, "fit3")
	r8, r3 := decode(t, f8[0]), decode(t, f3[0])
	lib, err := (&ngca.WFLSNGCA{Dim: 2, Src: rand.NewPCG(opt.Seed, 0)}).Fit(context.Background(), want)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*ngca.Result{r3, lib} {
		if !mat.Equal(r8.Basis, r.Basis) || !slices.Equal(r8.Eigenvalues, r.Eigenvalues) {
			t.Errorf("bases differ:\n%v\n%v", mat.Formatted(r8.Basis), mat.Formatted(r.Basis))
		}
	}
	if f8[0].Rows != 1200 || f8[0].Of != 3000 || f8[0].Method != "wflsngca" {
		t.Errorf("Fitted %+v", f8[0])
	}
}

// TestFullEqualsFit checks the full-data mode: with the sample's choices,
// the fit to every row equals the single-machine fit to them (ε ≤ 1e-10),
// and with a sample of every row the estimator's own fit.
func TestFullEqualsFit(t *testing.T) {
	ctx := context.Background()
	x := data(t, 4000, 5)
	for _, tc := range []struct {
		method string
		k      int
	}{{"wflsngca", 1500}, {"wflsngca", 5000}, {"lsngca", 1500}} {
		opt := FitOptions{Method: tc.method, Dim: 2, Sample: tc.k, Seed: 3, Full: true}
		p, s := beam.NewPipelineWithRoot()
		key := tc.method + string(rune(tc.k))
		capture(s, key, Fit(s, beam.CreateList(s, blocks(x, 4, 700)), opt))
		if err := run(t, p); err != nil {
			t.Fatal(err)
		}
		f := got[Fitted](t, key)[0]
		full := decode(t, f)
		if f.Rows != 4000 || f.Of != 4000 || !f.Full || f.Sample != min(tc.k, 4000) {
			t.Errorf("%s: Fitted rows %d of %d, sample %d", tc.method, f.Rows, f.Of, f.Sample)
		}
		// The single-machine fit with the sample's choices.
		sample := hashOrder(x, opt.Seed, tc.k)
		var est interface {
			FitPlan(context.Context, mat.Matrix) (*ngca.Result, *ngca.Plan, error)
		} = &ngca.WFLSNGCA{Dim: 2, Src: rand.NewPCG(3, 0)}
		if tc.method == "lsngca" {
			est = &ngca.LSNGCA{Dim: 2, Src: rand.NewPCG(3, 0)}
		}
		sampleFit, plan, err := est.FitPlan(ctx, sample)
		if err != nil {
			t.Fatal(err)
		}
		for !plan.Done() {
			sums := plan.NewSums()
			if err := sums.Add(x); err != nil {
				t.Fatal(err)
			}
			if plan, err = plan.Next(sums); err != nil {
				t.Fatal(err)
			}
		}
		one, err := plan.Result()
		if err != nil {
			t.Fatal(err)
		}
		if e := ngca.SubspaceError(one.Basis, full.Basis); !(e <= 1e-10) {
			t.Errorf("%s, sample %d: ε = %.3g between the Beam full fit and the single-machine one, want ≤ 1e-10", tc.method, tc.k, e)
		}
		if tc.k >= 4000 {
			// The sample is every row: its fit is the estimator's.
			if e := ngca.SubspaceError(sampleFit.Basis, full.Basis); !(e <= 1e-10) {
				t.Errorf("%s: ε = %.3g between the Beam full fit and the library's fit of every row, want ≤ 1e-10", tc.method, e)
			}
		}
	}
}

// TestProject checks Project against ngca.Result.ProjectTo.
func TestProject(t *testing.T) {
	x := data(t, 900, 4)
	res, err := (&ngca.WFLSNGCA{Dim: 2}).Fit(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	fit, err := FromJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	in := blocks(x, 2, 300)
	in[1].Missing = make([]bool, in[1].Len())
	in[1].Missing[5] = true
	in[1].Labels = make([]string, in[1].Len())
	in[1].Labels[4] = "y"
	in[1].KeepCols, in[1].Keep = 1, make([]string, in[1].Len())
	in[1].Keep[3] = "id"
	p, s := beam.NewPipelineWithRoot()
	capture(s, "project", Project(s, beam.Create(s, fit), beam.CreateList(s, in)))
	if err := run(t, p); err != nil {
		t.Fatal(err)
	}
	out := got[Rows](t, "project")
	if len(out) != len(in) {
		t.Fatalf("%d blocks out of %d", len(out), len(in))
	}
	for _, o := range out {
		k := slices.IndexFunc(in, func(r Rows) bool { return r.Source == o.Source && r.Block == o.Block })
		r := in[k]
		var want mat.Dense
		res.ProjectTo(&want, r.Matrix())
		if o.Cols != 2 || !reflect.DeepEqual(o.Lines, r.Lines) || !reflect.DeepEqual(o.Keep, r.Keep) || !reflect.DeepEqual(o.Labels, r.Labels) {
			t.Fatalf("block %s/%d: passed-through fields differ", o.Source, o.Block)
		}
		for i := 0; i < o.Len(); i++ {
			for c := 0; c < 2; c++ {
				v := o.Values[i*2+c]
				if r.Missing != nil && r.Missing[i] {
					if !math.IsNaN(v) {
						t.Errorf("missing row %d: %v", i, v)
					}
				} else if v != want.At(i, c) {
					t.Errorf("block %s/%d, row %d: %v, ProjectTo %v", o.Source, o.Block, i, v, want.At(i, c))
				}
			}
		}
	}
}

// TestRead checks Read's rows, Input and errors, and that a bad shard is
// named with its line.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.csv", "x,y,z\n1,2,3\n")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("x,y,z\n4,5,6\n"))
	zw.Close()
	write("a2.csv.gz", gz.String())
	write("b.csv", "x,y,z\n7,8,9\n1,2,NA\n3,3,1\n")
	p, s := beam.NewPipelineWithRoot()
	rows, input := Read(s, filepath.Join(dir, "*.csv*"), ReadOptions{Missing: "drop", Cols: "x,z"})
	capture(s, "rows", rows)
	capture(s, "input", input)
	pr, err := beam.Run(context.Background(), "prism", p)
	if err != nil {
		t.Fatal(err)
	}
	in := got[Input](t, "input")[0]
	if in.Format != "csv" || !in.Header || !slices.Equal(in.Names, []string{"x", "z"}) || !slices.Equal(in.Fields, []int{1, 3}) ||
		in.Rows() != 4 || in.Dropped() != 1 || len(in.Files) != 3 || in.Files[2].Path != filepath.Join(dir, "b.csv") {
		t.Errorf("Input %+v", in)
	}
	var vals []float64
	for _, r := range got[Rows](t, "rows") {
		vals = append(vals, r.Values...)
	}
	slices.Sort(vals)
	if !slices.Equal(vals, []float64{1, 1, 3, 3, 4, 6, 7, 9}) {
		t.Errorf("values %v", vals)
	}
	files := FilesOf(pr.Metrics())
	if len(files) != 3 || files[2].Dropped != 1 || files[2].Rows != 2 {
		t.Errorf("counted %+v", files)
	}

	write("c.csv", "x,y,z\n1,2,3\n4,five,6\n")
	p, s = beam.NewPipelineWithRoot()
	rows, _ = Read(s, filepath.Join(dir, "*.csv"), ReadOptions{Missing: "drop"})
	capture(s, "bad", rows)
	err = run(t, p)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "c.csv")+":3: column 2") {
		t.Errorf("a bad cell: %v", err)
	}

	os.Remove(filepath.Join(dir, "c.csv"))
	write("d.csv", "x,w,z\n1,2,3\n4,5,6\n")
	p, s = beam.NewPipelineWithRoot()
	_, input = Read(s, filepath.Join(dir, "*.csv"), ReadOptions{Missing: "drop"})
	capture(s, "mismatch", input)
	err = run(t, p)
	if err == nil || !strings.Contains(err.Error(), "d.csv has the data columns") {
		t.Errorf("files of two layouts: %v", err)
	}
}
