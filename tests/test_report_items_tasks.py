"""The per-item report's per-task table (section 7) on lm-eval subtask files in lm-eval's own schema.

References: each task's means and paired differences from the samples files' lines read with json,
scipy's paired t-test within a task, and statsmodels' Holm over the whole table.
"""

from __future__ import annotations

import html
import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from _references import t_test_detectable, t_test_units
from scipy import stats
from statsmodels.stats.multitest import multipletests

from evallib.report._items_inputs import read_lm_eval_samples
from evallib.report._items_sections import Skipped, format_task_table, task_table
from conftest import MMLU, write_lm_eval_task

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
    # one spelling of the adjusted p-value (the predictions report's, docs/conventions.md), the interval's
    # level and method named
    assert len(re.findall(r"adjusted p [=<] [^()]* \(Holm\)", text)) == 6 and "Holm-adjusted" not in text
    assert text.count("99.17% joint paired t interval") == 6
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
    assert f"Per task, {table.leader} against each other model on the task's items (3 tasks" in text  # summary
    assert "(section 7)." in text and "(section 6)." in text
    for sentence in table.sentences():
        assert sentence in text


def _summary(data, **kw):
    from evallib.report._items_sections import (
        item_planning,
        items_summary_text,
        leaderboard,
        model_means,
        pairwise_items,
        sample_analysis,
        summarise_items,
    )

    parts = {"overview": summarise_items(data), "means": model_means(data), "pairs": pairwise_items(data),
             "samples": sample_analysis(data), "board": leaderboard(data, n_resamples=300, rng=0)}
    return items_summary_text(data, **parts, **kw), item_planning


def test_summary_points_to_the_planning_and_per_task_sections_only_when_present(subtasks):
    """Issue 33: the summary names every section the report holds (6 and 7 included) and no absent one.

    References: the detectable difference and the items needed of the paired t-test with one answer
    per item and no clusters (``n - 1`` df), by quadrature over the chi-square law
    (:mod:`_references`), from the lines; the per-task
    differences' verdicts from scipy's paired t-test and statsmodels' Holm over the table.
    """
    data = read_lm_eval_samples(subtasks, metric="acc")
    acc = _acc(subtasks)
    whole = {m: np.concatenate([acc[m, t] for t in MMLU]) for m, _ in MODELS}
    leader = max(whole, key=lambda m: whole[m].mean())
    others = [m for m, _ in MODELS if m != leader]
    bare, item_planning = _summary(data)
    for n in (1, 2, 3, 5):
        assert f"section {n}" in bare
    # section 4 says only that every item was answered once, sections 6 and 7 were not given: no bullet
    assert "section 4" not in bare and "section 6" not in bare and "section 7" not in bare
    assert "Planning" not in bare and "Per task" not in bare
    plan = item_planning(data, alpha=0.05, min_difference=0.05)
    text, _ = _summary(data, min_difference=0.05, planning=plan, tasks=task_table(data))
    bullets = text.split("\n")
    (planning,) = [b for b in bullets if "(section 6)" in b]
    for other in others:
        d = whole[leader] - whole[other]
        detectable = t_test_detectable(d.size, np.var(d, ddof=1), 0.05, 0.8)
        needed = t_test_units(0.05, np.var(d, ddof=1), 0.05, 0.8)
        assert f"{detectable:.4f} against {other}" in planning
        assert f"{needed:,} items against {other}" in planning
    (per_task,) = [b for b in bullets if "(section 7)" in b]
    raw, rows = [], []
    for t in MMLU:
        for other in others:
            raw.append(stats.ttest_rel(acc[leader, t], acc[other, t]).pvalue)
            rows.append((t, other, (acc[leader, t] - acc[other, t]).mean()))
    reject = multipletests(raw, method="holm")[0]
    assert f"{int(reject.sum())} of the 6 differences" in per_task or (not reject.any() and "none of the 6" in per_task)
    for (t, other, est), r in zip(rows, reject):
        assert (f"{other} on {t} ({leader} - {other} = {est:+.4f})" in per_task) == bool(r)
    # one task: no per-task table, so no bullet for it
    one = read_lm_eval_samples({m: p[:1] for m, p in subtasks.items()}, metric="acc")
    single, _ = _summary(one, planning=item_planning(one), tasks=task_table(one))
    assert "section 7" not in single and "section 6" in single


def test_tasks_as_few_clusters_widen_the_leaders_interval_and_the_summary_says_so(subtasks):
    """Three tasks as the clusters: the CR2 interval rests on about 2
    degrees of freedom and is wider than Wilson's for independent items (statsmodels' Wilson interval on
    the 387 scores); the summary compares the two widths instead of calling the clusters harmless, and the
    few-clusters warning names the rank bootstrap too."""
    from statsmodels.stats.proportion import proportion_confint

    data = read_lm_eval_samples(subtasks, metric="acc", cluster_key="task")
    text, _ = _summary(data)
    acc = _acc(subtasks)
    leader = max((m for m, _ in MODELS), key=lambda m: np.concatenate([acc[m, t] for t in MMLU]).mean())
    y = np.concatenate([acc[leader, t] for t in MMLU])
    lo, hi = proportion_confint(int(y.sum()), y.size, alpha=0.05, method="wilson")
    bullet = next(b for b in text.split("\n") if "cluster-robust standard error is" in b)
    assert f"the {lo:.4f} to {hi:.4f} that taking the items as independent gives" in bullet
    low, high, times = map(float, re.search(r"Its interval, ([0-9.]+) to ([0-9.]+), is ([0-9.]+) times as wide",
                                            bullet).groups())
    assert times == pytest.approx((high - low) / (hi - lo), abs=0.01) and times > 1.05
    assert "change the interval little" not in bullet
    # the standard error's share of the widening follows the variance ratio (the bullet's, 1 or more here)
    ratio = float(re.search(r"variance ratio ([0-9.]+)\)", bullet).group(1))
    # the verdict too: clusters shown alike only when the variance ratio is above 1, else the price of few clusters
    assert ("the clusters matter" in bullet) == (ratio > 1)
    assert ("not evidence that the items of a cluster are alike" in bullet) == (ratio <= 1)
    assert ("not only its standard error" in bullet) == (ratio > 1)
    assert ("its standard error is no larger; the widening is the t quantile's few degrees of freedom, which "
            "taking only the 3 clusters as independent imposes" in bullet) == (ratio <= 1)
    assert "the rank bootstrap resamples only these 3 clusters" in text
    assert "(paired CR2 t-tests, cluster-robust; section 3)" in text      # the tests named as run


def _planted_leader(se_ratio: float, df: float) -> pd.Series:
    """A means row planted by hand: a t interval (no effective sample size) whose cluster-robust standard
    error is ``se_ratio`` times the items-independent 0.05, on ``df`` degrees of freedom, against the
    items-independent normal interval; the bounds are estimate ± quantile × SE, computed here."""
    z, t = stats.norm.isf(0.025), stats.t.isf(0.025, df)
    se = 0.05 * se_ratio
    return pd.Series({"mean": 0.5, "low": 0.5 - t * se, "high": 0.5 + t * se, "se": se, "df": df,
                      "independent_low": 0.5 - z * 0.05, "independent_high": 0.5 + z * 0.05,
                      "independent_df": math.inf, "interval_design_effect": se_ratio ** 2,
                      "effective_n": math.nan, "independent_effective_n": math.nan, "scores": 100,
                      "n_items": 100, "design_effect": se_ratio ** 2})


@pytest.mark.parametrize("se_ratio, df, standard_error, quantile_alone, narrower", [
    (1.5, 4.0, True, False, False),     # both widen: design effect above 1 and a quantile ratio of 1.41
    (0.8, 4.0, False, True, False),     # 0.8 x 2.776 / 1.960 = 1.13 wider: the quantile alone
    (0.5, 4.0, False, False, True),     # 0.5 x 1.42 = 0.71: the smaller standard error wins
    (1.5, 200.0, False, False, False),  # many degrees of freedom: no quantile sentence at all
])
def test_design_effect_bullet_reads_the_standard_error_and_the_quantile_apart(se_ratio, df, standard_error,
                                                                               quantile_alone, narrower):
    """Planted ratios: "not only its standard error" only with a design effect above 1; with a standard error
    no larger the widening is put on the t quantile of the J clusters; a narrower interval is said to be one."""
    from evallib.report._items_sections import _design_effect_sentence

    row = _planted_leader(se_ratio, df)
    text = _design_effect_sentence(row, se_ratio ** 2, 0.05, 6)
    times = se_ratio * stats.t.isf(0.025, df) / stats.norm.isf(0.025)
    assert f"is {times:.2f} times as wide" in text
    assert ("its t quantile, not only its standard error, widens it" in text) == standard_error
    assert ("its standard error is no larger; the widening is the t quantile's few degrees of freedom, which "
            "taking only the 6 clusters as independent imposes" in text) == quantile_alone
    assert ("its smaller standard error outweighs the wider t quantile" in text) == narrower
    assert ("the cluster-robust interval is the narrower one here" in text) == narrower
    # a wider interval with a standard error no larger is the price of few clusters, not clusters shown alike
    assert ("the wider interval is the price of resting on 6 clusters, not evidence that the items of a cluster "
            "are alike" in text) == (quantile_alone and times > 1.05)
    assert ("the clusters matter" in text) == (se_ratio > 1 and times > 1.05)
