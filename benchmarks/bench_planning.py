"""Benchmark: exact McNemar power at n = 5,000 and a power curve over 100 test-set sizes.

``evallib.mcnemar_power`` enumerates the trinomial (b, c, rest) exactly; the baseline is a
Monte Carlo of the same test sized to the accuracy a reader sees: a standard error of
0.001 in the power (the third decimal the notebooks print), i.e. 250,000 simulated test
sets per n (p (1 - p) / 0.001^2 at p = 1/2). Both are measured in the same run.

Targets (issue 16): exact power at n = 5,000 in at most 0.5 s; the curve over 100 values
of n up to 2,000 (what a slider in notebook 06 redraws) in at most 0.3 s.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_planning.py``.
"""

from __future__ import annotations

import sys

import numpy as np
from _timing import best_of
from scipy import stats

from evallib.planning import mcnemar_power, mcnemar_power_curve

P_B, P_C, ALPHA = 0.06, 0.04, 0.05
MC_REPS = 250_000          # standard error <= 0.001
N_ONE, TARGET_ONE = 5_000, 0.5
NS_CURVE, TARGET_CURVE = np.linspace(20, 2_000, 100).astype(int), 0.3


def monte_carlo_power(n: int, rng: np.random.Generator, reps: int = MC_REPS) -> float:
    """Simulated power of the exact McNemar test: draw the tables, test each one."""
    tab = rng.multinomial(n, [P_B, P_C, 1 - P_B - P_C], size=reps)
    b, c = tab[:, 0], tab[:, 1]
    p = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(b, c), b + c, 0.5))
    return float(np.mean(p <= ALPHA))


def main() -> int:
    rng = np.random.default_rng(0)
    exact = mcnemar_power(N_ONE, P_B, P_C, alpha=ALPHA)
    mc = monte_carlo_power(N_ONE, rng)
    t_exact = best_of(lambda: mcnemar_power(N_ONE, P_B, P_C, alpha=ALPHA), repeat=5)
    t_mc = best_of(lambda: monte_carlo_power(N_ONE, rng), repeat=2)
    t_curve = best_of(lambda: mcnemar_power_curve(NS_CURVE, P_B, P_C, alpha=ALPHA, methods=("exact",)), repeat=5)
    few = NS_CURVE[::20]
    t_mc_few = best_of(lambda: [monte_carlo_power(int(v), rng) for v in few], repeat=1)
    t_mc_curve = t_mc_few * len(NS_CURVE) / len(few)
    print(f"McNemar power, p_b = {P_B}, p_c = {P_C}, alpha = {ALPHA} (best of repeated runs)")
    print(f"  exact, n = {N_ONE:,}            : {1000 * t_exact:8.1f} ms   (target <= {1000 * TARGET_ONE:.0f} ms)"
          f"   power {exact:.4f}")
    print(f"  Monte Carlo, SE 0.001         : {1000 * t_mc:8.1f} ms   power {mc:.4f}   ratio MC / exact {t_mc / t_exact:8.1f} x")
    print(f"  exact curve, 100 n up to 2,000: {1000 * t_curve:8.1f} ms   (target <= {1000 * TARGET_CURVE:.0f} ms)")
    print(f"  Monte Carlo curve (timed on {len(few)} of the 100 n, scaled): {1000 * t_mc_curve:8.1f} ms   ratio MC / exact {t_mc_curve / t_curve:8.1f} x")
    status = 0
    if abs(exact - mc) > 0.005:
        print(f"FAIL: exact {exact:.4f} and Monte Carlo {mc:.4f} differ by more than 5 standard errors", file=sys.stderr)
        status = 1
    if t_exact > TARGET_ONE:
        print(f"FAIL: exact power at n = {N_ONE} took {t_exact:.3f} s > {TARGET_ONE} s", file=sys.stderr)
        status = 1
    if t_curve > TARGET_CURVE:
        print(f"FAIL: the power curve took {t_curve:.3f} s > {TARGET_CURVE} s", file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
