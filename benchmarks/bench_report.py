"""Benchmark: the report end to end on a million rows (issue 14, section 4; issue 24).

Measured in one run: ``python -m evallib report FILE -o OUT.html`` (the command line, the
papermill kernel, the HTML export and the CSV tables, all of it) on synthetic predictions
files with 5 classifiers, each with a ``pred_`` and a ``score_`` column, at 10,000 and at
1,000,000 rows, and on a repeated cross-validation of the same size: 100,000 cases x 10
repeats of 10-fold CV (``case_id``, ``repeat`` and ``fold`` columns), where every section
works on per-case rates. Peak memory is the largest sum of the resident memory of the
command-line process and all its children (the kernel), sampled every 50 ms with psutil.

Targets: 1,000,000 rows x 5 classifiers in at most 30 s and at most 2 GB (all processes),
for one test set and for the repeated cross-validation, printed beside the 10,000-row run
time. Before the report was made to scale, the one-test-set file failed after 10 min 24 s
with a cell timeout (the exact best-accuracy law in big integers).

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


def make_file(n: int, path: Path, seed: int = 0, repeats: int = 1) -> None:
    """0/1 labels (30% positive), five classifiers of decreasing quality, scores in [0, 1].

    With ``repeats > 1``: ``n // repeats`` cases, each predicted once in each of ``repeats``
    repeats of 10-fold cross-validation (a case's own signal plus noise from each repeat's
    training set), with ``case_id``, ``repeat`` and ``fold`` columns.
    """
    rng = np.random.default_rng(seed)
    cases = n // repeats
    y_case = rng.random(cases) < 0.3
    frame = pd.DataFrame({"label": np.tile(y_case, repeats).astype(int)})
    if repeats > 1:
        frame.insert(0, "case_id", np.tile(np.arange(cases), repeats))
        frame.insert(1, "repeat", np.repeat(np.arange(1, repeats + 1), cases))
        frame.insert(2, "fold", np.concatenate([rng.permutation(cases) % 10 + 1 for _ in range(repeats)]))
    y = frame["label"].to_numpy().astype(bool)
    for i, shift in enumerate((1.5, 1.2, 1.0, 0.8, 0.2)):
        case_part = np.tile(rng.normal(size=cases), repeats)
        s = 0.8 * case_part + 0.6 * rng.normal(size=y.size) + shift * y
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


#: (rows, repeats, label) of the runs.
RUNS = ((SIZES[0], 1, "one test set"), (SIZES[1], 1, "one test set"),
        (SIZES[1], 10, "100,000 cases x 10 repeats of 10-fold CV"))


def main() -> int:
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n, repeats, what in RUNS:
            path = Path(tmp) / f"predictions_{n}_{repeats}.csv"
            make_file(n, path, repeats=repeats)
            elapsed, peak, status = run(path, Path(tmp) / f"report_{n}_{repeats}.html")
            results[n, repeats] = (elapsed, peak, status)
            print(f"{n:>9,} rows x 5 classifiers ({what}): {elapsed:6.1f} s end to end, peak memory "
                  f"{peak / 1024**2:6.0f} MB (all processes){'' if status == 0 else '  FAILED'}")
    small, big, cv = results[SIZES[0], 1], results[SIZES[1], 1], results[SIZES[1], 10]
    print(f"  1,000,000 rows take {big[0] / small[0]:.1f}x the time of 10,000 rows "
          f"(100x the rows); target <= {TARGET_S:.0f} s and <= {TARGET_BYTES / 1024**3:.0f} GB")
    ok = all(r[2] == 0 and r[0] <= TARGET_S and r[1] <= TARGET_BYTES for r in (big, cv)) and small[2] == 0
    if not ok:
        print("FAIL: a million-row report misses its target", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
