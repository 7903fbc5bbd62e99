#!/usr/bin/env python3
"""Write, for docs/your-data.md, from the copies of UCI data sets in Debian's
python3-sklearn package:

  wine.csv           the wine data (178 rows, 13 numbers, label "cultivar")
                     with a header line;
  messy-wine.csv     the same as real tables come: an id and a text column,
                     a constant column, a column that is the sum of two
                     others, 6 missing cells;
  onehot-wine.csv    wine.csv with a one-hot group g_a,g_b,g_c (row number
                     mod 3, unrelated to the data);
  breast-cancer.csv  the breast cancer data (569 rows, 30 numbers f1..f30,
                     label "diagnosis") with a header line.

    apt-get install -y python3-sklearn
    python3 scripts/your-data/messy_wine.py [OUTDIR]

sklearn's CSVs have no header: their first line holds the counts and the
class names ("178,13,class_0,class_1,class_2"), then each row its numbers
and a class number. The output is the same on every run (random.Random(1)).
"""
import csv, random, sys

DATA = "/usr/lib/python3/dist-packages/sklearn/datasets/data/"
OUT = sys.argv[1] if len(sys.argv) > 1 else "."
NAMES = ["alcohol", "malic_acid", "ash", "alcalinity", "magnesium", "phenols",
         "flavanoids", "nonflav_phenols", "proanthocyanins", "color",
         "hue", "od280_od315", "proline"]

def read(name):
    """Return the class names and the rows of one of sklearn's CSVs."""
    with open(DATA + name) as f:
        first = next(csv.reader(f))
        rows = list(csv.reader(f))
    assert len(rows) == int(first[0]) and all(len(r) == int(first[1]) + 1 for r in rows)
    return first[2:], rows


classes, rows = read("wine_data.csv")

# The clean table: header, 13 numbers, the class name as label.
with open(f"{OUT}/wine.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(NAMES + ["cultivar"])
    for r in rows:
        w.writerow(r[:-1] + [classes[int(r[-1])]])

# The messy table: an id, a text column, a constant column, a column that is
# the sum of two others, and 6 missing cells (3 empty, 3 "NA").
rng = random.Random(1)
missing = set(rng.sample([(i, j) for i in range(len(rows)) for j in range(len(NAMES))], 6))
with open(f"{OUT}/messy-wine.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["id", "lab"] + NAMES + ["acid_plus_ash", "country", "cultivar"])
    for i, r in enumerate(rows):
        x = list(r[:-1])
        s = f"{float(x[1]) + float(x[2]):.2f}"  # malic_acid + ash
        for k, (mi, mj) in enumerate(sorted(missing)):
            if mi == i:
                x[mj] = "" if k % 2 == 0 else "NA"
        w.writerow([f"W{i + 1:03d}", rng.choice(["north", "south"])] + x +
                   [s, "1", classes[int(r[-1])]])

# One-hot group: three 0/1 columns that sum to 1 in every row.
with open(f"{OUT}/onehot-wine.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(NAMES + ["cultivar", "g_a", "g_b", "g_c"])
    for i, r in enumerate(rows):
        w.writerow(r[:-1] + [classes[int(r[-1])]] + [int(i % 3 == k) for k in range(3)])

bc_classes, bc_rows = read("breast_cancer.csv")
with open(f"{OUT}/breast-cancer.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow([f"f{k + 1}" for k in range(30)] + ["diagnosis"])
    for r in bc_rows:
        w.writerow(r[:-1] + [bc_classes[int(r[-1])]])
