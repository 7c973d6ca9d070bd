"""How long ``import evallib`` takes in a fresh process, against numpy + scipy.stats + pandas.

evallib's own modules need numpy, scipy.stats and pandas, so those imports are the floor;
everything heavier (matplotlib.pyplot, scikit-learn, statsmodels, joblib, tqdm) is imported
inside the functions that use it. Each import runs in its own fresh interpreter (so no
module is cached), alternating the two, and the medians of ``RUNS`` runs are compared.
Target: evallib within 1.1x the floor. Exit status 1 when the ratio misses it.
"""

from __future__ import annotations

import statistics
import subprocess
import sys

RUNS = 9
TARGET = 1.1
FLOOR = "import numpy, scipy.stats, pandas"
EVALLIB = "import evallib"


def _time(statement: str) -> float:
    """Seconds one fresh interpreter spends on ``statement`` (measured inside it)."""
    code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> int:
    _time(FLOOR), _time(EVALLIB)             # warm the operating system's file cache
    floor, ours = [], []
    for _ in range(RUNS):
        floor.append(_time(FLOOR))
        ours.append(_time(EVALLIB))
    f, e = statistics.median(floor), statistics.median(ours)
    ratio = e / f
    print(f"  {FLOOR}: median {f:.3f} s over {RUNS} fresh processes")
    print(f"  {EVALLIB}: median {e:.3f} s")
    print(f"  ratio: {ratio:.2f}x (target <= {TARGET}x)")
    if ratio > TARGET:
        print(f"FAIL: import evallib takes {ratio:.2f}x numpy + scipy.stats + pandas", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
