"""Benchmark: the report end to end on a million rows (issue 14, section 4).

Measured in one run: ``python -m evallib report FILE -o OUT.html`` (the command line, the
papermill kernel and the HTML export, all of it) on synthetic predictions files with 5
classifiers, each with a ``pred_`` and a ``score_`` column, at 10,000 and at 1,000,000
rows. Peak memory is the largest sum of the resident memory of the command-line process
and all its children (the kernel), sampled every 50 ms with psutil.

Targets: 1,000,000 rows x 5 classifiers in at most 30 s and at most 2 GB (all processes),
printed beside the 10,000-row run time. Before the report was made to scale, this file
failed after 10 min 24 s with a cell timeout (the exact best-accuracy law in big
integers).

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_report.py``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import psutil

TARGET_S = 30.0
TARGET_BYTES = 2 * 1024**3
SIZES = (10_000, 1_000_000)


def make_file(n: int, path: Path, seed: int = 0) -> None:
    """0/1 labels (30% positive), five classifiers of decreasing quality, scores in [0, 1]."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    frame = pd.DataFrame({"label": y.astype(int)})
    for i, shift in enumerate((1.5, 1.2, 1.0, 0.8, 0.2)):
        s = rng.normal(size=n) + shift * y
        frame[f"pred_m{i}"] = (s > shift / 2).astype(int)
        frame[f"score_m{i}"] = np.round(1.0 / (1.0 + np.exp(-s)), 4)
    frame.to_csv(path, index=False)


def run(path: Path, out: Path) -> tuple[float, int, int]:
    """Wall time, peak summed RSS of the process tree, and the exit status."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "evallib", "report", str(path), "-o", str(out), "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    done = threading.Event()

    def sample():
        nonlocal peak
        root = psutil.Process(proc.pid)
        while not done.is_set():
            try:
                procs = [root, *root.children(recursive=True)]
                total = 0
                for p in procs:
                    try:
                        total += p.memory_info().rss
                    except psutil.Error:
                        pass
                peak = max(peak, total)
            except psutil.Error:
                pass
            time.sleep(0.05)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    _, err = proc.communicate()
    elapsed = time.perf_counter() - t0
    done.set()
    watcher.join()
    if proc.returncode:
        print(err.decode(errors="replace").strip().splitlines()[-1], file=sys.stderr)
    return elapsed, peak, proc.returncode


def main() -> int:
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in SIZES:
            path = Path(tmp) / f"predictions_{n}.csv"
            make_file(n, path)
            elapsed, peak, status = run(path, Path(tmp) / f"report_{n}.html")
            results[n] = (elapsed, peak, status)
            print(f"{n:>9,} rows x 5 classifiers: {elapsed:6.1f} s end to end, peak memory "
                  f"{peak / 1024**2:6.0f} MB (all processes){'' if status == 0 else '  FAILED'}")
    small, big = results[SIZES[0]], results[SIZES[1]]
    print(f"  1,000,000 rows take {big[0] / small[0]:.1f}x the time of 10,000 rows "
          f"(100x the rows); target <= {TARGET_S:.0f} s and <= {TARGET_BYTES / 1024**3:.0f} GB")
    ok = big[2] == 0 and small[2] == 0 and big[0] <= TARGET_S and big[1] <= TARGET_BYTES
    if not ok:
        print("FAIL: the million-row report misses its target", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
