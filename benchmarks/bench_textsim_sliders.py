"""Benchmark: notebook 03's population sliders, from the shipped grid and computed.

A move of the explorer's class-prior or label-noise slider needs the experiment of
the new population (`evallib.studies._textsim.build_experiment`), then the bootstrap and the
Dtrue subsamples (`run_setting`), the table and the figure. At the notebook's default
sizes the experiment comes from `data/textsim_grid.npz`; the baseline computes it
(`precomputed=False`: sample ~88,000 documents, fit both SVMs, classify), measured in
the same run. Target (issue 7): every slider update under 0.3 s.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_textsim_sliders.py``.
"""

from __future__ import annotations

import sys
import time

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from _timing import slider_verdict

from evallib.studies._textsim import GRID_PATH, GRID_SIZES, build_experiment, plot_replicates, run_setting, table3

N_TEST, REPS, N_SUBSAMPLES, TARGET_S = 7909, 10_000, 1000, 0.3
MOVES = [("Y", 0.30, 0.02), ("Y", 0.35, 0.02), ("Y", 0.35, 0.05), ("X", 0.10, 0.15)]


def _move(setting: str, prior: float, noise: float, precomputed: bool) -> float:
    """One slider move as the explorer runs it (figure drawn)."""
    t0 = time.perf_counter()
    exp = build_experiment(setting, prior_pos=prior, label_noise=noise, precomputed=precomputed,
                           n_train=GRID_SIZES["n_train"], n_pool=GRID_SIZES["n_pool"],
                           n_true=GRID_SIZES["n_true"], rng=GRID_SIZES["seed"])
    run = run_setting(exp, n_test=N_TEST, n_resamples=REPS, n_subsamples=N_SUBSAMPLES, rng=0)
    table3([run])
    fig, ax = plt.subplots()
    plot_replicates(run, ax=ax)
    fig.canvas.draw()
    plt.close(fig)
    return time.perf_counter() - t0


def main() -> int:
    if not GRID_PATH.is_file():
        print(f"FAIL: {GRID_PATH} is missing (make textsim-grid)", file=sys.stderr)
        return 1
    _move("Z", 0.25, 0.02, True)          # read the file once, as the notebook's first use does
    print(f"notebook 03 explorer, one population-slider move (n_test = {N_TEST:,}, {REPS:,} replicates, figure drawn)")
    worst = 0.0
    for setting, prior, noise in MOVES:
        grid = _move(setting, prior, noise, True)
        computed = _move(setting, prior, noise, False)
        worst = max(worst, grid)
        print(f"  {setting}, prior {prior:.2f}, noise {noise:.2f}: grid {grid:6.3f} s, "
              f"computed {computed:6.2f} s (baseline), {computed / grid:5.1f} x")
    return slider_verdict(worst, TARGET_S)


if __name__ == "__main__":
    sys.exit(main())
