"""Benchmark: the release gate (``python -m evallib gate``) on a 1,000,000-item file.

A synthetic wide per-item CSV (``item``, ``baseline``, ``candidate``: 0/1 scores, the candidate's
accuracy 0.5 points below the baseline's) is written to a temporary folder, and the gate is run on
it end to end as the command line runs it (``evallib.__main__.main``: reading and checking the
file, pairing, the test, the sentence and the JSON verdict), with a margin of 0.01:

* fixed n (Tango's score test for 0/1 outcomes); target <= 10 s;
* ``--sequential`` (the betting confidence sequence over the million items); target <= 10 s;
* fixed n on graded scores in a long file with 10,000 clusters (CR2), for comparison.

Wall-clock times (best of repeated runs) and the process' CPU time of that run, which a machine
shared with other jobs inflates less. Run with ``make bench`` or
``.venv/bin/python benchmarks/bench_gate.py``.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from evallib.__main__ import main as cli

N_ITEMS, TARGET_S = 1_000_000, 10.0


def timed(fn, repeat: int) -> tuple[float, float]:
    """(best wall-clock time, CPU time of that run), in seconds."""
    best = (float("inf"), float("inf"))
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        best = min(best, (time.perf_counter() - w, time.process_time() - c))
    return best


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = cli(argv)
    return status, out.getvalue().splitlines()[0]


def main() -> int:
    status = 0
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as folder:
        wide = Path(folder) / "items.csv"
        base = rng.binomial(1, 0.800, N_ITEMS)
        cand = np.where(rng.random(N_ITEMS) < 0.1, rng.binomial(1, 0.75, N_ITEMS), base)
        pd.DataFrame({"item": np.arange(N_ITEMS), "baseline": base, "candidate": cand}).to_csv(wide, index=False)
        graded = Path(folder) / "graded.csv"
        g_base = rng.beta(4, 1, N_ITEMS)
        g_cand = np.clip(g_base + rng.normal(-0.002, 0.05, N_ITEMS), 0, 1)
        clusters = np.repeat(np.arange(N_ITEMS // 100), 100)
        pd.DataFrame({"item": np.tile(np.arange(N_ITEMS), 2), "cluster": np.tile(clusters, 2),
                      "model": np.repeat(["baseline", "candidate"], N_ITEMS),
                      "score": np.r_[g_base, g_cand].round(4)}).to_csv(graded, index=False)
        verdict = Path(folder) / "verdict.json"
        common = ["--baseline-model", "baseline", "--candidate-model", "candidate", "--margin", "0.01",
                  "--json", str(verdict)]
        print(f"python -m evallib gate on a {N_ITEMS:,}-item file ({wide.stat().st_size / 1e6:.0f} MB; "
              "best of repeated runs; wall / CPU)")
        for label, argv, target in [
            ("fixed n, 0/1 (Tango)", ["gate", str(wide), *common], TARGET_S),
            ("--sequential, 0/1 (betting)", ["gate", str(wide), *common, "--sequential"], TARGET_S),
            ("fixed n, graded, 10,000 clusters (CR2)", ["gate", str(graded), *common], None),
        ]:
            code, sentence = run(argv)
            wall, cpu = timed(lambda argv=argv: run(argv), repeat=2)
            data = json.loads(verdict.read_text())
            goal = f"   (target <= {target:.0f} s)" if target else ""
            print(f"  {label:40s}: {wall:6.2f} s / {cpu:6.2f} s{goal}  -> exit {code}, {data['verdict']}")
            print(f"    {sentence}")
            if data["n_items"] != N_ITEMS:
                print(f"FAIL: {label} read {data['n_items']:,} items, not {N_ITEMS:,}", file=sys.stderr)
                status = 1
            if target and min(wall, cpu) > target:
                print(f"FAIL: {label} took {min(wall, cpu):.2f} s > {target} s", file=sys.stderr)
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
