#!/usr/bin/env python3
"""Replays decision rules of the robust variant on the orientation study's
fits (docs/orientation/orientation.csv) and prints, per rule, how many exact
axes estimates it returns and how many fits it puts outside the study's
bound ε ≤ 2·ε_MIPP + 0.01. docs/robust.md ("Not solved") quotes the table.

    python3 scripts/robust-rules/rules.py docs/orientation

Every robust fit of the study records the test's p-value, the Distance, the
two evidences of the comparison (computed only where the test passed and the
Distance exceeded 4) and the ε of both candidates, so a rule that decides
from those alone can be replayed without refitting: the fit returns the axes
estimate's ε if the rule keeps it and the equivariant estimate's otherwise.
The first row is the library's rule, and reproduces the study's own figures.
"""
import csv
import math
import os
import sys


def num(v):
    try:
        return float(v)
    except ValueError:
        return math.nan


def library(f):
    """The library's rule: the test passes and the Distance is within 4, or
    beyond it the evidence against the equivariant estimate is stronger by
    3 (RobustReport's Level, MaxDistance and MissedMargin)."""
    return f["p"] >= 0.01 and (f["D"] <= 4 or f["me"] < f["ma"] - 3)


def quiet(bound, z):
    """The library's rule, and beyond the Distance bound also an axes
    estimate that misses nothing at z and lies within Distance `bound`."""
    return lambda f: library(f) or (f["p"] >= 0.01 and f["D"] <= bound and f["ma"] > z)


def no_test(f):
    """The library's rule without the test where the Distance is within 4
    (beyond it the comparison was not computed where the test failed, so
    those fits keep the library's decision)."""
    return library(f) or f["D"] <= 4


RULES = [("library: P ≥ 0.01 and (Distance ≤ 4 or comparison by 3)", library)]
RULES += [("library, or P ≥ 0.01, Distance ≤ %g and MissedAxes > −%g" % (b, -z), quiet(b, z))
          for b in (8, 16, 32, 64) for z in (-3, -2)]
RULES += [("library, or Distance ≤ 4 whatever the test", no_test)]


def main(folder):
    fits = list(csv.DictReader(open(os.path.join(folder, "orientation.csv"))))
    mipp = {(f["cell"], f["seed"]): float(f["epsilon"]) for f in fits if f["method"] == "mipp" and f["epsilon"]}
    robust = []
    for f in fits:
        if f["method"] != "wflsngca-robust" or f["error"] or not f["p"]:
            continue
        n, d = int(f["n"]), int(f["d"])
        robust.append({
            "p": num(f["p"]), "D": num(f["distance"]), "ma": num(f["missed_axes"]), "me": num(f["missed_equivariant"]),
            "ea": num(f["epsilon_axes"]), "ee": num(f["epsilon_equivariant"]), "n": n, "d": d,
            "mipp": mipp.get((f["cell"], f["seed"])),
            "goal": f["mix"] == "0" and float(f["r"]) <= 2 and n >= 1000 and d <= 30, "mixed": f["mix"] != "0",
        })
    exact_goal = sum(1 for f in robust if f["goal"] and f["ea"] <= 1e-6)
    exact_all = sum(1 for f in robust if f["ea"] <= 1e-6)
    print("Exact axes estimates (ε ≤ 1e-6) returned, of %d in the goal's fits (k = 0, r ≤ 2, n ≥ 1000, "
          "d ≤ 30) and of %d in all; fits outside the bound ε ≤ 2·ε_MIPP + 0.01 where n ≥ d², by n; "
          "fits on data mixed or turned (k > 0), where no axes estimate is exact, that return it.\n" % (exact_goal, exact_all))
    print("| rule | exact returned, goal | exact returned, all | outside, n ≥ 2000 | outside, 1000 < n < 2000 "
          "| outside, n ≤ 1000 | axes kept, k > 0 |")
    print("|---|---|---|---|---|---|---|")
    for name, rule in RULES:
        got_goal = got_all = mixed_kept = 0
        outside = [0, 0, 0]
        for f in robust:
            keep = rule(f)
            eps = f["ea"] if keep else f["ee"]
            if f["ea"] <= 1e-6 and keep:
                got_all += 1
                got_goal += f["goal"]
            mixed_kept += keep and f["mixed"]
            if f["mipp"] is not None and f["n"] >= f["d"] ** 2 and eps > 2 * f["mipp"] + 0.01:
                outside[0 if f["n"] >= 2000 else 1 if f["n"] > 1000 else 2] += 1
        print("| %s | %d (%.1f %%) | %d | %d | %d | %d | %s |" % (
            name, got_goal, 100.0 * got_goal / exact_goal, got_all, outside[0], outside[1], outside[2], mixed_kept))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/orientation")
