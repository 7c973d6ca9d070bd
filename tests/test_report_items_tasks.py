"""The per-item report's per-task table (section 7) on lm-eval subtask files in lm-eval's own schema.

References: each task's means and paired differences from the samples files' lines read with json,
scipy's paired t test within a task, and statsmodels' Holm over the whole table.
"""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from evallib.report._items_inputs import read_lm_eval_samples
from evallib.report._items_sections import Skipped, format_task_table, task_table
from test_report_harness import MMLU, write_lm_eval_task

MODELS = (("llama", 0.66), ("mistral", 0.55), ("phi", 0.5))


@pytest.fixture()
def subtasks(tmp_path):
    rng = np.random.default_rng(44)
    files = {}
    for model, acc in MODELS:
        folder = tmp_path / model
        folder.mkdir()
        files[model] = [write_lm_eval_task(folder, t, n, acc, rng=rng) for t, n in MMLU.items()]
    return files


def _acc(files) -> dict[tuple[str, str], np.ndarray]:
    out = {}
    for model, paths in files.items():
        for path, task in zip(paths, MMLU):
            lines = [json.loads(s) for s in path.read_text(encoding="utf-8").splitlines() if s.strip()]
            out[model, task] = np.array([r["acc"] for r in sorted(lines, key=lambda r: r["doc_id"])])
    return out


@pytest.mark.parametrize("cluster_key", [None, "task"])
def test_per_task_means_and_the_leaders_differences_adjusted_over_the_table(subtasks, cluster_key):
    data = read_lm_eval_samples(subtasks, metric="acc", cluster_key=cluster_key)
    table = task_table(data, alpha=0.05, adjust="holm")
    acc = _acc(subtasks)
    overall = {m: np.concatenate([acc[m, t] for t in MMLU]).mean() for m, _ in MODELS}
    leader = max(overall, key=overall.get)
    assert table.leader == leader
    for (model, task), y in acc.items():
        assert table.means.loc[task, model] == pytest.approx(y.mean())
    assert table.items.to_dict() == MMLU
    raw = []
    d = table.differences
    assert len(d) == len(MMLU) * 2 and set(d["a"]) == {leader}
    for _, r in d.iterrows():
        x, y = acc[r["a"], r["task"]], acc[r["b"], r["task"]]
        ref = stats.ttest_rel(x, y)          # the task is the cluster or no cluster: item by item within it
        assert r["n_items"] == x.size and r["estimate"] == pytest.approx((x - y).mean())
        assert r["pvalue"] == pytest.approx(ref.pvalue)
        half = stats.t.isf((1 - table.interval_level) / 2, x.size - 1) * stats.sem(x - y)
        assert (r["low"], r["high"]) == (pytest.approx((x - y).mean() - half), pytest.approx((x - y).mean() + half))
        raw.append(ref.pvalue)
    assert table.interval_level == pytest.approx(1 - 0.05 / 6)
    assert d["pvalue_adj"].to_numpy() == pytest.approx(multipletests(raw, method="holm")[1])
    assert d["reject"].tolist() == (d["pvalue_adj"] <= 0.05).tolist()
    means, shown = format_task_table(table)
    assert list(means["items"]) == [f"{n:,}" for n in MMLU.values()] and len(shown) == 6
    text = " ".join(table.sentences())
    n_rej = int(d["reject"].sum())
    assert f"{n_rej} of the 6 differences" in text and "tied" not in text
    for _, r in d.iterrows():
        assert f"{r['task']}, {leader} - {r['b']}: {r['estimate']:+.4f} on {int(r['n_items'])} items" in text


def test_one_task_has_no_per_task_table(subtasks):
    one = {m: paths[:1] for m, paths in subtasks.items()}
    assert isinstance(task_table(read_lm_eval_samples(one, metric="acc")), Skipped)


@pytest.mark.slow
def test_cli_per_task_section_from_lm_eval_files(subtasks, tmp_path, capsys):
    from evallib.__main__ import main

    args = ["report"]
    for model, paths in subtasks.items():
        for path in paths:
            args += ["--lm-eval", f"{model}={path}"]
    out = tmp_path / "tasks.html"
    status = main(args + ["--metric", "acc", "--bootstrap-reps", "200", "-o", str(out), "-q"])
    assert status == 0, capsys.readouterr().err
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", out.read_text(encoding="utf-8"))))
    table = task_table(read_lm_eval_samples(subtasks, metric="acc"))
    assert "7. Per task" in text
    for sentence in table.sentences():
        assert sentence in text
