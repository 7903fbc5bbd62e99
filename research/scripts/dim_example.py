#!/usr/bin/env python3
"""Write the table of docs/dim.md's example to standard output: 1500 rows of
12 columns whose first three are a uniform, an exponential (minus 1) and a
bimodal (±3 plus N(0, 1), scaled) signal of unit variance and the rest
N(0, 1), turned by a random rotation of all columns (Gram-Schmidt of a
Gaussian matrix). Pure Python; the output is the same on every run.

    python3 research/scripts/dim_example.py > example.csv
"""
import math, random

rng = random.Random(1)
n, d = 1500, 12
rot = []
for _ in range(d):
    v = [rng.gauss(0, 1) for _ in range(d)]
    for q in rot:
        dot = sum(a * b for a, b in zip(v, q))
        v = [a - dot * b for a, b in zip(v, q)]
    norm = math.sqrt(sum(a * a for a in v))
    rot.append([a / norm for a in v])
signals = [
    lambda: math.sqrt(3) * (2 * rng.random() - 1),
    lambda: rng.expovariate(1) - 1,
    lambda: (math.copysign(3, rng.random() - 0.5) + rng.gauss(0, 1)) / math.sqrt(10),
]
print(",".join("x%d" % (j + 1) for j in range(d)))
for _ in range(n):
    x = [signals[j]() if j < len(signals) else rng.gauss(0, 1) for j in range(d)]
    print(",".join("%.6g" % sum(x[k] * rot[k][j] for k in range(d)) for j in range(d)))
