#!/usr/bin/env python3
"""Write gross.csv for docs/your-data.md: 1000 rows of a uniform column u
(the non-Gaussian signal) and five standard normal columns n1..n5, with one
gross value, 10000 in n3 on line 59 (data row 58), as a data-entry error
or a missing-value code gives. Seeded: the same file on every run.

    python3 scripts/your-data/gross_value.py [OUTDIR]
    ngca fit -dim 1 -check gross.csv                  # leaves line 59 out: u, check ok
    ngca fit -dim 1 -check -outliers keep gross.csv   # keeps it: n3, check doubtful
"""
import csv, random, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = random.Random(1)
with open(f"{OUT}/gross.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["u", "n1", "n2", "n3", "n4", "n5"])
    for i in range(1000):
        row = [rng.uniform(-1.7, 1.7)] + [rng.gauss(0, 1) for _ in range(5)]
        if i == 57:
            row[3] = 10000.0
        w.writerow([repr(v) for v in row])
