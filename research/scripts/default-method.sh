#!/usr/bin/env bash
# Measures every `ngca fit` method on real data nobody here wrote, for the
# choice of the default method: docs/default-method.md (its tables are the
# output of this script).
#
#   scripts/default-method.sh                    # inside research/; builds ../cmd/ngca once
#   NGCA=/path/to/ngca NGCA_DATA=/path/to/libsvm scripts/default-method.sh
#
# Environment:
#   NGCA        the ngca command (default: `go run ./cmd/ngca`, compiled once
#               with go build instead of once per fit)
#   NGCA_DATA   folder of the LIBSVM files vehicle.scale, svmguide3, svmguide1,
#               shuttle.trn, ijcnn1 (default ../../shared/datasets, as
#               `go run ./cmd/reproduce benchmark`)
#   NGCA_ABLATE=0 skips the ablations (scripts/default-method-ablate: the
#               robust variant's settings that the command does not expose).
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
data=${NGCA_DATA:-../../shared/datasets}
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
	(cd .. && go build -o "$tmp/ngca" ./cmd/ngca)
	NGCA=$tmp/ngca
fi

ablate=
if [ "${NGCA_ABLATE:-1}" != 0 ]; then
	if go build -o "$tmp/ablate" ./scripts/default-method-ablate; then
		ablate=$tmp/ablate
	else
		echo "default-method.sh: the ablation helper does not build; ablations skipped" >&2
	fi
fi

{
	echo "date: $(date -u +%FT%TZ)"
	echo "ngca: $NGCA"
	echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
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
