#!/usr/bin/env python3
"""Prints the placement table of docs/default-method.md from the orientation
study's per-cell medians (docs/orientation/orientation-cells.csv) and fits
(docs/orientation/orientation.csv): per row, the median and the range over
its cells of each cell's median ε; the last two rows over all cells and fits.

    python3 scripts/default-method-placement/placement.py docs/orientation
"""
import csv
import os
import statistics
import sys

METHODS = ["wflsngca", "wflsngca-robust", "lsngca", "mipp", "imak", "sngca"]
LABELS = ["WF-LSNGCA", "WF-LSNGCA robust", "LSNGCA", "MIPP", "IMAK", "SNGCA"]


def num(v):
    """ε with one significant digit below 0.1 and two decimals above; 0
    for an exact estimate (below 1e-12, rounding)."""
    if v < 1e-12:
        return "0"
    if v < 1e-4:
        return "%.0e" % v
    if v < 0.1:
        return "%s" % float("%.1g" % v)
    return "%.2f" % v


def main(folder):
    cells = list(csv.DictReader(open(os.path.join(folder, "orientation-cells.csv"))))
    rows = [
        ("along the columns, r = 0", lambda c: c["block"] == "mix" and c["mix"] == "0" and c["r"] == "0"),
        ("mixed with 1 noise column, r = 0", lambda c: c["block"] == "mix" and c["mix"] == "1" and c["r"] == "0"),
        ("mixed with 4 noise columns, r = 0", lambda c: c["block"] == "mix" and c["mix"] == "4" and c["r"] == "0"),
        ("turned, r = 0", lambda c: c["block"] == "mix" and c["mix"] == "turn" and c["r"] == "0"),
        ("along the columns, r = 2 (condition number 10⁴)", lambda c: c["block"] == "mix" and c["mix"] == "0" and c["r"] == "2"),
        ("turned, r = 2", lambda c: c["block"] == "mix" and c["mix"] == "turn" and c["r"] == "2"),
        ("d = 30, along the columns (block `d`)", lambda c: c["block"] == "d" and c["mix"] == "0"),
        ("d = 30, mixed or turned", lambda c: c["block"] == "d" and c["mix"] != "0"),
        ("n = 500, all placements (block `n`)", lambda c: c["block"] == "n" and c["n"] == "500"),
        ("n = 1000 and 1500, along the columns, d = 10 (block `aligned`)", lambda c: c["block"] == "aligned" and c["d"] == "10"),
        ("n = 1000 and 1500, along the columns, d = 30 (block `aligned`)", lambda c: c["block"] == "aligned" and c["d"] == "30"),
        ("d = 50, n = 2000 (below d², block `d50`)", lambda c: c["block"] == "d50" and c["n"] == "2000"),
        ("d = 50, n = 10⁴, along the columns", lambda c: c["block"] == "d50" and c["n"] == "10000" and c["mix"] == "0"),
        ("d = 50, n = 10⁴, mixed or turned", lambda c: c["block"] == "d50" and c["n"] == "10000" and c["mix"] != "0"),
    ]
    print("| median ε per cell | " + " | ".join(LABELS) + " |")
    print("|---" * (len(LABELS) + 1) + "|")
    for name, keep in rows:
        out = []
        for m in METHODS:
            meds = [float(c["median"]) for c in cells if c["method"] == m and keep(c)]
            if not meds:
                out.append("—")
                continue
            out.append("%s (%s–%s)" % (num(statistics.median(meds)), num(min(meds)), num(max(meds))))
        print("| %s | %s |" % (name, " | ".join(out)))
    fits = list(csv.DictReader(open(os.path.join(folder, "orientation.csv"))))
    mipp = {(f["cell"], f["seed"]): float(f["epsilon"]) for f in fits if f["method"] == "mipp" and f["epsilon"]}
    shares, worst = [], []
    for m in METHODS:
        eps = [(f, float(f["epsilon"])) for f in fits if f["method"] == m and f["epsilon"]]
        worst.append("%.2f" % max(e for _, e in eps))
        if m == "mipp":
            shares.append("—")
            continue
        paired = [(e, mipp[(f["cell"], f["seed"])]) for f, e in eps if (f["cell"], f["seed"]) in mipp]
        bad = sum(1 for e, em in paired if e > 2 * em + 0.01)
        shares.append("%.1f %%" % (100.0 * bad / len(paired)))
    print("| fits with ε > 2·ε_MIPP + 0.01, all cells | " + " | ".join(shares) + " |")
    print("| worst ε, all fits | " + " | ".join(worst) + " |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/orientation")
