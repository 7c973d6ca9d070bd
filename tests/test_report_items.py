"""Tests of the per-item report: evallib.report.items_inputs, items_sections, items_runner.

Every file is written here from real data: :func:`evallib.evaluate_pupils` -- four
scikit-learn classifiers trained on half of the classes of ``nlschools`` and scored on the
1,191 pupils of the other 67 classes, right or wrong (and the probability each gave the
true outcome), the random forest refitted with 5 seeds (5 answers per item). References
are independent computations: the CR2 variance and its Bell-McCaffrey degrees of freedom
written out with dense matrices (``(I - H_gg)^(-1/2)`` by eigendecomposition, the df as
``(sum lambda)^2 / sum lambda^2`` of ``G' G``), statsmodels (OLS standard errors, Wilson
intervals, Holm and Benjamini-Hochberg, ANOVA mean squares), scipy (t and binomial laws,
the paired t test), brute-force enumeration of answer subsets for pass@k and a row-copying
cluster bootstrap for P(best).
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from evallib import evaluate_pupils
from evallib.report import ReportInputError
from evallib.report.items_inputs import load_item_scores, load_items, read_inspect_logs, read_lm_eval_samples
from evallib.report.items_sections import (
    Skipped,
    format_item_pairs,
    independence_note,
    items_summary_text,
    leaderboard,
    md_text,
    model_means,
    pairwise_items,
    sample_analysis,
    summarise_items,
)

ROOT = Path(__file__).resolve().parents[1]
MODELS = ["logistic", "boosting", "knn", "forest"]


# ------------------------------------------------------------------ real data
@pytest.fixture(scope="module")
def pupils():
    """The real evaluation: 1,191 pupils in 67 classes, four classifiers, the forest 5 times."""
    return evaluate_pupils(samples=5, rng=0)


def wide_correct(ev) -> pd.DataFrame:
    """Wide: one row per pupil, its class, one 0/1 column per classifier."""
    return ev.correct.assign(school=ev.pupils["class"]).reset_index()


def long_samples(ev) -> pd.DataFrame:
    """Long: the three deterministic classifiers once, the forest's 5 runs, with the class."""
    parts = [ev.correct[m].rename("score").reset_index().assign(model=m, run=1) for m in MODELS[:3]]
    runs = ev.samples.reset_index().melt(id_vars="pupil", var_name="run", value_name="score").assign(model="forest")
    frame = pd.concat([*parts, runs], ignore_index=True)
    frame["school"] = ev.pupils.loc[frame["pupil"], "class"].to_numpy()
    return frame


# ------------------------------------------------------------------ independent references
def cr2_reference(y: np.ndarray, clusters: np.ndarray | None) -> tuple[float, float]:
    """CR2 variance of the mean of ``y`` and its Bell-McCaffrey df, with dense matrices.

    Intercept-only OLS: ``X = 1``, ``H = J/N``; ``A_g = (I - H_gg)^(-1/2)`` by an
    eigendecomposition; ``V = sum_g (1' A_g e_g)^2 / N^2``; the df is Imbens & Kolesar's
    ``(sum lambda)^2 / sum lambda^2`` with ``lambda`` the eigenvalues of ``G' G``, column
    ``g`` of ``G`` being ``(I - H)[:, g] A_g 1 / N``. Without clusters each item is one.
    """
    y = np.asarray(y, dtype=float)
    N = y.size
    labels = np.arange(N) if clusters is None else np.asarray(clusters)
    e = y - y.mean()
    M = np.eye(N) - np.full((N, N), 1.0 / N)
    groups = [np.flatnonzero(labels == g) for g in pd.unique(labels)]
    V = 0.0
    if clusters is None:  # one item per cluster: A_g = (1 - 1/N)^(-1/2)
        a = (1 - 1.0 / N) ** -0.5
        V = float(np.sum((a * e) ** 2)) / N**2
        return V, float(N - 1)
    columns = []
    for idx in groups:
        n_g = idx.size
        w, Q = np.linalg.eigh(np.eye(n_g) - np.full((n_g, n_g), 1.0 / N))
        A = Q @ np.diag(w**-0.5) @ Q.T
        V += float(np.ones(n_g) @ A @ e[idx]) ** 2 / N**2
        columns.append(M[:, idx] @ A @ np.ones(n_g) / N)
    G = np.column_stack(columns)
    lam = np.linalg.eigvalsh(G.T @ G)
    return V, float(lam.sum() ** 2 / np.sum(lam**2))


def wilson_effective_reference(p: float, V: float, df: float, n_obs: int, alpha: float) -> tuple[float, float]:
    """Korn & Graubard's Wilson interval: n_eff = p(1-p)/V (at most n_obs), times (z/t_df)^2, via statsmodels."""
    from statsmodels.stats.proportion import proportion_confint

    z = stats.norm.isf(alpha / 2)
    n_eff = min(p * (1 - p) / V, n_obs)
    n_adj = n_eff * (z / stats.t.isf(alpha / 2, df)) ** 2
    return proportion_confint(p * n_adj, n_adj, alpha=alpha, method="wilson")


def _mid_p(b: int, c: int) -> float:
    """McNemar's mid-p from scipy's binomial law (Fagerland, Lydersen & Laake 2013)."""
    m, k = b + c, min(b, c)
    if m == 0:
        return 1.0
    return min(1.0, 2 * stats.binom.cdf(k, m, 0.5) - stats.binom.pmf(k, m, 0.5))


def _bonett_price(n10: int, n01: int, n: int, alpha: float) -> tuple[float, float]:
    """Bonett & Price (2012) for p(a right) - p(b right): (n10+1)/(n+2) - (n01+1)/(n+2) in a Wald interval."""
    z = stats.norm.isf(alpha / 2)
    p1, p2 = (n10 + 1) / (n + 2), (n01 + 1) / (n + 2)
    half = z * math.sqrt((p1 + p2 - (p1 - p2) ** 2) / (n + 2))
    return max(-1.0, p1 - p2 - half), min(1.0, p1 - p2 + half)


# ------------------------------------------------------------------ reading tables
def test_wide_long_excel_and_parquet_give_the_same_items(pupils, tmp_path):
    ev = pupils
    wide = wide_correct(ev)
    wide.to_csv(tmp_path / "wide.csv", index=False)
    wide.to_excel(tmp_path / "wide.xlsx", index=False)
    long = wide.melt(id_vars=["pupil", "school"], var_name="model", value_name="score")
    long.sample(frac=1.0, random_state=1).to_parquet(tmp_path / "long.parquet")  # any row order
    reference = ev.correct.copy()
    reference.index = reference.index.astype(str)
    for path in ("wide.csv", "wide.xlsx", "long.parquet"):
        data = load_item_scores(tmp_path / path, item_column="pupil", cluster_column="school")
        assert data.layout == ("long" if path.endswith("parquet") else "wide")
        assert set(data.models) == set(MODELS) and data.n_items == 1191 and data.max_samples == 1
        means = data.item_means()
        pd.testing.assert_frame_equal(means.loc[reference.index, MODELS], reference.astype(float),
                                      check_names=False)
        # the clusters partition the items as the classes do
        labels = pd.Series(data.cluster_labels(), index=data.items)
        classes = ev.pupils["class"].copy()
        classes.index = classes.index.astype(str)
        pairs = pd.crosstab(labels.loc[reference.index], classes.loc[reference.index])
        assert data.n_clusters == 67 and ((pairs > 0).sum(axis=1) == 1).all() and ((pairs > 0).sum(axis=0) == 1).all()
        assert data.binary


def test_wide_prefix_reads_only_the_prefixed_columns(pupils):
    ev = pupils
    frame = ev.probability.add_prefix("p_").assign(question=ev.pupils["lang"].astype(str) + " pts").reset_index()
    data = load_item_scores(frame, item_column="pupil", score_prefix="p_")
    assert data.models == tuple(MODELS) and not data.binary
    assert "question" in data.read_note
    np.testing.assert_allclose(data.model_scores("knn"), ev.probability["knn"].to_numpy())
    # without the prefix the text column is read as a model and refused in one sentence
    with pytest.raises(ReportInputError, match="'question' is not numeric"):
        load_item_scores(frame, item_column="pupil")


def test_long_samples_keep_every_answer_and_item_means_weigh_items_equally(pupils):
    ev = pupils
    frame = long_samples(ev)
    # unequal answers: drop the 4th and 5th runs of the first 300 pupils
    cut = frame["pupil"].isin(ev.samples.index[:300]) & frame["run"].isin([4, 5]) & (frame["model"] == "forest")
    frame = frame[~cut]
    data = load_item_scores(frame, item_column="pupil", sample_column="run", cluster_column="school")
    assert data.max_samples == 5 and "between 1 and 5 times" in data.read_note
    counts = pd.Series(data.sample_counts()[:, data.models.index("forest")], index=data.items)
    expected = frame[frame["model"] == "forest"].groupby("pupil")["score"]
    pd.testing.assert_series_equal(counts.sort_index(), expected.size().rename(None).set_axis(
        expected.size().index.astype(str)).sort_index(), check_names=False, check_dtype=False)
    item_mean = expected.mean()
    forest = model_means(data).loc["forest", "mean"]
    assert forest == pytest.approx(item_mean.mean())
    row_mean = frame.loc[frame["model"] == "forest", "score"].mean()
    assert abs(forest - row_mean) > 1e-4  # an item answered 5 times does not weigh 5 times


# Every contradiction the issue lists, and more: (how to break the long sample file, options, fragment).
def _break(frame: pd.DataFrame, case: str) -> tuple[pd.DataFrame, dict]:
    opts = {"item_column": "pupil", "sample_column": "run", "cluster_column": "school"}
    f = frame.copy()
    if case == "cluster changes within an item":
        f.loc[f.index[-1], "school"] = -1
    elif case == "duplicated rows":
        f = pd.concat([f, f.iloc[:40]])
    elif case == "the whole file twice":
        f = pd.concat([f, f])
    elif case == "repeats without a sample column":
        opts.pop("sample_column")
        f = f.drop(columns="run")
    elif case == "sample column without repeats":
        f = f[f["run"] == 1]
    elif case == "items missing for a model":
        f = f.drop(f.index[(f["model"] == "knn")][:12])
    elif case == "text score":
        f["score"] = f["score"].astype(object)
        f.loc[f.index[7], "score"] = "yes"
    elif case == "score out of range":
        f.loc[f.index[3], "score"] = 2
    elif case == "missing score":
        f.loc[f.index[3], "score"] = np.nan
    elif case == "missing cluster":
        f.loc[f.index[5], "school"] = np.nan
    elif case == "one cluster":
        f["school"] = "all"
    elif case == "one model":
        f = f[f["model"] == "knn"]
    elif case == "absent item column":
        opts["item_column"] = "question"
    elif case == "absent cluster column":
        opts["cluster_column"] = "passage"
    elif case == "prefix for a long file":
        opts["score_prefix"] = "acc_"
    elif case == "one column, two roles":
        opts["cluster_column"] = "pupil"
    return f, opts


BAD_TABLES = {
    "cluster changes within an item": "changes within an item",
    "duplicated rows": "occur more than once (40 duplicated rows)",
    "the whole file twice": "occur more than once",
    "repeats without a sample column": "name the column of repeated answers with --sample-column",
    "sample column without repeats": "marks no repeated answers",
    "items missing for a model": "Model 'knn' has no score for 12 of the 1,191 items",
    "text score": "is not numeric: data row 8 holds 'yes'",
    "score out of range": "outside [0, 1], the first 2 in data row 4",
    "missing score": "1 missing score, the first in data row 4",
    "missing cluster": "cluster column 'school' has 1 missing value",
    "one cluster": "every item in the one cluster 'all'",
    "one model": "holds 1 model ('knn')",
    "absent item column": "item column 'question' is not in",
    "absent cluster column": "cluster column 'passage' is not in",
    "prefix for a long file": "A score prefix ('acc_')",
    "one column, two roles": "One column plays two roles",
}


@pytest.mark.parametrize("case", list(BAD_TABLES))
def test_contradictory_tables_are_refused_in_one_sentence(pupils, tmp_path, case):
    frame, opts = _break(long_samples(pupils), case)
    path = tmp_path / "bad.csv"
    frame.to_csv(path, index=False)
    with pytest.raises(ReportInputError) as info:
        load_item_scores(path, **opts)
    message = str(info.value)
    assert BAD_TABLES[case] in message, message
    assert "\n" not in message and message.endswith(".")


def test_wide_contradictions_are_refused(pupils):
    wide = wide_correct(pupils).drop(columns="school")
    with pytest.raises(ReportInputError, match="Item '53' has more than one row"):
        load_item_scores(pd.concat([wide, wide.iloc[:1]]), item_column="pupil")
    with pytest.raises(ReportInputError, match="A score column .* no model column"):
        load_item_scores(wide, item_column="pupil", score_column="score")
    with pytest.raises(ReportInputError, match="model column 'knn' has 1 missing score"):
        load_item_scores(wide.assign(knn=wide["knn"].where(wide.index != 9)), item_column="pupil")
    with pytest.raises(ReportInputError, match="holds 1 model column"):
        load_item_scores(wide[["pupil", "knn"]], item_column="pupil")
    with pytest.raises(ReportInputError, match="per-item file .* does not exist"):
        load_item_scores(Path("/nonexistent/scores.csv"))


def test_shipped_example_is_the_real_evaluation(pupils):
    from evallib.report.items_example import make_example_items

    shipped = pd.read_csv(ROOT / "data" / "example_items.csv")
    fresh = make_example_items()
    pd.testing.assert_frame_equal(shipped, fresh, check_dtype=False)
    data = load_item_scores(ROOT / "data" / "example_items.csv")
    assert data.n_items == 1191 and data.n_clusters == 67 and data.max_samples == 5
    np.testing.assert_array_equal(data.model_scores("forest")[:, :5].mean(), pupils.samples.to_numpy().mean())


# ------------------------------------------------------------------ lm-evaluation-harness
def write_lm_eval(path: Path, ev, answers: pd.Series, *, filters=("none",), metrics=("acc", "acc_norm"),
                  extra: dict | None = None) -> Path:
    """A --log_samples file of lm_eval/evaluator.py's schema: one line per document and filter.

    ``acc`` is the classifier's right/wrong answer; ``acc_norm`` its probability of the
    true outcome rounded to 0/1 (a second per-document metric); ``doc`` carries the pupil's
    class, its language score and the label, as a task's document would.
    """
    prob = ev.probability.reindex(answers.index)
    lines = []
    for f in filters:
        for doc_id, value in answers.items():
            doc = {"pupil": int(doc_id), "class": int(ev.pupils.at[doc_id, "class"]),
                   "lang": float(ev.pupils.at[doc_id, "lang"])}
            target = int(ev.pupils.at[doc_id, "passed"])
            record = {"doc_id": int(doc_id), "doc": doc, "target": target,
                      "arguments": [[f"Pupil {doc_id}: above the median?", " yes"]],
                      "resps": [[["-0.7", False]]], "filtered_resps": [["-0.7", False]],
                      "filter": f, "metrics": list(metrics), "doc_hash": f"h{doc_id}", "prompt_hash": "p",
                      "target_hash": "t", "acc": float(value)}
            if "acc_norm" in metrics:
                record["acc_norm"] = float(round(float(prob.loc[doc_id, "knn"])))
            record.update(extra or {})
            lines.append(json.dumps(record))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_lm_eval_samples_read_into_items_with_runs_and_clusters(pupils, tmp_path):
    ev = pupils
    files = {m: write_lm_eval(tmp_path / f"samples_{m}.jsonl", ev, ev.correct[m], filters=("none", "strict-match"))
             for m in MODELS[:3]}
    files["forest"] = [write_lm_eval(tmp_path / f"samples_forest_{r}.jsonl", ev, ev.samples[r],
                                     filters=("none", "strict-match")) for r in ev.samples.columns]
    data = read_lm_eval_samples(files, metric="acc", filter="strict-match", cluster_key="class")
    assert data.layout == "lm-eval" and data.models == tuple(MODELS) and data.max_samples == 5
    items = ev.correct.index.astype(str)
    means = data.item_means().loc[items]
    np.testing.assert_array_equal(means[MODELS[:3]].to_numpy(), ev.correct[MODELS[:3]].to_numpy())
    np.testing.assert_allclose(means["forest"].to_numpy(), ev.samples.mean(axis=1).to_numpy())
    assert data.n_clusters == 67
    labels = pd.Series(data.cluster_labels(), index=data.items).loc[items]
    assert (labels.to_numpy() == ev.pupils["class"].astype(str).to_numpy()).all()
    assert "metric 'acc' with the filter 'strict-match'" in data.read_note
    # through the one entry point the report uses
    again = load_items(files, source_format="lm-eval", metric="acc", filter="none")
    pd.testing.assert_frame_equal(again.item_means().loc[items], means)
    assert again.clusters is None


def test_lm_eval_refusals(pupils, tmp_path):
    ev = pupils
    a = write_lm_eval(tmp_path / "a.jsonl", ev, ev.correct["logistic"], filters=("none", "strict-match"))
    b = write_lm_eval(tmp_path / "b.jsonl", ev, ev.correct["knn"], filters=("none", "strict-match"))
    cases = [
        (dict(files={"a": a, "b": b}, metric="acc"), "filters 'none' and 'strict-match'; choose one with --filter"),
        (dict(files={"a": a, "b": b}, filter="none"), "metrics 'acc' and 'acc_norm'; choose one with --metric"),
        (dict(files={"a": a, "b": b}, filter="none", metric="bleu"), "metric 'bleu' does not occur"),
        (dict(files={"a": a, "b": b}, filter="none", metric="acc", cluster_key="school"), "no field 'school'"),
    ]
    short = write_lm_eval(tmp_path / "short.jsonl", ev, ev.correct["knn"].iloc[:-7])
    full = write_lm_eval(tmp_path / "full.jsonl", ev, ev.correct["boosting"])
    cases.append((dict(files={"boosting": full, "knn": short}, metric="acc"),
                  "Model 'knn' has no score for 7 of the 1,191 items"))
    twice = tmp_path / "twice.jsonl"
    twice.write_text(full.read_text() + full.read_text().splitlines()[0] + "\n")
    cases.append((dict(files={"boosting": twice, "knn": full}, metric="acc"), "occurs twice in"))
    bleu = write_lm_eval(tmp_path / "bleu.jsonl", ev, ev.correct["knn"], metrics=("acc", "bleu"),
                         extra={"bleu": [["ref"], "pred"]})
    cases.append((dict(files={"boosting": bleu, "knn": bleu}, metric="bleu"), "not a number"))
    broken = tmp_path / "broken.jsonl"
    broken.write_text(full.read_text().splitlines()[0] + "\n{not json\n")
    cases.append((dict(files={"boosting": broken, "knn": full}, metric="acc"), "Line 2 of the lm-eval samples"))
    cases.append((dict(files={"boosting": tmp_path / "nope.jsonl", "knn": full}), "does not exist"))
    cases.append((dict(files=[full, short]), "must be given per model"))
    for kwargs, fragment in cases:
        with pytest.raises(ReportInputError) as info:
            read_lm_eval_samples(kwargs.pop("files"), **kwargs)
        message = str(info.value)
        assert fragment in message, message
        assert "\n" not in message and message.endswith((".", ")."))


# ------------------------------------------------------------------ inspect_ai
def write_inspect_log(path: Path, model: str, answers: pd.DataFrame, ev, *, status: str = "success",
                      value=lambda v: "C" if v else "I") -> Path:
    """An inspect_ai log written with inspect_ai's own API: one sample per pupil and epoch."""
    from inspect_ai.log import EvalDataset, EvalLog, EvalSample, EvalSpec, write_eval_log
    from inspect_ai.log._log import EvalConfig
    from inspect_ai.scorer import Score

    samples = []
    for epoch, column in enumerate(answers.columns, start=1):
        for pupil, right in answers[column].items():
            samples.append(EvalSample(
                id=int(pupil), epoch=epoch, input=f"Pupil {pupil}: above the median?",
                target="yes" if ev.pupils.at[pupil, "passed"] else "no",
                scores={"match": Score(value=value(int(right)))},
                metadata={"class": int(ev.pupils.at[pupil, "class"])}))
    spec = EvalSpec(created="2025-01-01T00:00:00+00:00", task="pupils", dataset=EvalDataset(name="nlschools"),
                    model=model, config=EvalConfig(epochs=answers.shape[1]))
    write_eval_log(EvalLog(eval=spec, samples=samples, status=status), str(path))
    return path


def test_inspect_logs_read_with_inspect_ai(pupils, tmp_path):
    pytest.importorskip("inspect_ai")
    ev = pupils
    # one log in inspect_ai's zipped .eval format, the others in its .json format (quicker to write)
    logs = [write_inspect_log(tmp_path / f"{m}.{'eval' if m == 'knn' else 'json'}", f"sklearn/{m}", ev.correct[[m]], ev)
            for m in MODELS[:3]]
    logs.append(write_inspect_log(tmp_path / "forest.json", "sklearn/forest", ev.samples, ev))
    data = read_inspect_logs(logs, cluster_key="class")
    assert data.layout == "inspect" and data.models == tuple(f"sklearn/{m}" for m in MODELS)
    assert data.max_samples == 5 and data.n_clusters == 67
    means = data.item_means().loc[ev.correct.index.astype(str)]
    np.testing.assert_array_equal(means.iloc[:, :3].to_numpy(), ev.correct[MODELS[:3]].to_numpy())
    np.testing.assert_allclose(means.iloc[:, 3].to_numpy(), ev.samples.mean(axis=1).to_numpy())
    # partial credit "P" is 0.5, as inspect_ai's own metrics read it
    partial = write_inspect_log(tmp_path / "partial.json", "sklearn/partial", ev.correct[["knn"]], ev,
                                value=lambda v: "P" if v else "I")
    both = read_inspect_logs([logs[0], partial])
    np.testing.assert_allclose(both.model_scores("sklearn/partial"), ev.correct["knn"].to_numpy() * 0.5)
    assert not both.binary


def test_inspect_refusals(pupils, tmp_path):
    pytest.importorskip("inspect_ai")
    ev = pupils
    good = write_inspect_log(tmp_path / "good.json", "m/good", ev.correct[["knn"]], ev)
    other = write_inspect_log(tmp_path / "other.json", "m/other", ev.correct[["logistic"]], ev)
    failed = write_inspect_log(tmp_path / "failed.json", "m/failed", ev.correct[["boosting"]], ev, status="error")
    same = write_inspect_log(tmp_path / "same.json", "m/good", ev.correct[["boosting"]], ev)
    odd = write_inspect_log(tmp_path / "odd.json", "m/odd", ev.correct[["boosting"]], ev,
                            value=lambda v: "great" if v else "I")
    cases = [([good, failed], {}, "has status 'error'"), ([good, same], {}, "are both of model 'm/good'"),
             ([good, other], {"scorer": "exact"}, "no score from the scorer 'exact'"),
             ([good, odd], {}, "'great', which inspect_ai cannot read as a number"),
             ([good, other], {"cluster_key": "school"}, "has no metadata 'school'"),
             ([good, other], {"metric": "acc"}, "holds a single value")]
    for paths, kwargs, fragment in cases:
        with pytest.raises(ReportInputError) as info:
            read_inspect_logs(paths, **kwargs)
        assert fragment in str(info.value), str(info.value)
        assert "\n" not in str(info.value)
