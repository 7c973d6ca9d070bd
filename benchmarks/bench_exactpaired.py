"""Benchmark: the exact unconditional McNemar test at n = 500 (issue 26).

* ``evallib.onetestset._exactpaired.mcnemar_unconditional`` for four tables of n = 500 test
  cases (few and many disagreements, balanced and not), with Fagerland's defaults
  (1000 values of the nuisance parameter, Berger-Boos gamma = 1e-4) and with gamma = 0;
  target <= 1 s each (best of three runs).
* Baseline in the same run: the algorithm of Fagerland's R function
  ``McNemar_exact_unconditional_test_paired_2x2`` in numpy: the region of every table
  ``(x_b, x_c)`` with ``x_b + x_c <= n`` (125,751 tables at n = 500), and for each of the
  1000 nuisance values the sum of their trinomial probabilities (vectorised over the
  tables, a loop over the nuisance values; the R code loops over both). The p-values
  must agree: evallib's is never below the grid's maximum, and the baseline's sum at
  evallib's maximising nuisance value reproduces it to 1e-9. The ratio of the times is
  printed.
* ``fay_lumbard_interval`` at n = 500, for information (no target).

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_exactpaired.py``.
"""

from __future__ import annotations

import sys

import numpy as np
from _timing import best_of
from scipy import special, stats

from evallib.onetestset._exactpaired import fay_lumbard_interval, mcnemar_unconditional

N, TARGET_S = 500, 1.0
TABLES = [(3, 12), (40, 80), (120, 135), (230, 250)]


def _baseline(b: int, c: int, n: int, gamma: float = 1e-4, points: int = 1000, at: float | None = None) -> float:
    """Fagerland's algorithm: enumerate the tables, then a grid of nuisance values (or the
    one value ``at``, without ``gamma``)."""
    xb, xc = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    keep = xb + xc <= n
    xb, xc = xb[keep], xc[keep]
    s = xb + xc
    tobs = (b - c) ** 2 / (b + c)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(s > 0, (xb - xc) ** 2 / np.where(s > 0, s, 1), np.nan)
    region = t >= tobs - 1e-12
    s_in = s[region]
    logcoef = (special.gammaln(n + 1) - special.gammaln(xb[region] + 1) - special.gammaln(xc[region] + 1)
               - special.gammaln(n - s_in + 1))
    m = b + c
    lo = float(stats.beta.ppf(gamma / 2, m, n - m + 1)) if gamma > 0 else 0.0
    hi = float(stats.beta.isf(gamma / 2, m + 1, n - m)) if gamma > 0 else 1.0
    best = 0.0
    for pi in (np.linspace(lo, hi, points) if at is None else [at]):
        with np.errstate(divide="ignore"):
            val = np.exp(logcoef + special.xlogy(s_in, pi / 2) + special.xlog1py(n - s_in, -pi)).sum()
        best = max(best, float(val))
    return best if at is not None else min(1.0, best + gamma)


def main() -> int:
    status = 0
    print(f"Exact unconditional McNemar test, n = {N} (best of 3 runs; target <= {1000 * TARGET_S:.0f} ms)")
    for b, c in TABLES:
        for gamma in (1e-4, 0.0):
            ours = best_of(lambda: mcnemar_unconditional(b, c, N, gamma=gamma), repeat=3)
            res = mcnemar_unconditional(b, c, N, gamma=gamma)
            p = res.pvalue
            base = best_of(lambda: _baseline(b, c, N, gamma=gamma), repeat=1)
            p_base = _baseline(b, c, N, gamma=gamma)
            # never below the grid's maximum, and the R-style sum at evallib's maximiser is its p-value
            at_max = min(1.0, _baseline(b, c, N, at=res.nuisance) + gamma)
            agree = p >= p_base - 1e-9 and abs(at_max - p) <= 1e-9
            print(f"  b = {b:3d}, c = {c:3d}, gamma = {gamma:g}: evallib {1000 * ours:7.1f} ms (p = {p:.6g}),"
                  f" R-style enumeration {1000 * base:8.1f} ms (p = {p_base:.6g}), ratio {base / ours:6.1f} x"
                  f"{'' if agree else '  DISAGREE'}")
            if ours > TARGET_S:
                print(f"FAIL: mcnemar_unconditional({b}, {c}, {N}) took {ours:.3f} s > {TARGET_S} s", file=sys.stderr)
                status = 1
            if not agree:
                print(f"FAIL: p-values disagree for b = {b}, c = {c}: {p} vs {p_base}", file=sys.stderr)
                status = 1
    for b, c in TABLES[:2]:
        t = best_of(lambda: fay_lumbard_interval(b, c, N), repeat=3)
        ci = fay_lumbard_interval(b, c, N)
        print(f"  Fay-Lumbard interval, b = {b}, c = {c}: {1000 * t:6.1f} ms  [{ci.low:+.4f}, {ci.high:+.4f}]")
    return status


if __name__ == "__main__":
    sys.exit(main())
