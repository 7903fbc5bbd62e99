#!/usr/bin/env python3
"""The smallest median ε any regular estimator can reach on turned data
(noise covariance I, r = 0), per signal and cell, and the robust variant's
(the default's) median against it. docs/robust.md quotes the tables.

    /usr/bin/python3 scripts/efficiency-bound/bound.py docs/orientation
    /usr/bin/python3 scripts/efficiency-bound/bound.py -fits fits.csv
    /usr/bin/python3 scripts/efficiency-bound/bound.py -check

The first form reads the orientation study's cell medians (10 seeds a
cell), the second the fits of `go run ./scripts/efficiency-bound` (30
seeds a cell by default), the third simulates the efficient estimator on
every signal to check the formula.

The bound. In whitened coordinates y let the frame's first m coordinates
span the index space, s = y_U the standardised signal with density q and
score ψ = ∇log q, and every other coordinate y_j independent standard
normal. Tilting the index space by Δ toward coordinate j changes the
log-density by Δ_jᵀ y_j (ψ(s) + s) to first order, a score orthogonal to
every function of s and to the linear terms y_j·s that an unknown covariance
adds, so the efficient information for the row Δ_j is n·M with
M = E[(ψ + s)(ψ + s)ᵀ] = E[ψψᵀ] − I. For every signal here M = c·I, so an
efficient estimator's Δ̂ has independent N(0, 1/(n·c)) entries and its error
ε = (1/m)‖Δ̂‖²_F (docs: SubspaceError, small angles) is χ²_k/(n·m·c) with
k = m(d − m) degrees of freedom: median med(χ²_k)/(n·m·c), mean
(d − m)/(n·c). c per signal (standardised):

  (a) independent ½N(−3, 1) + ½N(3, 1):  J − 1, J the Fisher information of
      the standardised mixture (8.63 + 1, by quadrature);
  Laplace, independent:                   1;
  (b) density ∝ exp(−‖s‖) in m dims:      1/m;
  Student t_ν, independent coordinates:   (ν + 1)/(ν + 3)·ν/(ν − 2) − 1;
  Student t_ν, elliptical (the study's):  (ν + m)/(ν + m + 2)·ν/(ν − 2) − 1,
      the location information of the multivariate t;
  ring, uniform direction and radius R ~ N(1, 0.1²):
      (E R²/m)·E[(−(R − 1)/0.01 − (m − 1)/R)²]/m − 1, by quadrature.

Signals with edges ((c), (d), uniform, the skewed exponential) have no
finite information: errors there can fall faster than 1/n.
"""
import csv
import math
import os
import sys

NU = 5.0


def chi2_cdf(x, k):
    """P(χ²_k ≤ x), the regularised lower incomplete gamma P(k/2, x/2)."""
    a, z = k / 2.0, x / 2.0
    if z <= 0:
        return 0.0
    if z < a + 1:  # series
        term = total = 1.0 / a
        n = 1
        while abs(term) > 1e-16 * abs(total):
            term *= z / (a + n)
            total += term
            n += 1
        return total * math.exp(-z + a * math.log(z) - math.lgamma(a))
    # continued fraction for Q (Lentz)
    b = z + 1 - a
    c, d = 1e300, 1 / b
    h = d
    i = 1
    while True:
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        i += 1
        if abs(delta - 1) < 1e-16:
            break
    return 1 - math.exp(-z + a * math.log(z) - math.lgamma(a)) * h


def chi2_median(k):
    """The median of χ²_k, by bisection on the exact distribution function."""
    lo, hi = 0.0, k + 10.0 * math.sqrt(2 * k) + 10
    for _ in range(200):
        mid = (lo + hi) / 2
        if chi2_cdf(mid, k) < 0.5:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def fisher_mixture():
    """J of the standardised mixture ½N(−3, 1) + ½N(3, 1), by quadrature."""
    h = 1e-4
    total_p = total_x2 = total_psi2 = 0.0
    x = -20.0
    while x <= 20.0:
        p = 0.5 * (math.exp(-(x + 3) ** 2 / 2) + math.exp(-(x - 3) ** 2 / 2)) / math.sqrt(2 * math.pi)
        psi = -x + 3 * math.tanh(3 * x)
        total_x2 += x * x * p
        total_psi2 += psi * psi * p
        x += h
    return total_x2 * h * total_psi2 * h


def ring_info(m):
    """c of the ring in m dimensions, by quadrature over R ~ N(1, 0.01)."""
    h = 1e-5
    er2 = et2 = 0.0
    r = 0.4
    while r <= 1.6:
        w = math.exp(-((r - 1) / 0.1) ** 2 / 2) / (0.1 * math.sqrt(2 * math.pi)) * h
        t = -(r - 1) / 0.01 - (m - 1) / r
        er2 += r * r * w
        et2 += t * t * w
        r += h
    return er2 / m * et2 / m - 1


J_A = fisher_mixture()


def info(signal, m):
    """c, M = c·I, for the signal in m dimensions."""
    if signal == "a":
        return J_A - 1
    if signal == "laplace":
        return 1.0
    if signal == "b":
        return 1.0 / m
    if signal == "student":
        return (NU + m) / (NU + m + 2) * NU / (NU - 2) - 1
    if signal == "student-ind":
        return (NU + 1) / (NU + 3) * NU / (NU - 2) - 1
    if signal == "ring":
        return ring_info(m)
    return None


KINKED = ("laplace", "b")


def efficient_median(signal, n, d, m):
    return chi2_median(m * (d - m)) / (n * m * info(signal, m))


def goal(signal, n, d, m):
    """The goal's limit on median/efficient median, or None where the
    cell is outside the goal (n < max(2000, d², 200·d))."""
    if n < max(2000, d * d, 200 * d):
        return None
    if signal in KINKED:
        return 1.3 if (n >= 10000 and d == 10) else 1.5
    return 1.25


def orientation(folder):
    cells = list(csv.DictReader(open(os.path.join(folder, "orientation-cells.csv"))))
    med = {(c["cell"], c["method"]): float(c["median"]) for c in cells}
    print("| cell | MIPP | robust | efficient median | MIPP / efficient | robust / efficient | goal |")
    print("|---|---|---|---|---|---|---|")
    for c in cells:
        if c["method"] != "mipp" or c["mix"] != "turn" or c["r"] != "0" or info(c["signal"], int(c["m"])) is None:
            continue
        n, d, m = int(c["n"]), int(c["d"]), int(c["m"])
        eff = efficient_median(c["signal"], n, d, m)
        mipp, rob = float(c["median"]), med[(c["cell"], "wflsngca-robust")]
        g = goal(c["signal"], n, d, m)
        print("| %s | %.3g | %.3g | %.3g | %.2f | %.2f | %s |" % (
            c["cell"], mipp, rob, eff, mipp / eff, rob / eff, "—" if g is None else "≤ %.2f" % g))


def median(v):
    v = sorted(v)
    k = len(v)
    return v[k // 2] if k % 2 else (v[k // 2 - 1] + v[k // 2]) / 2


def fits(path):
    rows = list(csv.DictReader(open(path)))
    groups = {}
    for r in rows:
        key = (r["signal"], int(r["m"]), int(r["n"]), int(r["d"]))
        groups.setdefault(key, []).append(r)
    print("| signal | m | n | d | fits | default | MIPP | efficient median | default / efficient | MIPP / efficient | goal | met |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (sig, m, n, d), rs in groups.items():
        eff = efficient_median(sig, n, d, m)
        dflt = median([float(r["eps_default"]) for r in rs])
        mipps = [float(r["eps_mipp"]) for r in rs if r["eps_mipp"] not in ("", "NaN")]
        mipp = median(mipps) if mipps else float("nan")
        g = goal(sig, n, d, m)
        met = "—" if g is None else ("yes" if dflt / eff <= g else "**no**")
        print("| %s | %d | %d | %d | %d | %.3g | %.3g | %.3g | %.2f | %.2f | %s | %s |" % (
            sig, m, n, d, len(rs), dflt, mipp, eff, dflt / eff, mipp / eff, "—" if g is None else "≤ %.2f" % g, met))


def check():
    """Simulates the one-step estimator at the truth with the true score
    (Δ̂_j = M̂⁻¹·mean of y_j(ψ + s) after whitening by the sample
    covariance) and prints its median ε against the formula's."""
    import numpy as np

    rng = np.random.default_rng(1)

    def sample(signal, n, m):
        if signal == "a":
            s = (rng.choice([-3.0, 3.0], size=(n, m)) + rng.standard_normal((n, m))) / np.sqrt(10)
            return s, lambda u: np.sqrt(10) * (-(u * np.sqrt(10)) + 3 * np.tanh(3 * u * np.sqrt(10)))
        if signal == "laplace":
            return rng.laplace(size=(n, m)) / np.sqrt(2), lambda u: -np.sqrt(2) * np.sign(u)
        if signal in ("student", "student-ind"):
            c0 = np.sqrt(NU / (NU - 2))
            if signal == "student":
                w = rng.chisquare(NU, size=(n, 1))
            else:
                w = rng.chisquare(NU, size=(n, m))
            s = rng.standard_normal((n, m)) * np.sqrt(NU / w) / c0
            if signal == "student":
                return s, lambda u: -c0 * (NU + m) * (c0 * u) / (NU + ((c0 * u) ** 2).sum(1, keepdims=True))
            return s, lambda u: -c0 * (NU + 1) * (c0 * u) / (NU + (c0 * u) ** 2)
        g = rng.standard_normal((n, m))
        g /= np.linalg.norm(g, axis=1, keepdims=True)
        if signal == "ring":
            r = 1 + 0.1 * rng.standard_normal((n, 1))
            c0 = np.sqrt(1.01 / m)

            def psi(u):
                rr = np.linalg.norm(c0 * u, axis=1, keepdims=True)
                return c0 * (-(rr - 1) / 0.01 - (m - 1) / rr) * (c0 * u) / rr
            return g * r / c0, psi
        r = rng.gamma(m, 1.0, size=(n, 1))
        c0 = np.sqrt(m + 1.0)
        return g * r / c0, lambda u: -c0 * u / np.linalg.norm(u, axis=1, keepdims=True)

    print("| signal | m | n | d | efficient median (formula) | simulated median (400 fits) |")
    print("|---|---|---|---|---|---|")
    for sig in ("a", "laplace", "b", "student", "student-ind", "ring"):
        for m in (1, 2, 3):
            n, d = 2000, 10
            out = []
            truth = np.zeros((d, m))
            truth[:m, :m] = np.eye(m)
            for _ in range(400):
                s, psi = sample(sig, n, m)
                y = np.c_[s, rng.standard_normal((n, d - m))]
                y -= y.mean(0)
                w, v = np.linalg.eigh(np.cov(y.T))
                wh = v @ np.diag(w ** -0.5) @ v.T
                y = y @ wh
                h = psi(y[:, :m]) + y[:, :m]
                delta = np.linalg.solve(h.T @ h / n, h.T @ y[:, m:] / n).T
                basis, _ = np.linalg.qr(wh @ np.r_[np.eye(m), delta])
                r = basis - truth @ (truth.T @ basis)
                out.append((r * r).sum() / m)
            print("| %s | %d | %d | %d | %.3g | %.3g |" % (sig, m, n, d, efficient_median(sig, n, d, m), float(np.median(out))))


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "-check":
        check()
    elif args and args[0] == "-fits":
        fits(args[1])
    else:
        orientation(args[0] if args else "docs/orientation")
