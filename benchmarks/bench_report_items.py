"""Benchmark: the per-item report on 10,000,000 answers (issue 24, "Done when").

Two measurements, each in a fresh process whose memory is sampled every 50 ms with
psutil (the sum of the resident memory of the process and all its children):

1. **Reading and analysing** 10,000,000 per-item rows -- 100 models x 10,000 items x
   10 answers, the items in 500 clusters of 20, a long Parquet file -- in one process:
   :func:`evallib.report._items_inputs.load_item_scores` and every section of
   :mod:`evallib.report._items_sections` (means, all 4,950 pairs, variance components
   and pass@k, tie group and 2,000 bootstrap rank replicates). Target: at most 60 s and
   4 GB.
2. **The whole report** -- ``run_items_report``: the check, papermill's kernel, the HTML
   page -- on a smaller file (20 models x 5,000 items x 10 answers = 1,000,000 rows), and
   on the full file, printed for the record.

The data: each model's answer to an item is right with probability
``logistic(ability_m - difficulty_i + passage_g)``, drawn independently for the 10 answers
(normal abilities, difficulties and passage effects; seed 0).

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_report_items.py``;
``--quick`` runs a tenth of the sizes.
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

TARGET_S = 60.0
TARGET_BYTES = 4 * 1024**3

ANALYSE = """
import sys, time
t0 = time.perf_counter()
from evallib.report._items_inputs import load_item_scores
from evallib.report import _items_sections as S
data = load_item_scores(sys.argv[1], item_column="item", cluster_column="cluster", sample_column="sample")
t1 = time.perf_counter()
S.summarise_items(data); S.model_means(data); S.pairwise_items(data); S.sample_analysis(data)
S.leaderboard(data, rng=0)
t2 = time.perf_counter()
print(f"{t1 - t0:.2f} {t2 - t1:.2f} {data.n_models} {data.n_items} {data.max_samples} {data.n_clusters}")
"""

REPORT = """
import sys
from evallib.report._items_runner import run_items_report
run_items_report(sys.argv[1], sys.argv[2], item_column="item", cluster_column="cluster", sample_column="sample",
                 progress=False)
"""


def make_file(path: Path, n_models: int, n_items: int, n_samples: int, cluster_size: int = 20,
              seed: int = 0) -> int:
    """A long per-item Parquet file; returns its number of rows."""
    rng = np.random.default_rng(seed)
    n_clusters = n_items // cluster_size
    cluster = np.repeat(np.arange(n_clusters), cluster_size)
    logit = (rng.normal(0, 0.4, n_models)[None, :] - rng.normal(0, 1.2, n_items)[:, None]
             + rng.normal(0, 0.5, n_clusters)[cluster][:, None])
    p = 1.0 / (1.0 + np.exp(-logit))
    y = (rng.random((n_items, n_models, n_samples)) < p[:, :, None]).astype(np.int8)
    ii, mm, kk = (a.ravel() for a in np.meshgrid(np.arange(n_items), np.arange(n_models), np.arange(n_samples),
                                                 indexing="ij"))
    frame = pd.DataFrame({
        "item": pd.Categorical.from_codes(ii, [f"q{i:05d}" for i in range(n_items)]).astype(str),
        "cluster": pd.Categorical.from_codes(cluster[ii], [f"passage{g:03d}" for g in range(n_clusters)]).astype(str),
        "model": pd.Categorical.from_codes(mm, [f"model{m:03d}" for m in range(n_models)]).astype(str),
        "sample": (kk + 1).astype(np.int16), "score": y.ravel()})
    frame.to_parquet(path)
    return len(frame)


def measure(code: str, *args: str) -> tuple[float, int, str, int]:
    """Wall time, peak summed RSS of the process tree, its stdout, and its exit status."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = 0
    done = threading.Event()

    def sample():
        nonlocal peak
        root = psutil.Process(proc.pid)
        while not done.is_set():
            total = 0
            try:
                for p in (root, *root.children(recursive=True)):
                    try:
                        total += p.memory_info().rss
                    except psutil.Error:
                        pass
            except psutil.Error:
                pass
            peak = max(peak, total)
            time.sleep(0.05)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    out, err = proc.communicate()
    elapsed = time.perf_counter() - t0
    done.set()
    watcher.join()
    if proc.returncode:
        print(err.decode(errors="replace").strip().splitlines()[-1], file=sys.stderr)
    return elapsed, peak, out.decode().strip(), proc.returncode


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    scale = 10 if quick else 1
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.parquet"
        rows = make_file(big, 100, 10_000 // scale, 10)
        elapsed, peak, out, rc = measure(ANALYSE, str(big))
        read_s, analyse_s, m, n, k, g = out.split() if not rc else ("nan",) * 6
        print(f"read and analyse {rows:,} rows ({m} models x {n} items x {k} answers, {g} clusters): "
              f"{elapsed:.1f} s (reading {read_s} s, sections {analyse_s} s), peak memory {peak / 1024**3:.2f} GB "
              f"(targets {TARGET_S:.0f} s, {TARGET_BYTES / 1024**3:.0f} GB)")
        if rc or elapsed > TARGET_S or peak > TARGET_BYTES:
            print("FAIL: reading and analysing missed a target", file=sys.stderr)
            status = 1
        small = Path(tmp) / "small.parquet"
        rows_small = make_file(small, 20, 5_000 // scale, 10)
        for path, n_rows in ((small, rows_small), (big, rows)):
            out_html = Path(tmp) / f"{path.stem}.html"
            elapsed, peak, _, rc = measure(REPORT, str(path), str(out_html))
            size = out_html.stat().st_size / 1e6 if out_html.exists() else float("nan")
            print(f"whole report (check, papermill, HTML) on {n_rows:,} rows: {elapsed:.1f} s, peak memory "
                  f"{peak / 1024**3:.2f} GB across processes, page {size:.1f} MB" + ("" if not rc else " FAILED"))
            if rc:
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
