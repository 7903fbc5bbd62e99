#!/usr/bin/env bash
# Measures every `ngca fit` method on real data nobody here wrote, for the
# choice of the default method: docs/default-method.md (its tables are the
# output of this script).
#
#   scripts/default-method.sh                    # builds ./cmd/ngca once
#   NGCA=/path/to/ngca NGCA_DATA=/path/to/libsvm scripts/default-method.sh
#
# Environment:
#   NGCA        the ngca command (default: `go run ./cmd/ngca`, compiled once
#               with go build instead of once per fit)
#   NGCA_DATA   folder of the LIBSVM files vehicle.scale, svmguide3, svmguide1,
#               shuttle.trn, ijcnn1 (default ../shared/datasets, as
#               `go run ./cmd/reproduce benchmark`)
#   NGCA_SRC    module source the ablation helper is built against: the
#               robust variant's settings that the command does not expose
#               (NullZ, Path); default this repository. NGCA_ABLATE=0 skips it.
#   NGCA_OUT    output folder (default results/default-method): datasets/,
#               runs.jsonl (every fit), tables.md, summary.json, env.txt
#   NGCA_SEEDS  seeds 1..N per method and M (default 5; 3 on digits, d = 61)
#   NGCA_ONLY   comma-separated data sets to run (default all; for testing)
#   NGCA_SYNTHETIC=0 skips the artificial-data part (ngca demo at n = 200
#               and the helper at n = 200 and 2000)
#   PYTHON      a python3 with scikit-learn (default /usr/bin/python3, which
#               Debian's python3-sklearn serves)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
out=${NGCA_OUT:-results/default-method}
data=${NGCA_DATA:-../shared/datasets}
src=${NGCA_SRC:-$root}
seeds=${NGCA_SEEDS:-5}
py=${PYTHON:-/usr/bin/python3}
[ -x "$py" ] || py=python3
if ! "$py" -c 'import sklearn, numpy' 2>/dev/null; then
	echo "default-method.sh: $py cannot import sklearn: apt-get install python3-sklearn (or set PYTHON)" >&2
	exit 1
fi
for f in vehicle.scale svmguide3 svmguide1 shuttle.trn ijcnn1; do
	[ -f "$data/$f" ] || { echo "default-method.sh: $data/$f is missing: set NGCA_DATA to the LIBSVM folder" >&2; exit 1; }
done
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${NGCA:-}" ]; then
	go build -o "$tmp/ngca" ./cmd/ngca
	NGCA=$tmp/ngca
fi

ablate=
if [ "${NGCA_ABLATE:-1}" != 0 ]; then
	mkdir -p "$tmp/ablate"
	cat > "$tmp/ablate/main.go" <<'GO'
// Command ablate fits the robust WF-LSNGCA with settings that the ngca
// command does not expose (NullZ, Path), for scripts/default-method.sh.
// Input: a CSV of numbers (no header, no label); output: JSON with basis,
// robust (path, wald, df, p, distance, refined, kernel_coords, null_coords,
// columns 1-based, wald and p null when not finite: the shape in which
// default_method_eval.py reads the report of `ngca fit -json`) and
// seconds; Src is rand.NewPCG(seed, 0), as `ngca fit -seed`. With
// -artificial it draws the paper's artificial data as `ngca demo` does and
// prints one JSON line per distribution with the subspace error ε, the path,
// the p-value of the Wald test and the number of null coordinates.
package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
	"gonum.org/v1/gonum/mat"
)

func main() {
	dim := flag.Int("dim", 2, "M")
	seed := flag.Uint64("seed", 1, "seed (Src = rand.NewPCG(seed, 0), as the ngca command)")
	nullz := flag.Float64("nullz", 0, "RobustWFLSNGCA.NullZ (0 = default 3, negative = off)")
	path := flag.String("path", "adaptive", "RobustWFLSNGCA.Path: adaptive, axes or equivariant")
	art := flag.String("artificial", "", "instead of a file: the paper's artificial data, distributions (e.g. a,b,c,d), drawn as `ngca demo` draws them")
	an := flag.Int("n", 2000, "-artificial: observations")
	ad := flag.Int("d", 10, "-artificial: dimensions")
	ar := flag.Float64("r", 0, "-artificial: condition-number controller r")
	rot := flag.Bool("rotate", false, "-artificial: turn the data by a random rotation")
	flag.Parse()
	opts := func() (*ngca.RobustWFLSNGCA, error) {
		o := &ngca.RobustWFLSNGCA{NullZ: *nullz}
		switch *path {
		case "adaptive":
		case "axes":
			o.Path = ngca.RobustAxes
		case "equivariant":
			o.Path = ngca.RobustEquivariant
		default:
			return nil, fmt.Errorf("bad -path %q", *path)
		}
		return o, nil
	}
	if *art != "" {
		// As `ngca demo -seed S`: data Src rand.NewPCG(S, k), estimator
		// Src rand.NewPCG(S, 1000+k), k the distribution's index a=0 … d=3.
		o, err := opts()
		if err != nil {
			fail(err)
		}
		for _, name := range strings.Split(*art, ",") {
			dist, err := ngcatest.ParseDistribution(name)
			if err != nil {
				fail(err)
			}
			k := uint64(dist)
			x, truth, err := ngcatest.Artificial{Dist: dist, N: *an, D: *ad, R: *ar, Rotate: *rot}.Sample(rand.NewPCG(*seed, k))
			if err != nil {
				fail(err)
			}
			t0 := time.Now()
			e := *o
			e.Dim, e.Src = 2, rand.NewPCG(*seed, 1000+k)
			res, err := e.Fit(context.Background(), x)
			out := map[string]any{"dist": dist.String(), "seconds": time.Since(t0).Seconds()}
			if err != nil {
				out["err"] = err.Error()
			} else {
				out["eps"] = ngca.SubspaceError(truth, res.Basis)
				r := res.Report.(*ngca.RobustReport)
				out["path"] = r.Path.String()
				out["p"] = finite(r.P)
				out["null"] = len(r.NullCoords)
			}
			if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
				fail(err)
			}
		}
		return
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fail(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		fail(err)
	}
	x := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		for j, s := range r {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				fail(err)
			}
			x.Set(i, j, v)
		}
	}
	o, err := opts()
	if err != nil {
		fail(err)
	}
	est := o
	est.Dim, est.Src = *dim, rand.NewPCG(*seed, 0)
	t0 := time.Now()
	res, err := est.Fit(context.Background(), x)
	if err != nil {
		fail(err)
	}
	_, d := x.Dims()
	out := map[string]any{"seconds": time.Since(t0).Seconds()}
	basis := make([][]float64, d)
	for i := range basis {
		basis[i] = mat.Row(nil, i, res.Basis)
	}
	out["basis"] = basis
	if r, ok := res.Report.(*ngca.RobustReport); ok {
		one := func(v []int) []int {
			w := make([]int, len(v))
			for i, c := range v {
				w[i] = c + 1
			}
			return w
		}
		out["robust"] = map[string]any{"path": r.Path.String(), "wald": finite(r.Wald), "df": r.DF, "p": finite(r.P),
			"distance": finite(r.Distance), "refined": r.Refined, "kernel_coords": one(r.KernelCoords), "null_coords": one(r.NullCoords)}
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail(err)
	}
}

// finite returns v, or nil (JSON null) if v is NaN or infinite, as
// default_method_eval.py reads the robust report: Wald, P and Distance are NaN
// when only one path ran, Wald is +Inf (P = 0) when the test's regression
// is singular, and Distance +Inf when the axes estimate is orthogonal to
// part of the equivariant estimate's frame.
func finite(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "ablate:", err)
	os.Exit(1)
}
GO
	printf 'module ablate\n\ngo 1.25\n\nrequire github.com/ngca-go/ngca v0.0.0\n\nreplace github.com/ngca-go/ngca => %s\n' "$src" > "$tmp/ablate/go.mod"
	cp "$src/go.sum" "$tmp/ablate/go.sum"
	if (cd "$tmp/ablate" && GOFLAGS=-mod=mod go build -o ablate .); then
		ablate=$tmp/ablate/ablate
	else
		echo "default-method.sh: the ablation helper does not build against $src; ablations skipped" >&2
	fi
fi

{
	echo "date: $(date -u +%FT%TZ)"
	echo "ngca: $NGCA"
	echo "commit: $(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)"
	echo "go: $(go version)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') × $(nproc)"
	echo "python: $("$py" -c 'import sys, sklearn, numpy; print(sys.version.split()[0], "sklearn", sklearn.__version__, "numpy", numpy.__version__)')"
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/env.txt"
start=$(date +%s)
"$py" scripts/default_method_eval.py export --out "$out/datasets" --libsvm "$data" \
	--sweep vehicle,svmguide3,breast_cancer,shuttle,ijcnn1,svmguide1 --sweep-n 100,200,400,800 --sweep-reps 2
"$py" scripts/default_method_eval.py run --data "$out/datasets" --out "$out" --ngca "$NGCA" --ablate "$ablate" \
	--seeds "$seeds" --ablation-seeds 3 --big-d 40 --big-seeds 3 --only "${NGCA_ONLY:-}"
rm -f "$out/synthetic.jsonl"
if [ "${NGCA_SYNTHETIC:-1}" != 0 ]; then
	"$py" scripts/default_method_eval.py synthetic --out "$out" --ngca "$NGCA" --ablate "$ablate" \
		--n 200,2000 --seeds 2 --seeds-2000 1
fi
"$py" scripts/default_method_eval.py report --data "$out/datasets" --out "$out" > /dev/null
end=$(date +%s)
times > "$tmp/times"
{
	echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "run time: $((end - start)) s"
	echo "CPU time of this script's processes (user, system): $(tail -1 "$tmp/times")"
} >> "$out/env.txt"
cat "$out/env.txt"
echo "tables: $out/tables.md"
