"""Tests of the per-item report: evallib.report._items_inputs, items_sections, items_runner.

Every file is written here from real data: :func:`evallib.evaluate_pupils` -- four
scikit-learn classifiers trained on half of the classes of ``nlschools`` and scored on the
1,191 pupils of the other 67 classes, right or wrong (and the probability each gave the
true outcome), the random forest refitted with 5 seeds (5 answers per item). References
are independent computations: the CR2 variance and its Bell–McCaffrey degrees of freedom
written out with dense matrices (``(I - H_gg)^(-1/2)`` by eigendecomposition, the df as
``(sum lambda)^2 / sum lambda^2`` of ``G' G``), statsmodels (OLS standard errors, Wilson
intervals, Holm and Benjamini–Hochberg, ANOVA mean squares), scipy (t and binomial laws,
the paired t-test), brute-force enumeration of answer subsets for pass@k and a row-copying
cluster bootstrap for P(best).
"""

from __future__ import annotations

import itertools
import re
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _references import bonett_price as _bonett_price, cr2_variance as cr2_reference, mid_p as _mid_p
from _references import wilson_effective as wilson_effective_reference
from scipy import stats

from evallib import evaluate_pupils
from evallib.report import ReportInputError
from evallib.report._prose import escape
from evallib.report._items_inputs import load_item_scores, load_items, read_inspect_logs, read_lm_eval_samples
from evallib.report._items_sections import (
    Skipped,
    format_item_pairs,
    independence_note,
    items_summary_text,
    leaderboard,
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


def test_wide_with_a_sample_column_and_a_sample_column_found_by_name(pupils):
    ev = pupils
    runs = ev.samples.reset_index().melt(id_vars="pupil", var_name="run", value_name="forest")
    runs["logistic"] = ev.correct.loc[runs["pupil"], "logistic"].to_numpy()  # deterministic: the same each run
    runs.loc[runs.index[:50], "forest"] = np.nan  # 50 answers missing: fewer samples for those pupils
    data = load_item_scores(runs, item_column="pupil", sample_column="run")
    assert data.layout == "wide" and data.max_samples == 5
    expected = runs.groupby("pupil")["forest"].mean()
    got = data.item_means()["forest"].loc[expected.index.astype(str)]
    np.testing.assert_allclose(got.to_numpy(), expected.to_numpy())
    # a column called "sample" that numbers no repeats is not used when nobody named it ...
    once = wide_correct(ev).assign(sample=1)
    data = load_item_scores(once, item_column="pupil", cluster_column="school")
    assert data.max_samples == 1 and "marks no repeated answers and was not used" in data.read_note
    # ... and refused when named
    with pytest.raises(ReportInputError, match="marks no repeated answers; leave out --sample-column"):
        load_item_scores(once, item_column="pupil", cluster_column="school", sample_column="sample")


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


def test_items_missing_for_a_model_are_read_and_said(pupils, tmp_path):
    """Issue 33: a model scored on fewer items is no longer refused; the read note says how many."""
    frame, opts = _break(long_samples(pupils), "items missing for a model")
    data = load_item_scores(frame, **opts)
    assert "'knn' scored 1,179" in data.read_note and "the items both models scored" in data.read_note


def test_a_file_of_one_model_is_read_when_the_caller_asks_for_one(pupils, tmp_path):
    """min_models: the per-item report asks for two models (the default), the release gate for one (a
    baseline's or candidate's own file). A long file of the forest's 5 runs and a wide file of knn's
    column are read with their scores as written; the default refuses them in one sentence."""
    long = long_samples(pupils)
    path = tmp_path / "forest.csv"
    long[long["model"] == "forest"].to_csv(path, index=False)
    opts = {"item_column": "pupil", "sample_column": "run", "cluster_column": "school"}
    with pytest.raises(ReportInputError) as info:
        load_item_scores(path, **opts)
    assert str(info.value) == ("The file holds 1 model ('forest'); the per-item report compares at least two models "
                               "(column 'model').")
    forest = load_item_scores(path, min_models=1, **opts)
    assert (forest.layout, forest.models, forest.n_items, forest.max_samples, forest.n_clusters) == (
        "long", ("forest",), 1191, 5, 67)
    runs = pupils.samples.set_axis(pupils.samples.index.astype(str))
    np.testing.assert_array_equal(forest.item_means()["forest"].to_numpy(), runs.loc[forest.items].mean(axis=1))
    wide = wide_correct(pupils)[["pupil", "school", "knn"]]
    with pytest.raises(ReportInputError) as info:
        load_item_scores(wide, item_column="pupil", cluster_column="school")
    assert str(info.value) == ("'<DataFrame>' holds 1 model column ('knn'); the per-item report compares at least two "
                               "models, given as one column per model beside the item column (or a long file with a "
                               "model column).")
    knn = load_item_scores(wide, item_column="pupil", cluster_column="school", min_models=1)
    assert (knn.layout, knn.models, knn.n_clusters) == ("wide", ("knn",), 67)
    np.testing.assert_array_equal(knn.model_scores("knn"), wide["knn"].to_numpy())
    with pytest.raises(ReportInputError) as info:
        load_items(wide_correct(pupils)[["pupil", "knn", "forest"]], item_column="pupil", min_models=3)
    assert "holds 2 model columns ('knn' and 'forest'); at least 3 models are needed here (min_models=3)" in str(
        info.value)
    for bad, error in ((0, ValueError), (2.5, ValueError), (False, TypeError)):
        with pytest.raises(error, match="min_models must be a whole number >= 1"):
            load_item_scores(wide, item_column="pupil", cluster_column="school", min_models=bad)


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
    from evallib.report._items_example import make_example_items

    shipped = pd.read_csv(ROOT / "data" / "example_items.csv")
    fresh = make_example_items(rng=0)
    pd.testing.assert_frame_equal(shipped, fresh, check_dtype=False)
    data = load_item_scores(ROOT / "data" / "example_items.csv")
    assert data.n_items == 1191 and data.n_clusters == 67 and data.max_samples == 5
    np.testing.assert_array_equal(data.model_scores("forest")[:, :5].mean(), pupils.samples.to_numpy().mean())


# ------------------------------------------------------------------ lm-evaluation-harness
def write_lm_eval(path: Path, ev, answers: pd.Series, *, filters=("none",), metrics=("acc", "acc_norm"),
                  extra: dict | None = None) -> Path:
    """A --log_samples file as lm_eval/loggers/evaluation_tracker.py writes lm_eval/evaluator.py's records:
    one line per document and filter, arguments as ``gen_args_i``/``arg_j``, target and responses as text.

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
            target = str(int(ev.pupils.at[doc_id, "passed"]))     # save_results_samples: str(target)
            record = {"doc_id": int(doc_id), "doc": doc, "target": target,
                      "arguments": {"gen_args_0": {"arg_0": f"Pupil {doc_id}: above the median?", "arg_1": " yes"}},
                      "resps": [[["-0.7", "False"]]], "filtered_resps": [["-0.7", "False"]],  # sanitize_list: text
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
    # issue 33: a model scored on fewer documents is read, and the note says how many
    assert "'knn' scored 1,184" in read_lm_eval_samples({"boosting": full, "knn": short}, metric="acc").read_note
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


# ------------------------------------------------------------------ sections against references
@pytest.fixture(scope="module")
def clustered(pupils):
    """The wide 0/1 file with the classes as clusters, read back."""
    return load_item_scores(wide_correct(pupils), item_column="pupil", cluster_column="school")


def test_overview_and_the_independence_assumption(pupils, clustered):
    ov = summarise_items(clustered)
    sizes = pupils.pupils["class"].value_counts()
    assert (ov.n_items, ov.n_models, ov.n_clusters) == (1191, 4, 67)
    assert ov.cluster_sizes == (sizes.min(), float(sizes.median()), sizes.max())
    assert "cluster-robust" in ov.assumption and "taken as independent" not in ov.assumption
    assert (clustered.item_column, clustered.cluster_column, clustered.sample_column) == ("pupil", "school", "")
    assert "67 clusters (school)" in ov.assumption
    flat = load_item_scores(wide_correct(pupils).drop(columns="school"), item_column="pupil")
    text = independence_note(flat)
    assert "taken as independent" in text and "--cluster-column" in text
    assert "clusters: none (items taken as independent)" in summarise_items(flat).text()
    few = load_item_scores(wide_correct(pupils).iloc[:60], item_column="pupil", cluster_column="school")
    warnings = summarise_items(few).warnings
    assert any("few items" in w for w in warnings) and any("few clusters" in w for w in warnings)
    # few clusters make the CR2 standard errors noisy, not necessarily wide: the warning says so, and names the
    # t reference's degrees of freedom, at most J - 1 (J counted here from the file), which is what widens the intervals
    j = wide_correct(pupils).iloc[:60]["school"].nunique()
    items_warning = next(w for w in warnings if "few items" in w)
    half = 1.96 * (0.25 / 60) ** 0.5  # by hand: 60 pupils
    assert f"±{half:.2f} (95% interval, 1.96 sqrt(0.25 / items): items taken as independent" in items_warning
    clusters_warning = next(w for w in warnings if "few clusters" in w)
    assert "so they are wide" not in clusters_warning
    assert f"at most {j - 1} degrees of freedom ({j} clusters less 1" in clusters_warning
    assert (model_means(few)["df"] <= j - 1 + 1e-9).all()


def test_model_means_against_written_out_cr2_and_wilson(pupils, clustered):
    import statsmodels.api as sm

    ev = pupils
    alpha = 0.1
    table = model_means(clustered, alpha=alpha)
    assert list(table.index) == list(ev.correct.mean().sort_values(ascending=False, kind="stable").index)
    classes = ev.pupils["class"].to_numpy()
    for m in MODELS:
        y = ev.correct[m].to_numpy(dtype=float)
        V, df = cr2_reference(y, classes)
        low, high = wilson_effective_reference(y.mean(), V, df, y.size, alpha)
        row = table.loc[m]
        assert row["mean"] == pytest.approx(y.mean())
        assert row["se"] == pytest.approx(math.sqrt(V), rel=1e-10)
        assert row["df"] == pytest.approx(df, rel=1e-9)
        assert (row["low"], row["high"]) == (pytest.approx(low, rel=1e-9), pytest.approx(high, rel=1e-9))
        ols = sm.OLS(y, np.ones(y.size)).fit()
        assert row["unclustered_se"] == pytest.approx(float(ols.bse[0]))
        assert row["design_effect"] == pytest.approx(V / float(ols.bse[0]) ** 2)
    # probabilities (real scores): the CR2 t interval with the Bell–McCaffrey df
    frame = ev.probability.assign(school=ev.pupils["class"]).reset_index()
    real = model_means(load_item_scores(frame, item_column="pupil", cluster_column="school"), alpha=alpha)
    for m in MODELS:
        y = ev.probability[m].to_numpy()
        V, df = cr2_reference(y, classes)
        half = stats.t.isf(alpha / 2, df) * math.sqrt(V)
        assert real.loc[m, "method"] == "cr2"
        assert (real.loc[m, "low"], real.loc[m, "high"]) == (pytest.approx(y.mean() - half), pytest.approx(y.mean() + half))
    # no clusters, one 0/1 answer: Wilson's own interval
    from statsmodels.stats.proportion import proportion_confint

    flat = model_means(load_item_scores(wide_correct(ev).drop(columns="school"), item_column="pupil"), alpha=alpha)
    for m in MODELS:
        lo, hi = proportion_confint(int(ev.correct[m].sum()), 1191, alpha=alpha, method="wilson")
        assert (flat.loc[m, "low"], flat.loc[m, "high"]) == (pytest.approx(lo), pytest.approx(hi))


def test_pairwise_clustered_against_written_out_cr2_holm_and_bh(pupils, clustered):
    from statsmodels.stats.multitest import multipletests

    ev = pupils
    alpha = 0.05
    classes = ev.pupils["class"].to_numpy()
    for adjust in ("holm", "bh"):
        table = pairwise_items(clustered, alpha=alpha, adjust=adjust)
        assert len(table) == 6 and not table.attrs["mcnemar"]
        ps = []
        for row in table.itertuples():
            d = ev.correct[row.a].to_numpy(float) - ev.correct[row.b].to_numpy(float)
            V, df = cr2_reference(d, classes)
            t = d.mean() / math.sqrt(V)
            ps.append(2 * stats.t.sf(abs(t), df))
            assert row.estimate == pytest.approx(d.mean()) and row.estimate >= 0
            half = stats.t.isf(alpha / 6 / 2, df) * math.sqrt(V)  # joint (Bonferroni) interval
            assert (row.low, row.high) == (pytest.approx(d.mean() - half), pytest.approx(d.mean() + half))
        np.testing.assert_allclose(table["pvalue"], ps, rtol=1e-8)
        method = {"holm": "holm", "bh": "fdr_bh"}[adjust]
        reject, p_adj, _, _ = multipletests(ps, alpha=alpha, method=method)
        np.testing.assert_allclose(table["pvalue_adj"], p_adj, rtol=1e-8)
        assert list(table["reject"]) == list(reject)
    text = format_item_pairs(table)
    assert len(text) == 6 and "adjusted p (Benjamini–Hochberg; CR2 t-test)" in text.columns


def test_pairwise_mcnemar_where_it_applies(pupils):
    from statsmodels.stats.multitest import multipletests

    ev = pupils
    data = load_item_scores(wide_correct(ev).drop(columns="school"), item_column="pupil")
    table = pairwise_items(data, alpha=0.05, adjust="holm")
    assert table.attrs["mcnemar"]
    for row in table.itertuples():
        a, b = ev.correct[row.a].to_numpy(), ev.correct[row.b].to_numpy()
        n10, n01 = int(np.sum((a == 1) & (b == 0))), int(np.sum((a == 0) & (b == 1)))
        assert (row.n10, row.n01) == (n10, n01)
        assert row.mcnemar_p == pytest.approx(_mid_p(n10, n01))
        assert (row.bp_low, row.bp_high) == pytest.approx(_bonett_price(n10, n01, 1191, 0.05 / 6))
        assert row.pvalue == pytest.approx(stats.ttest_rel(a, b).pvalue)
    np.testing.assert_allclose(table["mcnemar_pvalue_adj"], multipletests(table["mcnemar_p"], method="holm")[1])
    assert "adjusted p (Holm; McNemar's mid-p test)" in format_item_pairs(table).columns
    # with clusters, or several answers, McNemar does not apply
    assert not pairwise_items(load_item_scores(long_samples(ev), item_column="pupil", sample_column="run")).attrs["mcnemar"]


def test_sample_analysis_against_anova_and_enumerated_pass_at_k(pupils):
    ev = pupils
    frame = long_samples(ev)
    # unbalanced: the first 200 pupils lose the forest's 5th answer
    frame = frame[~(frame["pupil"].isin(ev.samples.index[:200]) & (frame["run"] == 5) & (frame["model"] == "forest"))]
    data = load_item_scores(frame, item_column="pupil", sample_column="run", cluster_column="school")
    result = sample_analysis(data, alpha=0.05)
    forest = frame[frame["model"] == "forest"]
    groups = [g.to_numpy(float) for _, g in forest.groupby("pupil")["score"]]
    k_i = np.array([g.size for g in groups], dtype=float)
    msw = sum(np.sum((g - g.mean()) ** 2) for g in groups) / (k_i.sum() - k_i.size)  # pooled within
    msb = stats.f_oneway(*groups).statistic * msw  # scipy's one-way ANOVA F = MSB / MSW
    n_tot, n = k_i.sum(), k_i.size
    k0 = (n_tot - np.sum(k_i**2) / n_tot) / (n - 1)
    row = result.components.loc["forest"]
    assert row["within"] == pytest.approx(msw) and row["between"] == pytest.approx((msb - msw) / k0)
    assert np.isnan(result.components.loc["knn", "within"])  # one answer: not identified
    # with clusters the floor is the clustered one: the written-out CR2 variance of the item means
    # less the within-item noise msw * mean(1/K) / n, not the unclustered sqrt(between / n)
    item_means = np.array([g.mean() for g in groups])
    V, _ = cr2_reference(item_means, ev.pupils.loc[forest.groupby("pupil")["score"].mean().index, "class"].to_numpy())
    noise = msw * np.mean(1 / k_i) / n
    assert row["se"] == pytest.approx(math.sqrt(V))
    assert row["floor"] == pytest.approx(math.sqrt(V - noise))
    assert row["se_double"] == pytest.approx(math.sqrt(V - noise / 2))
    assert row["floor"] != pytest.approx(math.sqrt(row["between"] / n), rel=0.02)
    assert result.ks == (1, 2, 3, 4)      # every k up to the fewest answers (at most 10 of them: none skipped)
    # pass@k and pass^k by enumerating every k-subset of each pupil's answers
    answers = forest.groupby("pupil")["score"].apply(list)
    classes = ev.pupils.loc[answers.index, "class"].to_numpy()
    for k in (2, 3, 4):
        any_right = np.array([np.mean([max(c) for c in itertools.combinations(a, k)]) for a in answers])
        all_right = np.array([np.mean([min(c) for c in itertools.combinations(a, k)]) for a in answers])
        got = result.passk[(result.passk["model"] == "forest") & (result.passk["k"] == k)].iloc[0]
        for est, lo, hi, values in ((got["pass_at_k"], got["low"], got["high"], any_right),
                                    (got["pass_hat_k"], got["hat_low"], got["hat_high"], all_right)):
            V, df = cr2_reference(values, classes)
            half = stats.t.isf(0.025, df) * math.sqrt(V)
            assert est == pytest.approx(values.mean())
            assert (lo, hi) == (pytest.approx(max(0.0, values.mean() - half)), pytest.approx(min(1.0, values.mean() + half)))
    assert set(result.passk.loc[result.passk["model"] == "knn", "k"]) == {1}
    # real scores: no pass@k, and one answer per item: nothing to analyse
    real = long_samples(ev).assign(score=lambda f: f["score"] * 0.5 + 0.25)
    skipped = sample_analysis(load_item_scores(real, item_column="pupil", sample_column="run")).passk
    assert isinstance(skipped, Skipped) and "not 0/1" in skipped.reason
    assert isinstance(sample_analysis(load_item_scores(wide_correct(ev), item_column="pupil",
                                                       cluster_column="school")), Skipped)


def test_leaderboard_against_references(pupils, clustered):
    ev = pupils
    board = leaderboard(clustered, alpha=0.05, adjust="holm", n_resamples=4000, rng=7)
    means = ev.correct.mean()
    assert board.tie.leader == means.idxmax()
    # the tie group from the written-out pairwise tests, Holm over all six pairs
    from statsmodels.stats.multitest import multipletests

    classes = ev.pupils["class"].to_numpy()
    pairs = list(itertools.combinations(MODELS, 2))
    ps = []
    for a, b in pairs:
        d = ev.correct[a].to_numpy(float) - ev.correct[b].to_numpy(float)
        V, df = cr2_reference(d, classes)
        ps.append(2 * stats.t.sf(abs(d.mean()) / math.sqrt(V), df))
    reject = dict(zip(pairs, multipletests(ps, alpha=0.05, method="holm")[0]))
    leader = means.idxmax()
    expected = {m for m in MODELS if m != leader and not reject.get((leader, m), reject.get((m, leader)))}
    assert set(board.tie.members[1:]) == expected and len(expected) >= 1
    # P(best) against a bootstrap that copies the rows of resampled classes
    rng = np.random.default_rng(123)
    labels = pd.unique(classes)
    rows = {g: np.flatnonzero(classes == g) for g in labels}
    x = ev.correct[MODELS].to_numpy(float)
    first = np.zeros(len(MODELS))
    reps = 4000
    for _ in range(reps):
        idx = np.concatenate([rows[g] for g in rng.choice(labels, size=labels.size)])
        first[np.argmax(x[idx].mean(axis=0))] += 1
    reference = pd.Series(first / reps, index=MODELS)
    got = board.ranks.set_index("model")["p_best"]
    assert got.sum() == pytest.approx(1.0)
    for m in MODELS:
        assert got[m] == pytest.approx(reference[m], abs=0.04), (m, got[m], reference[m])
    worst = means.idxmin()
    assert tuple(board.ranks.set_index("model").loc[worst, ["rank_low", "rank_high"]]) == (4, 4)


def test_summary_sentences_and_escaping(pupils):
    ev = pupils
    evil = "<img src=x onerror=alert(1)>*k_n$n"
    frame = wide_correct(ev).rename(columns={"knn": evil})
    data = load_item_scores(frame, item_column="pupil", cluster_column="school")
    parts = dict(overview=summarise_items(data), means=model_means(data), pairs=pairwise_items(data),
                 samples=sample_analysis(data), board=leaderboard(data, n_resamples=500, rng=0))
    text = items_summary_text(data, **parts)
    import html as html_module

    from evallib.report.htmlexport import markdown_to_html

    page = markdown_to_html(text)  # the page's renderer: no image, no emphasis, no maths made from the name
    assert "<img" not in text and "<img" not in page and "<em>" not in page and "<math" not in page
    assert escape(evil) in text and html_module.escape(evil, quote=False) in page
    lead = ev.correct.mean().idxmax()
    assert f"**{lead}** has the highest mean score, {ev.correct[lead].mean():.4f}" in text
    assert "over 1,191 items in 67 clusters" in text
    n_sig = int(parts["pairs"]["reject"].sum())
    assert f"{n_sig} of the pairwise differences" in text or (n_sig == 0 and "none of the pairwise" in text)
    assert "taken as independent" not in text and "cluster-robust standard error is" in text
    flat = load_item_scores(frame.drop(columns="school"), item_column="pupil")
    parts = dict(overview=summarise_items(flat), means=model_means(flat), pairs=pairwise_items(flat),
                 samples=sample_analysis(flat), board=leaderboard(flat, n_resamples=500, rng=0))
    text = items_summary_text(flat, **parts)
    assert "No cluster column was given, so the items are taken as independent" in text
    assert "McNemar's mid-p test" in text


# ------------------------------------------------------------------ the runner
class _Stop(Exception):
    pass


def test_runner_refuses_before_writing_anything(pupils, tmp_path, monkeypatch):
    from evallib.report._items_runner import run_items_report
    from evallib.report._runner import ReportExecutionError

    good = tmp_path / "scores.csv"
    long_samples(pupils).to_csv(good, index=False)
    bad = tmp_path / "bad.csv"
    pd.concat([long_samples(pupils)] * 2).to_csv(bad, index=False)
    out = tmp_path / "out" / "deep" / "r.html"
    with pytest.raises(ReportInputError, match="occur more than once"):
        run_items_report(bad, out, item_column="pupil", sample_column="run", progress=False)
    with pytest.raises(ReportInputError, match="must end in .html"):
        run_items_report(good, tmp_path / "out" / "r.pdf", item_column="pupil", progress=False)
    with pytest.raises(ValueError, match="adjust must be one of"):
        run_items_report(good, out, item_column="pupil", adjust="sidak", progress=False)
    with pytest.raises(ReportInputError, match="do not apply to table input"):
        run_items_report(good, out, item_column="pupil", metric="acc", scorer="x", progress=False)
    assert not (tmp_path / "out").exists()
    import papermill

    seen = {}

    def fake_execute(*args, parameters, **kwargs):
        seen.update(parameters)
        raise _Stop("stopped")

    monkeypatch.setattr(papermill, "execute_notebook", fake_execute)
    with pytest.raises(ReportExecutionError, match="_Stop"):
        run_items_report(good, out, item_column="pupil", sample_column="run", cluster_column="school",
                         rng=np.random.default_rng(5), progress=False)
    assert not (tmp_path / "out").exists()  # the folders it made are gone again
    assert seen["seed"] == int(np.random.default_rng(5).integers(2**31 - 1)) and type(seen["seed"]) is int
    assert seen["source"] == str(good.resolve()) and seen["cluster_column"] == "school"
    json.dumps(seen)  # papermill parameters must be JSON


def _html_text(path: Path) -> str:
    import html as html_module
    import re

    text = html_module.unescape(re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8")))
    return re.sub(r"\s+", " ", text)


@pytest.mark.slow
def test_report_end_to_end_on_a_long_file(pupils, tmp_path):
    """The report on the real long file: leader, intervals and every pair in the page, names escaped."""
    from evallib.report._items_runner import run_items_report

    ev = pupils
    evil = "<script>alert(1)</script>knn"
    frame = long_samples(ev)
    frame["model"] = frame["model"].replace({"knn": evil})
    source = tmp_path / "scores.csv"
    frame.to_csv(source, index=False)
    files = run_items_report(source, tmp_path / "report" / "items.html", item_column="pupil", sample_column="run",
                             cluster_column="school", title="<script>alert(2)</script> Q3", progress=False,
                             n_resamples=500, rng=0)
    page = files.html.read_text(encoding="utf-8")
    assert "<script>alert" not in page and "&lt;script&gt;alert(2)&lt;/script&gt; Q3" in page
    assert files.notebook.is_file() and "load_items(" not in page  # no code cells
    text = _html_text(files.html)
    lead = ev.correct.mean().idxmax()
    classes = ev.pupils["class"].to_numpy()
    y = ev.correct[lead].to_numpy(float)
    V, df = cr2_reference(y, classes)
    low, high = wilson_effective_reference(y.mean(), V, df, y.size, 0.05)
    assert (f"{lead} has the highest mean score, {y.mean():.4f} (95% interval {low:.4f} to {high:.4f}, "
            "Wilson's on the effective sample size)") in text
    assert text.count(f"{evil}") >= 3  # shown as text, in the summary and the tables
    for a, b in itertools.combinations(MODELS, 2):  # every pair has a row
        a, b = (evil if a == "knn" else a), (evil if b == "knn" else b)
        assert re.search(rf"{re.escape(a)}\s+{re.escape(b)}|{re.escape(b)}\s+{re.escape(a)}", text)
    # pass@5 of the forest (5 answers of 5: any of them right), its row of section 4's table
    assert f" 5 {np.mean(ev.samples.to_numpy().max(axis=1)):.4f} " in text
    assert set(files.html.parent.iterdir()) == {files.html, files.notebook}  # no temporary folder left


@pytest.mark.slow
def test_report_end_to_end_on_lm_eval_logs(pupils, tmp_path):
    from evallib.report._items_runner import run_items_report

    ev = pupils
    files = {m: write_lm_eval(tmp_path / f"{m}.jsonl", ev, ev.correct[m]) for m in MODELS}
    out = run_items_report(files, tmp_path / "lm.html", source_format="lm-eval", metric="acc", progress=False,
                           n_resamples=200, rng=0)
    text = _html_text(out.html)
    lead = ev.correct.mean().idxmax()
    assert f"{lead} has the highest mean score, {ev.correct[lead].mean():.4f}" in text
    assert "No cluster column was given, so the items are taken as independent" in text
    assert "Read lm-evaluation-harness samples: the metric 'acc' with the filter 'none'" in text


# ------------------------------------------------------------------ issue 33: say only what the data show
def _parts(data, **kw):
    parts = dict(overview=summarise_items(data), means=model_means(data), pairs=pairwise_items(data),
                 samples=sample_analysis(data), board=leaderboard(data, n_resamples=1000, rng=0))
    return parts, items_summary_text(data, **parts, **kw)


def test_not_separated_is_never_tied_and_the_open_difference_is_the_joint_interval(pupils, clustered):
    """The summary gives the largest difference each way that the joint (Bonferroni) CR2 interval leaves open."""
    ev = pupils
    parts, text = _parts(clustered)
    lowered = text.lower().replace("not separated is not tied", "")
    assert "tied" not in lowered and "equal" not in lowered
    tie = parts["board"].tie
    assert len(tie.members) > 1
    classes = ev.pupils["class"].to_numpy()
    m = len(MODELS) * (len(MODELS) - 1) // 2
    for other in tie.members[1:]:
        d = ev.correct[tie.leader].to_numpy(float) - ev.correct[other].to_numpy(float)
        V, df = cr2_reference(d, classes)
        half = stats.t.isf(0.05 / m / 2, df) * math.sqrt(V)
        assert f"{d.mean() + half:.4f} ({other})" in text      # the leader ahead by up to
        assert f"{max(half - d.mean(), 0):.4f} ({other})" in text  # and behind by up to
    assert "Not separated is not tied" in text
    assert "the data do not establish their order at alpha = 0.05." in text and "do not rank them" not in text
    assert "Each pair's verdict follows its own paired standard error" in text
    # against a margin: a difference of 0.05 is ruled out either way only where the interval says so
    _, with_margin = _parts(clustered, min_difference=0.05)
    _, tight = _parts(clustered, min_difference=0.001)
    assert "rule out a difference that large either way for" in with_margin
    assert "no interval rules out a difference that large" in tight


def test_design_effect_quoted_is_the_one_the_interval_uses(pupils, clustered):
    ev = pupils
    parts, text = _parts(clustered)
    means = parts["means"]
    leader = parts["board"].tie.leader
    y = ev.correct[leader].to_numpy(float)
    V, _ = cr2_reference(y, ev.pupils["class"].to_numpy())
    n_eff = min(y.mean() * (1 - y.mean()) / V, y.size)  # Korn & Graubard, capped at the number of scores
    assert means.loc[leader, "effective_n"] == pytest.approx(n_eff)
    assert means.loc[leader, "interval_design_effect"] == pytest.approx(y.size / n_eff)
    assert f"a design effect of {y.size / n_eff:.2f}" in text
    ratio = means.loc[leader, "design_effect"]
    assert f"variance ratio {ratio:.2f}" in text and f"design effect {ratio:.2f}" not in text.replace(
        f"design effect of {y.size / n_eff:.2f}", "")


def test_p_best_carries_its_monte_carlo_error_and_the_bootstrap_is_named(clustered):
    from evallib.report._items_sections import format_ranks

    parts, text = _parts(clustered)
    ranks = parts["board"].ranks
    p = float(ranks["p_best"].iloc[0])
    top = ranks.iloc[0]
    interval = (f"{int(top['rank_low'])}" if top["rank_low"] == top["rank_high"]
                else f"{int(top['rank_low'])} to {int(top['rank_high'])}")
    # the share is named a share of resamples, with its MC SE, next to the leader's rank interval
    assert (f"{top['model']}'s 95% rank interval (bootstrap percentile) is {interval} of {len(ranks)}, and the share "
            "of bootstrap resamples in which it ranks first (a share of resamples, not a probability that it is best; "
            "a first place shared by j models whose means coincide counts 1/j to each) is "
            f"{p:.3f}, MC SE {math.sqrt(p * (1 - p) / 1000):.3f}") in text
    assert "P(best)" not in text
    assert "Poisson weights" in text and "with replacement" not in text
    table = format_ranks(parts["board"])
    column = "Monte Carlo SE of the share (1,000 resamples)"
    assert "P(best)" not in table.columns and "ranked first (share of resamples)" in table.columns
    se = [math.sqrt(q * (1 - q) / 1000) for q in ranks["p_best"]]
    assert list(table[column]) == [(f"no binomial SE (0 of 1,000); share below {3 / 1000:.4f} by the rule of three "
                                    "(95%)" if q == 0 else
                                    f"{s:.3f}" if s >= 0.0005 else f"{s:.1g}") for q, s in zip(ranks["p_best"], se)]


def test_rivals_for_first_place_compare_unrounded_shares(clustered):
    """A rival at 0.046 is not "0.05 or more" (rounding to a whole percent made it read so); a rival at 0.095
    prints as 0.095, as section 5's table prints it, with its Monte Carlo SE sqrt(p (1 - p) / B) written out here."""
    from evallib.report._items_sections import Leaderboard

    parts, _ = _parts(clustered)
    ranks = parts["board"].ranks.copy()
    b = int(ranks.attrs["n_resamples"])
    ranks["p_best"] = [0.849, 0.095, 0.046, 0.010]
    ranks["p_best_se"] = np.sqrt(ranks["p_best"] * (1 - ranks["p_best"]) / b)   # credits of 0 and 1 only
    parts["board"] = Leaderboard(tie=parts["board"].tie, ranks=ranks)
    text = items_summary_text(clustered, **parts)
    (bullet,) = [t for t in text.split("\n") if "bootstrap resamples" in t]
    second, third = ranks["model"].iloc[1], ranks["model"].iloc[2]
    assert (f"in a share of at least 0.05 of them: {second} (0.095, MC SE {math.sqrt(0.095 * 0.905 / b):.3f}) "
            "(section 5)") in bullet
    assert third not in bullet and "10%" not in bullet and "9.5%" not in bullet
    ranks["p_best"] = [0.95, 0.046, 0.004, 0.0]
    ranks["p_best_se"] = np.sqrt(ranks["p_best"] * (1 - ranks["p_best"]) / b)   # credits of 0 and 1 only
    parts["board"] = Leaderboard(tie=parts["board"].tie, ranks=ranks)
    (bullet,) = [t for t in items_summary_text(clustered, **parts).split("\n") if "bootstrap resamples" in t]
    assert "no other model ranks first in a share of 0.05 of them or more" in bullet and second not in bullet


def test_small_p_best_counts_never_print_as_exact():
    """Issue 33: a P(best) of 1 in 2,000 replicates is not 0.001 with a Monte Carlo SE of 0.000.
    Shares below 0.001 print as their count (1 of 2,000), SEs below 0.0005 as <0.001, and a share of 0 or 1 gets
    the rule of three's bound 3 / B (Hanley and Lippman-Hand 1983), written out here."""
    from evallib.report._items_sections import Leaderboard, format_ranks

    b = 2000
    ranks = pd.DataFrame({"model": ["a", "b", "c", "d"], "mean": [0.8, 0.7, 0.6, 0.5], "rank": [1.0, 2.0, 3.0, 4.0],
                          "rank_low": [1, 1, 3, 4], "rank_high": [2, 2, 3, 4],
                          "p_best": [1600 / b, 398 / b, 1 / b, 0.0]})
    ranks["p_best_se"] = np.sqrt(ranks["p_best"] * (1 - ranks["p_best"]) / b)   # credits of 0 and 1 only
    ranks.attrs["n_resamples"] = b
    table = format_ranks(Leaderboard(tie=None, ranks=ranks))
    column = f"Monte Carlo SE of the share ({b:,} resamples)"
    share = "ranked first (share of resamples)"
    assert list(table[share]) == ["0.800", "0.199", "1 of 2,000", "0"]
    assert list(table[column])[:2] == [f"{math.sqrt(q * (1 - q) / b):.3f}" for q in (0.8, 0.199)]
    assert table[column].iloc[2] == "0.0005" and math.sqrt(1 / b * (1 - 1 / b) / b) < 0.0005
    assert table[column].iloc[3] == f"no binomial SE (0 of 2,000); share below {3 / b:.4f} by the rule of three (95%)" == (
        "no binomial SE (0 of 2,000); share below 0.0015 by the rule of three (95%)")
    assert not any(v in {"0.000", "1.000"} for v in [*table[share], *table[column]])
    ranks["p_best"] = [1.0, 0.0, 0.0, 0.0]
    ranks["p_best_se"] = 0.0
    table = format_ranks(Leaderboard(tie=None, ranks=ranks))
    assert table[share].iloc[0] == "1" and table[column].iloc[0] == (
        "no binomial SE (2,000 of 2,000); share above 0.9985 by the rule of three (95%)")


def test_figures_show_paired_differences_and_warn_about_overlap(clustered):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evallib.report._items_sections import OVERLAP_WARNING, plot_item_means, plot_item_pairs

    means, pairs = model_means(clustered), pairwise_items(clustered)
    ax = plot_item_means(means)
    assert OVERLAP_WARNING in ax.get_title() and "not a test" in OVERLAP_WARNING
    ax = plot_item_pairs(pairs)
    segments = ax.collections[0].get_segments()
    assert [(s[0][0], s[1][0]) for s in segments] == [pytest.approx((lo, hi)) for lo, hi in zip(pairs["low"], pairs["high"])]
    # a pair whose own intervals overlap still differs when its paired interval leaves out 0
    differ = pairs[pairs["reject"]]
    assert len(differ)
    r = differ.iloc[0]
    assert means.loc[r["a"], "low"] < means.loc[r["b"], "high"] and r["low"] > 0
    plt.close("all")


def test_two_intervals_for_pass_at_1_are_explained(pupils):
    from evallib.report._items_sections import interval_conventions_note

    data = load_item_scores(long_samples(pupils), item_column="pupil", model_column="model", score_column="score",
                            sample_column="run", cluster_column="school")
    means, samples = model_means(data), sample_analysis(data)
    note = interval_conventions_note(means, samples)
    leader = means.index[0]
    row = samples.passk[(samples.passk["model"] == leader) & (samples.passk["k"] == 1)].iloc[0]
    assert row["pass_at_k"] == pytest.approx(means.loc[leader, "mean"])
    assert f"{row['low']:.4f} to {row['high']:.4f}" in note
    assert f"{means.loc[leader, 'low']:.4f} to {means.loc[leader, 'high']:.4f}" in note
    assert "Wilson" in note and "t interval" in note


def test_report_template_says_what_the_code_does():
    nb = json.loads((ROOT / "notebooks" / "report_items.ipynb").read_text(encoding="utf-8"))
    markdown = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "with replacement, jointly" not in markdown and "Poisson bootstrap" in markdown
    assert "Overlap of two such intervals is not a test" in markdown
    assert "(ICC)" not in markdown
    code = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "plot_item_pairs(pairs)" in code and "format_ranks(board)" in code
    # no "real difference" wording, no probability of being best, and the conventions' spellings
    headings = [line for c in nb["cells"] if c["cell_type"] == "markdown"
                for line in "".join(c["source"]).splitlines() if line.startswith("#")]
    assert not any("real" in h.lower() for h in headings), headings
    assert "## 3. Pairwise: which differences are shown at level α?" in headings
    assert "P(best)" not in markdown and "likely" not in markdown and "cannot be separated" not in markdown
    assert "paired t test" not in markdown and "could this file detect" not in markdown
    assert "print(tie_group_text(board.tie))" in code and ".describe()" not in code


def test_readme_describes_the_shipped_example_truly(pupils):
    """The manual (the site's per-item report page): the example is notebook 08's evaluation, but its
    forest is the 5-refit average (issue 33)."""
    readme = (ROOT / "docs" / "report" / "items.md").read_text(encoding="utf-8")
    first_fit = pupils.correct["forest"].mean()
    average = pupils.samples.to_numpy().mean()
    assert f"mean of the five refits, {average:.4f}" in readme and f"first fit, {first_fit:.4f}" in readme
    assert f"behind knn ({pupils.correct['knn'].mean():.4f})" in readme
    assert average < pupils.correct["knn"].mean() < first_fit  # hence the two leaderboards differ


def test_a_between_item_share_below_zero_is_said_in_words():
    """Issue 33: a model whose items differ less than its answers' noise: the between-item share's estimate
    falls below 0 and is read as 0, and section 4's table and the summary say so with the estimate
    (statsmodels' one-way ANOVA: (MSB - MSW) / (MSB + (K - 1) MSW))."""
    import statsmodels.api as sm
    import statsmodels.formula.api as smf

    from evallib.report._items_sections import format_components

    rng = np.random.default_rng(4)
    n, k = 80, 4
    flat = (rng.random((n, k)) < 0.7).astype(int)                      # every item the same chance
    varied = (rng.random((n, k)) < rng.beta(2, 3, n)[:, None]).astype(int)
    rows = [{"item": f"q{i}", "model": m, "sample": s + 1, "score": int(y[i, s])}
            for m, y in (("flat", flat), ("varied", varied)) for i in range(n) for s in range(k)]
    data = load_item_scores(pd.DataFrame(rows), item_column="item")
    frame = pd.DataFrame({"y": flat.ravel(), "item": np.repeat(np.arange(n), k)})
    table = sm.stats.anova_lm(smf.ols("y ~ C(item)", data=frame).fit())
    msb, msw = table.loc["C(item)", "mean_sq"], table.loc["Residual", "mean_sq"]
    share = (msb - msw) / (msb + (k - 1) * msw)
    assert share < 0                                                    # the seed gives an estimate below 0
    parts, text = _parts(data)
    assert parts["board"].tie.leader == "flat"
    shown = format_components(parts["samples"])
    assert shown.loc["flat", "between-item share of an answer's variance"] == f"0 (estimated {share:.3f}, below 0)"
    assert "estimated" not in shown.loc["varied", "between-item share of an answer's variance"]
    assert "no more alike" not in text    # a share estimated below 0 is no evidence that the items do not differ
    assert (f"The leader's answers to one item are not shown to be more alike than its answers to different items: the "
            f"between-item share of one answer's variance was estimated at {share:.3f}, below zero, so it is read "
            "as 0") in text
    assert "0% between items" not in text and "too low if the items do differ" in text


def test_repeated_answers_get_a_bullet_when_the_leader_answered_once(pupils):
    """The shipped example's case: the leader (logistic) answered each pupil once, the forest five times;
    section 4 holds the forest's components, so the summary points to it with the forest's numbers
    (the balanced one-way ANOVA written out: within share MSW / ((MSB - MSW) / K + MSW))."""
    ev = pupils
    data = load_item_scores(long_samples(ev), item_column="pupil", model_column="model", score_column="score",
                            sample_column="run", cluster_column="school")
    _, text = _parts(data)
    y = ev.samples.to_numpy(float)
    n, k = y.shape
    msw = ((y - y.mean(axis=1, keepdims=True)) ** 2).sum() / (n * (k - 1))
    msb = k * ((y.mean(axis=1) - y.mean()) ** 2).sum() / (n - 1)
    within = msw / ((msb - msw) / k + msw)
    (bullet,) = [b for b in text.split("\n") if "vary:" in b]
    assert bullet.startswith("- The leader answered each item once; forest is the only model that answered items "
                             "more than once, and its answers")
    assert f"{within:.0%} of the variance of one answer lies within items" in bullet and "(section 4)" in bullet
    assert "With 5 answers per item, forest gets at least one right" in text


def test_every_template_parameter_is_read_by_papermill():
    """papermill skips a parameter line it cannot parse (a '=' in the comment did that to min_difference),
    and then warns 'Passed unknown parameter' on every run that sets it."""
    import nbformat
    from papermill.translators import PythonTranslator

    nb = nbformat.read(ROOT / "notebooks" / "report_items.ipynb", as_version=4)
    cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    assigned = [line.split("=")[0].strip() for line in cell.source.splitlines() if "=" in line.split("#")[0]]
    assert [p.name for p in PythonTranslator.inspect(cell)] == assigned and "min_difference" in assigned


def test_a_holm_verdict_whose_joint_interval_covers_0_is_marked(tmp_path):
    """Issue 33: the verdict follows Holm's step-down test, the interval is the simultaneous
    Bonferroni one (level alpha / m), so a pair can differ by the test while its interval
    covers 0. Constructed: two large differences and one whose raw paired t p-value lies
    between alpha / 3 and alpha; the references are scipy's paired t-test, statsmodels'
    Holm and the t quantile at alpha / (2 m)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from statsmodels.stats.multitest import multipletests

    from evallib.report._items_sections import pairs_interval_note, plot_item_pairs

    n = 200
    rng = np.random.default_rng(5)
    base = np.linspace(0.25, 0.55, n)
    e = rng.normal(size=n)
    e = 0.1 * (e - e.mean()) / e.std(ddof=1)
    shift = 2.185 * 0.1 / math.sqrt(n)               # t = 2.185 on 199 df: p about 0.03
    frame = pd.DataFrame({"item": range(n), "top": base + 0.3 + rng.uniform(0, 0.05, n), "middle": base + shift + e,
                          "bottom": base})
    assert frame[["top", "middle", "bottom"]].to_numpy().min() >= 0 and frame[["top", "middle", "bottom"]].to_numpy().max() <= 1
    data = load_item_scores(frame, item_column="item")
    pairs = pairwise_items(data, alpha=0.05, adjust="holm")
    raw = {(a, b): stats.ttest_rel(frame[a], frame[b]).pvalue for a, b in zip(pairs["a"], pairs["b"])}
    holm = dict(zip(raw, multipletests(list(raw.values()), alpha=0.05, method="holm")[0]))
    key = ("middle", "bottom")
    assert 0.05 / 3 < raw[key] < 0.05 and holm[key]
    d = frame["middle"] - frame["bottom"]
    half = stats.t.ppf(1 - 0.05 / 6, n - 1) * d.std(ddof=1) / math.sqrt(n)
    assert d.mean() - half < 0 < d.mean() + half          # the joint interval covers 0
    row = pairs[(pairs["a"] == "middle") & (pairs["b"] == "bottom")].iloc[0]
    assert row["reject"] and row["low"] == pytest.approx(d.mean() - half, rel=1e-9)
    verdicts = dict(zip(zip(pairs["a"], pairs["b"]), format_item_pairs(pairs)["verdict"]))
    assert verdicts[key] == "differ (interval covers 0)"
    assert all(v == "differ" for k, v in verdicts.items() if k != key)
    note = pairs_interval_note(pairs)
    assert note.startswith("Holm's test declares 1 pair different although its joint 98.33% interval still covers 0")
    assert f"middle - bottom = {d.mean():+.4f}" in note and "simultaneous Bonferroni" in note
    ax = plot_item_pairs(pairs)
    dashed = [dashes is not None for _, dashes in ax.collections[0].get_linestyles()]   # solid: no dash pattern
    assert dashed == [k == key for k in zip(pairs["a"], pairs["b"])]
    assert "disagree" in ax.get_title()
    plt.close("all")
    board = leaderboard(data, n_resamples=200, rng=0)
    text = items_summary_text(data, overview=summarise_items(data), means=model_means(data), pairs=pairs,
                              samples=sample_analysis(data), board=board)
    assert note.removesuffix(".") in text
    # Bonferroni's verdict is the interval's: no disagreement, no note
    bonferroni = pairwise_items(data, alpha=0.05, adjust="bonferroni")
    assert pairs_interval_note(bonferroni) is None
    assert "covers 0" not in " ".join(format_item_pairs(bonferroni)["verdict"])


def test_pass_at_k_lists_every_k_up_to_ten_answers_and_powers_of_two_above():
    from evallib.report._items_sections import _ks

    assert _ks(1) == (1,) and _ks(3) == (1, 2, 3) and _ks(10) == tuple(range(1, 11))
    assert _ks(12) == (1, 2, 4, 8, 12) and _ks(16) == (1, 2, 4, 8, 16)


def test_one_pair_is_neither_adjusted_nor_joint():
    """Two models: one pair, so Holm adjusts nothing and its interval is not a joint one; the words say so."""
    rng = np.random.default_rng(2)
    n = 200
    p = rng.beta(3, 2, n)
    frame = pd.DataFrame({"item": [f"q{i}" for i in range(n)], "A": (rng.random(n) < p).astype(int),
                          "B": (rng.random(n) < p - 0.01).astype(int)})
    data = load_item_scores(frame, item_column="item")
    parts = dict(overview=summarise_items(data), means=model_means(data), pairs=pairwise_items(data),
                 samples=sample_analysis(data), board=leaderboard(data, n_resamples=200, rng=0))
    text = items_summary_text(data, **parts)
    from evallib.report._items_sections import tie_group_text

    words = text + tie_group_text(parts["board"].tie) + " ".join(format_item_pairs(parts["pairs"]).columns)
    assert "over all 1 pair" not in words and "joint" not in words
    assert "one pair, so no adjustment for multiplicity" in text
    assert "adjustment for 1 comparison" not in text       # the pairs bullet says the same as the group's
    shown = bool(parts["pairs"]["reject"].iloc[0])
    assert ("- With one pair, so no adjustment for multiplicity, "
            + ("the one pairwise difference is significant" if shown else "the one pair is not shown to differ")) in text
    if "Not separated is not tied" in text:                 # one interval, so the verb is singular
        assert "the paired differences' 95% interval still allows the leader" in text
    assert "Each pair's verdict" not in text   # one pair: nothing to compare the verdicts with


def test_the_summary_gives_the_highest_pass_at_k_with_its_interval_as_a_ranking_of_estimates():
    """A leads on the mean (each item always right or always wrong); B, right half the time at random,
    has the higher pass@3. The bullet names B's pass@3 as a point-estimate ranking, with its t interval
    over items: 1 - (1 - p)^3 is the item's any-right share with all 3 answers, and scipy's t quantile."""
    rng = np.random.default_rng(5)
    n = 150
    a = np.repeat((rng.random(n) < 0.7)[:, None], 3, axis=1).astype(int)
    b = (rng.random((n, 3)) < 0.5).astype(int)
    rows = [(f"q{i}", m, j, int(s[i, j])) for m, s in (("A", a), ("B", b)) for i in range(n) for j in range(3)]
    frame = pd.DataFrame(rows, columns=["item", "model", "run", "score"])
    data = load_item_scores(frame, item_column="item", sample_column="run")
    parts = dict(overview=summarise_items(data), means=model_means(data), pairs=pairwise_items(data),
                 samples=sample_analysis(data), board=leaderboard(data, n_resamples=200, rng=0))
    text = items_summary_text(data, **parts)
    assert a.mean() > b.mean()
    y = b.max(axis=1).astype(float)           # pass@3 of 3 answers: any right
    half = stats.t.isf(0.025, n - 1) * y.std(ddof=1) / math.sqrt(n)
    assert (f"the highest pass@3 by point estimate is B's, {y.mean():.1%} (95% t interval over items "
            f"{y.mean() - half:.1%} to {min(1.0, y.mean() + half):.1%}; a ranking of estimates, not a test)") in text


def test_one_share_prints_one_way_in_the_summary_and_the_table():
    """Issue rep-items8 #4: 751 of 2,000 printed 0.376 in section 5's table and 37.5% in the summary (two
    formats, rounded two ways). Both now print 0.376 (751 / 2000 = 0.3755, which rounds half up to 0.376
    in decimal, and to 0.376 in its binary float), with the MC SE sqrt(p (1 - p) / B) = 0.01083 as 0.011."""
    from evallib.report._items_sections import Leaderboard, _share_text, format_ranks

    b = 2000
    ranks = pd.DataFrame({"model": ["a", "b"], "mean": [0.7, 0.69], "rank": [1.0, 2.0], "rank_low": [1, 1],
                          "rank_high": [2, 2], "p_best": [1249 / b, 751 / b]})
    ranks["p_best_se"] = np.sqrt(ranks["p_best"] * (1 - ranks["p_best"]) / b)   # credits of 0 and 1 only
    ranks.attrs["n_resamples"] = b
    table = format_ranks(Leaderboard(tie=None, ranks=ranks))
    assert table["ranked first (share of resamples)"].iloc[1] == "0.376"
    assert _share_text(751 / b, math.sqrt(751 / b * (1 - 751 / b) / b), b) == "0.376, MC SE 0.011"
    assert _share_text(0.0, 0.0, b) == ("0 (none of the 2,000; by the rule of three, the share over unlimited resamples "
                                   "is below 0.0015 at 95% confidence)")


def test_the_repeated_answers_bullet_has_its_verb(pupils):
    """Issue rep-items8 #4: "and no number of answers below ..." lacked its verb. The SEs by hand: the
    written-out CR2 variance V of the forest's pupil means, less the ANOVA's within-pupil noise msw / (K n)."""
    ev = pupils
    frame = long_samples(ev)
    data = load_item_scores(frame, item_column="pupil", sample_column="run", cluster_column="school")
    _, text = _parts(data)
    forest = frame[frame["model"] == "forest"]
    groups = [g.to_numpy(float) for _, g in forest.groupby("pupil")["score"]]
    n, k = len(groups), groups[0].size
    msw = sum(np.sum((g - g.mean()) ** 2) for g in groups) / (n * (k - 1))
    means = forest.groupby("pupil")["score"].mean()
    V, _ = cr2_reference(means.to_numpy(), ev.pupils.loc[means.index, "class"].to_numpy())
    noise = msw / k / n
    assert (f"twice the answers per item would take the standard error of its mean from {math.sqrt(V):.4f} to "
            f"{math.sqrt(V - noise / 2):.4f}, and no number of answers would take it below "
            f"{math.sqrt(V - noise):.4f} (only more items do that)") in text


def test_planned_and_observed_degrees_of_freedom_are_told_apart(pupils):
    """Issue rep-items8 #4: section 6's planned df (n / m* - 1, m* = sum m^2 / sum m rounded) and section 3's
    observed CR2 Bell–McCaffrey df (written out with matrices) both appear; the sentence says which is which."""
    from evallib.report._items_sections import item_planning

    ev = pupils
    data = load_item_scores(wide_correct(ev), item_column="pupil", cluster_column="school")
    plan = item_planning(data)
    classes = ev.pupils["class"].to_numpy()
    sizes = pd.Series(classes).value_counts().to_numpy()
    m = round(float((sizes ** 2).sum() / sizes.sum()))
    text = " ".join(plan.sentences())
    checked = 0
    for _, row in plan.table.iterrows():
        d = ev.correct[row["a"]].to_numpy(float) - ev.correct[row["b"]].to_numpy(float)
        _, df = cr2_reference(d, classes)
        planned = len(d) / m - 1
        assert row["df"] == pytest.approx(planned) and row["observed_df"] == pytest.approx(df, rel=1e-6)
        if f"{df:.2f}" != f"{planned:.2f}":
            checked += 1
            # the planned design's J - 1 (J = n / m*, not a count) and section 3's df from the G observed clusters,
            # a count printed whole
            j = len(d) / m
            assert (f"{planned:.2f} degrees of freedom, the planned design's J − 1 for J = {len(d):,} items / {m} per "
                    f"cluster (the size-weighted mean cluster size) = "
                    + (f"{j:.0f} clusters" if j.is_integer() else
                       f"{j:.2f} clusters, a planning quantity rather than a count of clusters")
                    + f"; a different number from section 3's {df:.1f} Bell–McCaffrey degrees of freedom, which its "
                    f"CR2 test of this pair takes from the file's {sizes.size} observed clusters)") in text
    assert checked


@pytest.mark.parametrize("clustered_file", [False, True])
def test_a_two_model_file_speaks_of_one_pair_in_the_singular(clustered_file):
    """Issue rep-items11 #3: with two models there is one pair, one test and one interval; the summary, the
    leaderboard sentence, section 3's agreement line and the plan said "the pairs", "each pair", "paired t-tests",
    "no interval rules out ... any of them", "the other models". Read against a list of the plurals by hand."""
    from evallib.report._items_sections import item_planning, pairs_interval_note, tie_group_text

    rng = np.random.default_rng(7)
    n = 240
    cluster = np.repeat(np.arange(12), n // 12)
    p = np.clip(0.6 + rng.normal(0, 0.15, 12)[cluster], 0.05, 0.95)
    a = (rng.random(n) < p).astype(int)
    b = np.where(rng.random(n) < 0.85, a, (rng.random(n) < p).astype(int))
    frame = pd.DataFrame({"item": np.arange(n), "A": a, "B": b})
    if clustered_file:
        frame["cluster"] = cluster
    data = load_item_scores(frame, item_column="item", cluster_column="cluster" if clustered_file else None)
    parts, text = _parts(data, min_difference=0.5, planning=item_planning(data, min_difference=0.5))
    pairs = parts["pairs"]
    assert len(pairs) == 1 and not bool(pairs["reject"].iloc[0])
    sentences = [text, tie_group_text(parts["board"].tie), pairs_interval_note(pairs, agree=True),
                 *item_planning(data, min_difference=0.5).sentences()]
    joined = " ".join(sentences)
    for wrong in ("the pairs", "each pair", "every pair", "these comparisons", "paired t-tests", "paired tests",
                  "paired CR2 t-tests", "any of them", "the intervals rule", "the other models", "no interval rules"):
        assert wrong not in joined, wrong
    assert pairs_interval_note(pairs, agree=True) == "For the one pair the test's verdict and its interval agree."
    assert "a paired test, one pair, so no adjustment for multiplicity" in text
    assert "Planning: on the items the pair shares" in text
    # 0.5 is far outside the interval: the one interval rules it out for the one model
    assert "the interval rules out a difference that large either way for " in text
    assert ("a paired CR2 t-test, cluster-robust" if clustered_file else "(a paired t-test; section 3)") in text
