#!/usr/bin/env python3
"""Print, for each component of PROJ.csv (the output of "ngca transform"),
the share of its variance explained by a group of columns of TABLE.csv
(between-group variance / total variance, rows taken in the same order).

    python3 scripts/your-data/group_share.py PROJ.csv TABLE.csv g_a,g_b,g_c
"""
import csv, sys

proj = list(csv.DictReader(open(sys.argv[1])))
table = list(csv.DictReader(open(sys.argv[2])))
group = [tuple(r[c] for c in sys.argv[3].split(",")) for r in table]
assert len(proj) == len(group)
for c in proj[0]:
    y = [float(r[c]) for r in proj]
    m = sum(y) / len(y)
    between = 0.0
    for g in set(group):
        ys = [v for v, h in zip(y, group) if h == g]
        between += len(ys) * (sum(ys) / len(ys) - m) ** 2
    print(f"{c}: {between / sum((v - m) ** 2 for v in y):.2f}")
