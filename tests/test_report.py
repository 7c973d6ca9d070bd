"""Tests of evallib.report, the CLI and notebooks/report.ipynb.

References: scikit-learn's confusion matrix and measures, scipy's Mann–Whitney U (for the
AUC) and Wilson interval (``binomtest(...).proportion_ci``), statsmodels' McNemar test,
brute-force counting of discordant pairs, and a fresh regeneration of the shipped example
from the case study. End-to-end runs go through the command line (``python -m evallib
report``) and look for independently recomputed headline numbers in the HTML.
"""

from __future__ import annotations

import itertools

import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from _nbtools import run_papermill
from _references import bonett_price as _bonett_price, mid_p as _mid_p
from conftest import run_cli, write_csv
from scipy import stats
from sklearn.metrics import (
    balanced_accuracy_score,
    confusion_matrix,
    f1_score,
    precision_score,
    recall_score,
)

from evallib import report as rp
from evallib.onetestset._nullbest import auc_normal_critical, best_over_thresholds
from evallib.report import (
    EXAMPLE_PATH,
    ReportInputError,
    Skipped,
    classifier_measures,
    format_measures,
    format_pairwise,
    load_predictions,
    make_example_predictions,
    pairwise_comparison,
    summarise_data,
    summary_text,
    top_two_bootstrap,
)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "report.ipynb"


# ------------------------------------------------------------------ generated inputs
def labels_only_frame(seed: int = 1, n: int = 120) -> pd.DataFrame:
    """0/1 labels, three classifiers with predicted labels only, no folds."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    frame = pd.DataFrame({"label": y})
    for name, noise in (("forest", 0.12), ("logreg", 0.2), ("stump", 0.35)):
        frame[f"pred_{name}"] = np.where(rng.random(n) < noise, 1 - y, y)
    return frame


def scores_folds_frame(seed: int = 2, n: int = 200) -> pd.DataFrame:
    """Text labels, four classifiers (one with scores only), five folds."""
    rng = np.random.default_rng(seed)
    spam = rng.random(n) < 0.3
    frame = pd.DataFrame({"label": np.where(spam, "spam", "ham"),
                          "fold": np.tile(np.arange(1, 6), n // 5)})
    for name, shift in (("svm", 2.0), ("bayes", 1.2), ("knn", 0.6)):
        score = rng.normal(size=n) + shift * spam
        frame[f"score_{name}"] = np.round(score, 4)
        frame[f"pred_{name}"] = np.where(score > shift / 2, "spam", "ham")
    frame["score_ranker"] = np.round(rng.normal(size=n) + 1.5 * spam, 4)
    return frame


# ------------------------------------------------------------------------ loading
def test_load_example_defaults():
    data = load_predictions(EXAMPLE_PATH, pos_label="ER-")
    raw = pd.read_csv(EXAMPLE_PATH)
    assert data.positive == "ER-" and data.negative == "ER+"
    assert data.read_note == ""  # plain UTF-8 CSV with commas
    assert data.n == len(raw) == 47
    assert data.n_pos == int((raw["label"] == "ER-").sum())
    assert data.classifiers == ("dlda30", "dlda10", "dlda30_swapped", "coin", "prior")
    assert set(data.scores) == {"dlda30", "dlda10", "dlda30_swapped"}
    assert data.folds is None
    np.testing.assert_array_equal(data.labels["coin"], raw["pred_coin"].to_numpy() == "ER-")


@pytest.mark.parametrize(
    "labels, positive, expected",
    [([0, 1, 1, 1], None, "1"), ([True, False, False], None, "True"),
     (["b", "a", "a"], "b", "b"), (["x", "y", "x", "y"], "x", "x"),
     ([0, 1, 1], "0", "0"), ([0, 1, 1], 0.0, "0"), ([0.0, 1.0, 1.0], "1", "1")],
)
def test_positive_label_rules(labels, positive, expected):
    labels = labels + labels[::-1]  # at least two cases of each class
    frame = pd.DataFrame({"label": labels, "pred_a": labels, "pred_b": np.roll(labels, 1)})
    data = load_predictions(frame, pos_label=positive)
    assert data.positive == expected
    keys = [rp._inputs._key(v) for v in labels]
    np.testing.assert_array_equal(data.y, np.array(keys) == expected)


def test_score_only_classifier_and_folds():
    frame = scores_folds_frame()
    data = load_predictions(frame, pos_label="spam")
    assert data.classifiers == ("svm", "bayes", "knn", "ranker")
    assert "ranker" not in data.labels and "ranker" in data.scores
    assert sorted(set(data.folds)) == ["1", "2", "3", "4", "5"]


# Every malformed input of the issue, plus a few more; (file content, extra CLI args, message).
BAD_INPUTS = {
    "missing file": (None, [], "does not exist"),
    "binary file": (b"\x89PNG\r\n\x1a\n\x00\xff\xfe\xfa\x00\x01", [], "could not be read as a table"),
    "ragged csv": ("label,pred_a,pred_b\n0,1,0\n1,0,1,1,0\n", [], "could not be read as a table"),
    "empty file": ("", [], "is empty"),
    "no label column": ("y,pred_a,pred_b\n0,1,0\n1,0,1\n", [], "label column 'label' is not in"),
    "positive absent": ("label,pred_a,pred_b\n0,1,0\n1,0,1\n", ["--pos-label", "7"],
                        "positive label '7' does not occur"),
    "nan prediction": ("label,pred_a,pred_b\n0,1,0\n1,,1\n", [], "'pred_a' has 1 missing value"),
    "text score": ("label,score_a,pred_b\n0,0.3,0\n1,high,1\n", [], "'score_a' is not numeric"),
    "one classifier": ("label,pred_a,score_a\n0,1,0.2\n1,0,0.4\n", [], "Only one classifier"),
    "no classifier": ("label,x\n0,1\n1,0\n", [], "No classifier columns"),
    "unknown label": ("label,pred_a,pred_b\n0,1,0\n1,5,1\n", [], "'pred_a' holds '5'"),
    "one class": ("label,pred_a,pred_b\n1,1,0\n1,0,1\n", [], "only the class '1'"),
}


def _bad_file(tmp_path: Path, content) -> Path:
    path = tmp_path / "bad.csv"
    if content is None:
        return tmp_path / "does_not_exist.csv"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_input_raises_one_sentence(tmp_path, case):
    content, args, fragment = BAD_INPUTS[case]
    kwargs = {"pos_label": args[1]} if args else {}
    with pytest.raises(ReportInputError) as info:
        load_predictions(_bad_file(tmp_path, content), **kwargs)
    message = str(info.value)
    assert fragment in message
    assert "\n" not in message and message.endswith(".")


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_cli_bad_input_exits_nonzero_and_writes_nothing(tmp_path, case, capsys):
    """In process (``main(argv)``); tests/test_cli_reports.py runs the real command once."""
    from evallib.__main__ import main

    content, args, fragment = BAD_INPUTS[case]
    out = tmp_path / "out" / "report.html"
    status = main(["report", str(_bad_file(tmp_path, content)), "-o", str(out), *args])
    stderr = capsys.readouterr().err
    assert status == 1
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("error: ") and fragment in last and last.endswith("No report was written.")
    assert "Traceback" not in stderr
    assert not out.exists() and not out.with_suffix(".ipynb").exists()


def test_more_bad_inputs():
    base = pd.DataFrame({"label": [0, 1, 0, 1], "pred_a": [0, 1, 1, 1], "score_b": [0.1, 0.9, 0.4, 0.2]})
    with pytest.raises(ReportInputError, match="infinite"):
        load_predictions(base.assign(score_b=[0.1, np.inf, 0.2, 0.3]))
    with pytest.raises(ReportInputError, match="holds booleans"):
        load_predictions(base.assign(score_b=[True, False, True, False]))
    with pytest.raises(ReportInputError, match="'score_b' has 1 missing"):
        load_predictions(base.assign(score_b=[0.1, None, 0.2, 0.3]))
    with pytest.raises(ReportInputError, match="names no classifier"):
        load_predictions(base.assign(pred_=[0, 1, 0, 1]))
    with pytest.raises(ReportInputError, match="single fold"):
        load_predictions(base.assign(fold=[1, 1, 1, 1]))
    with pytest.raises(ReportInputError, match="fold column 'fold' has 1 missing"):
        load_predictions(base.assign(fold=[1, 2, None, 1]))
    with pytest.raises(ReportInputError, match="'label' has 1 missing"):
        load_predictions(base.assign(label=[0, 1, None, 1]))
    with pytest.raises(ReportInputError, match="has no rows"):
        load_predictions(base.iloc[:0])
    with pytest.raises(TypeError, match="source must be"):
        load_predictions(42)


def test_custom_column_roles():
    frame = pd.DataFrame({"y": ["a", "b", "a", "b"], "p.one": ["a", "b", "b", "b"],
                          "s.one": [0.1, 0.9, 0.6, 0.8], "p.two": ["a", "a", "a", "b"],
                          "cv": [1, 2, 1, 2], "pred_ignored": ["a", "a", "a", "a"]})
    data = load_predictions(frame, label_column="y", fold_column="cv", pred_prefix="p.",
                            score_prefix="s.", pos_label="b")
    assert data.classifiers == ("one", "two") and set(data.scores) == {"one"}
    assert data.folds is not None and data.fold_column == "cv"
    with pytest.raises(ReportInputError, match="must not start with one another"):
        load_predictions(frame, label_column="y", pred_prefix="p", score_prefix="p.")
    with pytest.raises(ReportInputError, match="fold column must be given"):
        load_predictions(frame, label_column="y", fold_column="")


def test_cli_usage_errors_exit_2(tmp_path, capsys, monkeypatch):
    """argparse's usage errors, in process: SystemExit(2), a usage line, no traceback."""
    from evallib.__main__ import main

    monkeypatch.chdir(tmp_path)
    for args in (["--alpha", "1.5"], ["--adjust", "sidak"], ["--classifiers-tried", "0"],
                 ["--seed", "-1"]):
        with pytest.raises(SystemExit) as info:
            main(["report", str(EXAMPLE_PATH), *args])
        stderr = capsys.readouterr().err
        assert info.value.code == 2 and "Traceback" not in stderr and "usage:" in stderr
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------------- section 1
def test_summary_counts_and_warnings():
    data = load_predictions(labels_only_frame(n=60))
    s = summarise_data(data)
    assert (s.n, s.n_pos, s.n_neg) == (60, int(data.y.sum()), 60 - int(data.y.sum()))
    assert any("small test set" in w for w in s.warnings)
    assert s.n_folds == 0 and list(s.classifiers.index) == ["forest", "logreg", "stump"]
    skew = pd.DataFrame({"label": [1] * 5 + [0] * 195, "pred_a": [0] * 200, "pred_b": [1] * 200})
    w = summarise_data(load_predictions(skew)).warnings
    assert any("heavy class skew" in x for x in w) and any("only 5 cases" in x for x in w)
    assert not any("small test set" in x for x in w)
    balanced = load_predictions(labels_only_frame(n=400))
    assert summarise_data(balanced).warnings == ()
    assert "warnings: none" in summarise_data(balanced).text()


# ----------------------------------------------------------------------- section 2
def test_measures_against_sklearn_and_scipy():
    frame = scores_folds_frame()
    data = load_predictions(frame, pos_label="spam")
    table = classifier_measures(data, alpha=0.1)
    y = frame["label"].to_numpy()
    for name in ("svm", "bayes", "knn"):
        pred = frame[f"pred_{name}"].to_numpy()
        tn, fp, fn, tp = confusion_matrix(y, pred, labels=["ham", "spam"]).ravel()
        row = table.loc[name]
        assert (row.TP, row.FN, row.FP, row.TN) == (tp, fn, fp, tn)
        assert row.accuracy == pytest.approx(np.mean(y == pred))
        assert row.avg_recall == pytest.approx(balanced_accuracy_score(y, pred))
        assert row.precision == pytest.approx(precision_score(y, pred, pos_label="spam"))
        assert row.recall == pytest.approx(recall_score(y, pred, pos_label="spam"))
        assert row.F1 == pytest.approx(f1_score(y, pred, pos_label="spam"))
        ci = stats.binomtest(int(tp + tn), len(y)).proportion_ci(0.9, method="wilson")
        assert (row.acc_low, row.acc_high) == (pytest.approx(ci.low), pytest.approx(ci.high))
    for name in ("svm", "bayes", "knn", "ranker"):
        s = frame[f"score_{name}"].to_numpy()
        spam = y == "spam"
        u = stats.mannwhitneyu(s[spam], s[~spam]).statistic
        assert table.loc[name, "AUC"] == pytest.approx(u / (spam.sum() * (~spam).sum()))
    assert table.loc["ranker", ["TP", "accuracy", "F1"]].isna().all()
    text = format_measures(table)
    assert text.loc["ranker", "accuracy"] == "-" and "90% interval" in text.columns


def test_measures_degenerate_classifier():
    frame = pd.DataFrame({"label": [1, 0, 0, 1, 0], "pred_never": [0] * 5, "pred_ok": [1, 0, 0, 1, 0]})
    table = classifier_measures(load_predictions(frame))
    at = lambda col: table.at["never", col]
    assert np.isnan(at("precision")) and at("recall") == 0 and at("F1") == 0
    assert at("avg_recall") == pytest.approx(0.5) and np.isnan(at("AUC"))
    assert format_measures(table).loc["never", "precision"] == "-"


# ----------------------------------------------------------------------- section 3
def test_pairwise_against_brute_force_and_scipy():
    from statsmodels.stats.multitest import multipletests

    frame = labels_only_frame(n=150)
    data = load_predictions(frame)
    table = pairwise_comparison(data, alpha=0.05, adjust="holm")
    y = frame["label"].to_numpy()
    assert len(table) == 3
    assert list(table["estimate"]) == sorted(table["estimate"], reverse=True)
    assert table.attrs["method"] == "Bonett–Price"
    for row in table.itertuples():
        i, j = row.pair
        wi, wj = frame[f"pred_{i}"].to_numpy() != y, frame[f"pred_{j}"].to_numpy() != y
        b, c = int(np.sum(wi & ~wj)), int(np.sum(~wi & wj))
        assert (row.b, row.c) == (b, c)
        assert row.pvalue == pytest.approx(_mid_p(b, c))
        assert row.diff == pytest.approx(wi.mean() - wj.mean())
        assert (row.diff_low, row.diff_high) == pytest.approx(_bonett_price(b, c, 150, 0.05))
        assert (row.adj_low, row.adj_high) == pytest.approx(_bonett_price(b, c, 150, 0.05 / 3))  # joint
        assert row.better == (i if wi.sum() < wj.sum() else j)
    np.testing.assert_allclose(table["pvalue_adj"], multipletests(table["pvalue"], method="holm")[1])
    assert list(table["reject"]) == list(table["pvalue_adj"] <= 0.05)
    qh = pairwise_comparison(data, interval="qh")
    from evallib.onetestset._paired_intervals import qh_interval

    for row in qh.itertuples():
        ref = qh_interval(row.b, row.c, 150, alpha=0.05, signed=True)
        assert (row.diff_low, row.diff_high) == pytest.approx((ref.low, ref.high))
    text = format_pairwise(table)
    assert list(text.index) == [f"{i} vs {j}" for i, j in table["pair"]]


def test_pairwise_skipped_without_two_label_classifiers():
    frame = scores_folds_frame()[["label", "pred_svm", "score_ranker"]]
    result = pairwise_comparison(load_predictions(frame, pos_label="spam"))
    assert isinstance(result, Skipped) and "only 1 classifier" in str(result)


# ----------------------------------------------------------------------- section 4
def test_best_over_thresholds_against_roc_curve():
    from sklearn.metrics import roc_curve

    rng = np.random.default_rng(4)
    for trial in range(20):
        n = int(rng.integers(5, 80))
        y = rng.random(n) < rng.uniform(0.1, 0.9)
        if y.all() or not y.any():
            continue
        score = np.round(rng.normal(size=n) + y, int(rng.integers(0, 3)))  # some ties
        fpr, tpr, _ = roc_curve(y, score, drop_intermediate=False)
        P, N = y.sum(), (~y).sum()
        tp, fp = tpr * P, fpr * N  # roc_curve starts at (0, 0): nothing called positive
        acc, f1 = best_over_thresholds(y, score)
        assert acc == pytest.approx(np.max((tp + N - fp) / n))
        assert f1 == pytest.approx(np.max(2 * tp / (P + tp + fp)))


def test_chance_check_auc_pvalue_is_mann_whitney_for_one_classifier():
    """With C = 1 the AUC p-value is the exact one-sided Mann–Whitney p-value (scipy)."""
    frame = scores_folds_frame(n=60)[["label", "score_svm", "score_knn"]]
    frame["score_svm"] = frame["score_svm"].rank(method="first")  # no ties: the exact law applies
    data = load_predictions(frame, pos_label="spam")
    res = rp.chance_check(data, classifier_measures(data), classifiers_tried=2)
    row = res.table.loc["AUC"]
    spam = data.y
    s = frame[f"score_{row.winner}"].to_numpy()
    g = stats.mannwhitneyu(s[spam], s[~spam], alternative="greater", method="exact").pvalue
    assert row.pvalue == pytest.approx(1 - (1 - g) ** 2, rel=1e-6)
    assert row.beats_chance == (row.value > row.critical)


def test_chance_check_best_accuracy_by_monte_carlo():
    """The best-accuracy p-value of the best of C = 3 random rankings, by simulation.

    60,000 sets of three random rankings of P = 6 positives and N = 9 negatives; the
    binomial standard error of the simulated p-value is below 0.002, the tolerance 0.01.
    """
    y = np.array([True] * 6 + [False] * 9)
    score = np.r_[np.linspace(5, 1, 6), np.linspace(4.5, 0, 9)]  # a good but imperfect ranking
    frame = pd.DataFrame({"label": y.astype(int), "score_a": score, "pred_b": y.astype(int),
                          "pred_c": 1 - y.astype(int)})
    data = load_predictions(frame)
    res = rp.chance_check(data, classifier_measures(data))
    row = res.table.loc["best accuracy"]
    assert res.C == 3
    rng = np.random.default_rng(8)
    perm = rng.permuted(np.tile(y, (3 * 60_000, 1)), axis=1)
    steps = np.where(perm, 1, -1).cumsum(axis=1)
    best = (9 + np.maximum(steps.max(axis=1), 0)) / 15
    best_of_3 = best.reshape(60_000, 3).max(axis=1)
    if row.winner == "a":
        assert row["from"] == "best threshold of its scores"
    assert row.pvalue == pytest.approx(np.mean(best_of_3 >= row.value - 1e-12), abs=0.01)
    # The critical value: the smallest attainable value with P(best of 3 <= m*) >= 0.95.
    assert np.mean(best_of_3 <= row.critical + 1e-12) >= 0.95 - 0.01


def test_chance_check_labels_only_and_bad_c():
    frame = labels_only_frame(n=100)
    data = load_predictions(frame)
    measures = classifier_measures(data)
    res = rp.chance_check(data, measures, classifiers_tried=50, alpha=0.01)
    assert "AUC" not in res.table.index and res.C == 50
    row = res.table.loc["best accuracy"]
    assert row["from"] == "its predicted labels"
    assert row.value == pytest.approx(measures["accuracy"].max())
    assert "C = 50" in res.formatted().columns[3]
    with pytest.raises(ReportInputError, match="at least the 3 classifiers"):
        rp.chance_check(data, measures, classifiers_tried=2)


def test_auc_normal_approximation_against_the_exact_law():
    """Beyond the exact law's size limit the AUC is judged by the normal law of U.

    At P = N = 1500 (inside the limit) the approximation agrees with the exact
    Mann–Whitney law: critical AUC to 1e-4, p-value to 2% relative.
    """
    from evallib.onetestset._nullbest import judge_winner

    for auc in (0.51, 0.52, 0.54):
        exact = judge_winner("auc", auc, 1500, 1500, C=5, alpha=0.05)
        crit, p = auc_normal_critical(auc, 1500, 1500, C=5, alpha=0.05)
        assert crit == pytest.approx(exact.critical_value, abs=1e-4)
        assert p == pytest.approx(exact.pvalue, rel=0.02)


def test_chance_check_on_a_large_test_set():
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(2100, int), np.zeros(2100, int)]
    frame = pd.DataFrame({"label": y, "score_a": rng.normal(size=4200) + 0.1 * y,
                          "score_b": rng.normal(size=4200)})
    data = load_predictions(frame)
    res = rp.chance_check(data, classifier_measures(data))
    assert res.table.loc["AUC", "law"] == "normal approximation"
    assert res.table.loc["best accuracy", "law"] == "exact, in log space"
    assert "best F1" not in res.table.index
    assert len(res.notes) == 1 and "4,410,000" in res.notes[0] and res.notes[0] in res.summary()


# ----------------------------------------------------------------------- section 6
def test_fold_analysis_against_scipy():
    frame = scores_folds_frame()
    data = load_predictions(frame, pos_label="spam")
    res = rp.fold_analysis(data, alpha=0.05)
    correct = pd.DataFrame({n: frame[f"pred_{n}"] == frame["label"] for n in ("svm", "bayes", "knn")})
    expected = correct.groupby(frame["fold"]).mean()
    np.testing.assert_allclose(res.per_fold.to_numpy(), expected.to_numpy())
    assert res.test_train_ratio == pytest.approx(40 / 160)
    means = expected.mean()
    best, second = means.sort_values(ascending=False).index[:2]
    assert (res.best, res.second) == (best, second)
    d = (expected[best] - expected[second]).to_numpy()
    se = np.sqrt((1 / 5 + 40 / 160) * d.var(ddof=1))
    t = d.mean() / se
    assert res.ttest.statistic == pytest.approx(t)
    assert res.ttest.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 4))
    assert res.interval[0] == pytest.approx(d.mean() - stats.t.ppf(0.975, 4) * se)
    fr = stats.friedmanchisquare(*[expected[c] for c in expected.columns])
    assert res.friedman.statistic == pytest.approx(fr.statistic)
    assert res.friedman.pvalue == pytest.approx(fr.pvalue)
    q = stats.studentized_range.ppf(0.95, 3, np.inf) / np.sqrt(2)
    assert res.cd.cd == pytest.approx(q * np.sqrt(3 * 4 / (6 * 5)))
    assert "corrected resampled t-test" in res.text() and "Friedman" in res.summary()
    # the summary is read on its own: Friedman's p over folds of one data set (which share
    # training cases) must not stand there as a test over independent data sets
    # over 5 folds the p read is the exact permutation law of each fold's ranks (ties kept),
    # enumerated here by brute force over the 3! orders of every fold
    ranks = expected.rank(axis=1, ascending=False).to_numpy()
    def stat(r):
        return float(np.sum((r.mean(axis=0) - 2.0) ** 2))
    observed = stat(ranks)
    perms = [list(itertools.permutations(row)) for row in ranks]
    hits = [stat(np.array(t)) >= observed - 1e-12 for t in itertools.product(*perms)]
    exact = float(np.mean(hits))
    assert f"Friedman's test over the folds gives p = {exact:#.2g} (its exact permutation law" in res.summary()
    assert "the folds share training cases" in res.summary()
    assert "not as a test over independent data sets" in res.summary()


def test_fold_analysis_skipped_without_folds():
    res = rp.fold_analysis(load_predictions(labels_only_frame()))
    assert isinstance(res, Skipped) and "no fold column" in str(res)


# ----------------------------------------------------------------------- section 5
def test_bootstrap_of_the_top_two_against_an_index_bootstrap():
    """Monte Carlo check: an independent resampling of cases gives the same interval.

    With 20,000 replicates each, the percentile bounds of two bootstraps agree to about
    0.01 (their Monte Carlo standard error is below 0.004 here); the tolerance is 0.02.
    """
    frame = labels_only_frame(seed=5, n=300)
    data = load_predictions(frame)
    measures = classifier_measures(data)
    res = top_two_bootstrap(data, measures, n_resamples=20_000, alpha=0.1, rng=3)
    y = frame["label"].to_numpy()
    f1 = {n: f1_score(y, frame[f"pred_{n}"]) for n in ("forest", "logreg", "stump")}
    ranked = sorted(f1, key=f1.get, reverse=True)
    assert (res.best, res.second) == tuple(ranked[:2])
    assert res.f1_best == pytest.approx(f1[ranked[0]]) and res.f1_second == pytest.approx(f1[ranked[1]])
    assert res.difference == pytest.approx(f1[ranked[0]] - f1[ranked[1]])
    rng = np.random.default_rng(99)
    a, b = frame[f"pred_{ranked[0]}"].to_numpy(), frame[f"pred_{ranked[1]}"].to_numpy()
    idx = rng.integers(0, len(y), size=(20_000, len(y)))
    yy, aa, bb = y[idx], a[idx], b[idx]

    def f1_rows(pred):
        tp = np.sum((pred == 1) & (yy == 1), axis=1)
        return 2 * tp / (np.sum(pred == 1, axis=1) + np.sum(yy == 1, axis=1))

    diff = f1_rows(aa) - f1_rows(bb)
    lo, hi = np.quantile(diff, [0.05, 0.95])
    assert res.low == pytest.approx(lo, abs=0.02) and res.high == pytest.approx(hi, abs=0.02)
    assert res.share_best_better == pytest.approx(np.mean(diff > 0), abs=0.02)
    again = top_two_bootstrap(data, measures, n_resamples=20_000, alpha=0.1, rng=3)
    assert (again.low, again.high) == (res.low, res.high)  # seeded
    method = "percentile bootstrap (over the test cases; Keller, Bengio & Wong 2005) interval"
    assert method in res.text() and method in res.summary() and res.summary().startswith("By F-measure")
    # the leaders of three, a pair picked by the data: the unadjusted interval describes, no verdict is drawn
    # (cold read B2); the verdict of an only pair is tested in test_report_rpb.py
    assert "the two differ at alpha" not in res.text() and "not shown to differ" not in res.text()
    assert "no verdict at alpha = 0.1 is drawn from it" in res.text() and "real" not in res.text()
    assert "a pair picked by the data, so optimistic" in res.text()
    assert "a pair picked by the data, so optimistic" in res.summary()


def test_bootstrap_skipped_with_one_label_classifier():
    frame = scores_folds_frame()[["label", "pred_svm", "score_ranker"]]
    data = load_predictions(frame, pos_label="spam")
    assert isinstance(top_two_bootstrap(data, classifier_measures(data)), Skipped)


# ----------------------------------------------------------------------- section 7
def test_summary_text_states_effects_then_p_values():
    frame = labels_only_frame(n=150)
    data = load_predictions(frame)
    measures = classifier_measures(data)
    pw = pairwise_comparison(data)
    text = summary_text(data, measures=measures, pairwise=pw)
    y = frame["label"].to_numpy()
    acc = {n: np.mean(frame[f"pred_{n}"].to_numpy() == y) for n in ("forest", "logreg", "stump")}
    best = max(acc, key=acc.get)
    assert f"**{best}** has the highest accuracy: {100 * acc[best]:.1f}%" in text
    err = {n: 1 - a for n, a in acc.items()}
    first, second = sorted(err, key=err.get)[:2]
    line = next(s for s in text.splitlines() if "fewest errors" in s)
    assert f"{first} makes {100 * (err[second] - err[first]):.1f} percentage points fewer errors" in line
    assert line.index("interval") < line.index("p = ")  # the interval before the p-value
    assert text.count("\n- ") + 1 == len(text.splitlines())


def test_summary_text_with_every_section():
    frame = scores_folds_frame()
    data = load_predictions(frame, pos_label="spam")
    m = classifier_measures(data, alpha=0.1)
    pw = pairwise_comparison(data, alpha=0.1, adjust="none")
    chance = rp.chance_check(data, m, classifiers_tried=20, alpha=0.1)
    boot = top_two_bootstrap(data, m, n_resamples=2000, alpha=0.1, rng=1)
    folds = rp.fold_analysis(data, alpha=0.1)
    text = summary_text(data, measures=m, pairwise=pw, chance=chance, bootstrap=boot, folds=folds,
                        alpha=0.1)
    lines = text.splitlines()
    assert any(line.startswith("- Without adjustment for the 3 comparisons") for line in lines)
    assert any("best of C = 20 random classifiers (Forman & Cohen, alpha = 0.1: the critical value allows for "
               "picking the best of C = 20 classifiers on the same test set" in line for line in lines)
    assert boot.summary() in text and folds.summary() in text
    assert "90% interval" in text and "95%" not in text
    assert "With only" not in text  # 200 cases: no small-test-set sentence


def test_summary_of_identical_classifiers_is_defined():
    """Degenerate but legal: two classifiers that never disagree."""
    frame = pd.DataFrame({"label": ["x", "y", "x", "y"], "pred_a": ["x", "y", "x", "x"],
                          "pred_b": ["x", "y", "x", "x"], "fold": [1, 1, 2, 2]})
    data = load_predictions(frame, pos_label="y")
    m = classifier_measures(data)
    boot = top_two_bootstrap(data, m, n_resamples=500, rng=0)
    assert (boot.difference, boot.low, boot.high, boot.share_tied) == (0, 0, 0, 1)
    text = summary_text(data, measures=m, pairwise=pairwise_comparison(data),
                        chance=rp.chance_check(data, m), bootstrap=boot, folds=rp.fold_analysis(data))
    assert "-0.0" not in text and "make identical predictions on every test case" in text
    assert "0.0 to 0.0" not in text and "+0.000 to +0.000" not in text  # zero widths explained
    assert text.count("zero width") == 2  # F1 bootstrap, fold t-test
    # the pairwise (Bonett–Price) interval is not of zero width: b = c = 0 of n = 4 leaves it wide (cold read r9)
    low, high = _bonett_price(0, 0, 4, 0.05)
    assert (f"the 95% interval of the difference, {100 * low:.1f} to {100 * high:.1f} percentage points, is what "
            "4 cases leave open, not a difference known to be 0") in text
    assert "**a and b** have equal accuracy, the highest" in text and "tie for" not in text
    # one pair: one bullet for it (not a pairs bullet and a leaders bullet saying it twice)
    assert "The two classifiers, a and b, make identical predictions on every test case" in text
    assert "fewest errors" not in text and "the one pair, a vs b" not in text
    assert "for 1 comparison" not in text and "same mean accuracy" in text


# ------------------------------------------------------------------- the example
def test_shipped_example_equals_a_fresh_regeneration():
    shipped = pd.read_csv(EXAMPLE_PATH)
    fresh = make_example_predictions(rng=0)
    pd.testing.assert_frame_equal(shipped, fresh, check_exact=False, atol=1e-9, rtol=0)


def test_example_scores_agree_with_the_case_study_predictions():
    """The refitted DLDA scores predict exactly what run_case_study's models predicted."""
    from evallib.studies._casestudy import run_case_study
    from evallib.studies._data import load_gse4335

    X, y = load_gse4335()
    study = run_case_study(X, y, rng=0)
    shipped = pd.read_csv(EXAMPLE_PATH)
    er = np.array(["ER-", "ER+"])
    np.testing.assert_array_equal(shipped["label"], er[y.to_numpy()[study.test_idx]])
    for m, name in {1: "dlda30", 2: "dlda10", 3: "dlda30_swapped"}.items():
        from_study = er[np.asarray(study.predictions[m], dtype=int)]
        np.testing.assert_array_equal(shipped[f"pred_{name}"], from_study)
        # DLDA predicts ER- (class 0) when dlda(x, ER-) <= dlda(x, ER+), i.e. score >= 0.
        np.testing.assert_array_equal(np.where(shipped[f"score_{name}"] >= 0, "ER-", "ER+"), from_study)
    for m, name in {4: "coin", 5: "prior"}.items():
        np.testing.assert_array_equal(shipped[f"pred_{name}"], er[np.asarray(study.predictions[m], dtype=int)])


# -------------------------------------------------------------------- end to end
def _adjusted_p_texts(frame: pd.DataFrame, names, label: str = "label", method: str = "holm") -> list[str]:
    """The mid-p McNemar p of every pair (scipy), adjusted by statsmodels' multipletests."""
    from itertools import combinations

    from statsmodels.stats.multitest import multipletests

    y = frame[label].to_numpy()
    ps = []
    for i, j in combinations(names, 2):
        wi, wj = frame[f"pred_{i}"].to_numpy() != y, frame[f"pred_{j}"].to_numpy() != y
        b, c = int(np.sum(wi & ~wj)), int(np.sum(~wi & wj))
        ps.append(_mid_p(b, c))
    return [f"{p:#.2g}" for p in multipletests(ps, method=method)[1]]


@pytest.mark.slow
def test_report_on_the_example(tmp_path):
    html, nb = run_cli(tmp_path, EXAMPLE_PATH, "--title", "Shipped example report",
                        "--pos-label", "ER-")
    raw = pd.read_csv(EXAMPLE_PATH)
    y = raw["label"].to_numpy()
    assert "Shipped example report" in html
    assert "load_predictions(" not in html and "What you will learn" not in html  # no code, no intro
    assert not re.search(r'(src|href)="https?:', html)  # self-contained: nothing from the network
    assert "mathjax" not in html.lower() and "require.js" not in html  # evallib.report.htmlexport's page
    outputs = [o for c in nb["cells"] for o in c.get("outputs", [])]
    assert not [o for o in outputs if o["output_type"] == "error" or o.get("name") == "stderr"]
    for name in ("dlda30", "dlda10", "coin", "prior"):
        assert f"{np.mean(raw[f'pred_{name}'] == y):.3f}" in html
    ci = stats.binomtest(int(np.sum(raw["pred_dlda30"] == y)), len(y)).proportion_ci(0.95, "wilson")
    assert f"[{ci.low:.3f}, {ci.high:.3f}]" in html
    s = raw["score_dlda10"].to_numpy()
    neg = y == "ER-"
    assert f"{stats.mannwhitneyu(s[neg], s[~neg]).statistic / (neg.sum() * (~neg).sum()):.3f}" in html
    names = ("dlda30", "dlda10", "dlda30_swapped", "coin", "prior")
    for text in _adjusted_p_texts(raw, names):  # the slim table's Holm-adjusted p-values
        assert f">{text}</td>" in html
    assert html.count("<img ") == 2 and "src=\"data:image/png;base64," in html  # intervals and ROC curves
    f1 = {n: f1_score(y, raw[f"pred_{n}"], pos_label="ER-") for n in ("dlda30", "dlda10")}
    assert f"F1 of dlda30: {f1['dlda30']:.3f}; F1 of dlda10: {f1['dlda10']:.3f}" in html


@pytest.mark.slow
def test_report_on_generated_labels_only(tmp_path):
    frame = labels_only_frame(n=120)
    custom = frame.rename(columns=lambda c: "truth" if c == "label" else c.replace("pred_", "yhat."))
    html, nb = run_cli(tmp_path, write_csv(custom, tmp_path / "labels.csv"), "--alpha", "0.1",
                        "--adjust", "bonferroni", "--label-column", "truth", "--pred-prefix", "yhat.")
    y = frame["label"].to_numpy()
    for name in ("forest", "logreg", "stump"):
        assert f"{np.mean(frame[f'pred_{name}'] == y):.3f}" in html
    for text in _adjusted_p_texts(frame, ("forest", "logreg", "stump"), method="bonferroni"):
        assert f">{text}</td>" in html
    assert "90% interval" in html and "90% joint interval (Bonferroni)" in html
    assert "adjusted p (Bonferroni; McNemar" in html
    assert "test cases: 120" in html
    assert "Skipped: the file has no fold column" in html
    assert "AUC" in html and "its predicted labels" in html  # section 4 without scores


@pytest.mark.slow
def test_report_on_generated_scores_and_folds(tmp_path):
    frame = scores_folds_frame()
    html, nb = run_cli(tmp_path, write_csv(frame, tmp_path / "cv.csv"), "--pos-label", "spam")
    y = frame["label"].to_numpy() == "spam"
    for name in ("svm", "bayes", "knn", "ranker"):
        s = frame[f"score_{name}"].to_numpy()
        auc = stats.mannwhitneyu(s[y], s[~y]).statistic / (y.sum() * (~y).sum())
        assert f"{auc:.3f}" in html
    f1 = f1_score(frame["label"], frame["pred_svm"], pos_label="spam")
    assert f"{f1:.3f}" in html
    assert "positive class 'spam'" in html and "folds: 5" in html
    correct = pd.DataFrame({n: frame[f"pred_{n}"] == frame["label"] for n in ("svm", "bayes", "knn")})
    per_fold = correct.groupby(frame["fold"]).mean()
    fr = stats.friedmanchisquare(*[per_fold[c] for c in per_fold.columns])
    assert f"p = {fr.pvalue:#.2g}" in html and f"chi-square = {fr.statistic:.2f}" in html
    assert "Average rank over 5 folds" not in html  # figure titles are inside the image
    assert html.count("<img ") == 3  # the interval plot, the ROC curves and the CD diagram


@pytest.mark.slow
def test_notebook_with_other_parameters(tmp_path):
    """papermill with non-default parameters: the output follows them."""
    src = write_csv(labels_only_frame(n=80), tmp_path / "x.csv")
    out = tmp_path / "nb.ipynb"
    run_papermill(NOTEBOOK, out, dict(predictions=str(src), pos_label=None, alpha=0.2, adjust="none",
                                      title="Other parameters"))
    text = out.read_text()
    assert "test cases: 80" in text and "80% interval" in text and "Other parameters" in text


@pytest.mark.slow
def test_notebook_stops_in_its_first_cells_on_bad_input(tmp_path):
    papermill = pytest.importorskip("papermill")
    src = tmp_path / "bad.csv"
    src.write_text("label,pred_a,pred_b\n0,1,0\n1,,1\n")
    out = tmp_path / "nb.ipynb"
    with pytest.raises(papermill.PapermillExecutionError) as info:
        run_papermill(NOTEBOOK, out, dict(predictions=str(src), pos_label=None))
    assert info.value.ename == "ReportInputError" and "'pred_a' has 1 missing" in info.value.evalue
    nb = json.loads(out.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    failed = [i for i, c in enumerate(code) if any(o.get("output_type") == "error" for o in c["outputs"])]
    assert failed == [2]  # parameters, injected parameters, then the loading cell


@pytest.mark.slow
def test_failed_notebook_leaves_no_report(tmp_path, monkeypatch):
    """Even when the quick pre-check passes, a failing notebook writes nothing."""
    bad = tmp_path / "bad.csv"
    bad.write_text("label,pred_a,pred_b\n0,1,0\n1,,1\n0,0,1\n")
    good = load_predictions(EXAMPLE_PATH, pos_label="ER-")
    monkeypatch.setattr(rp._runner, "load_predictions", lambda *a, **k: good)
    out = tmp_path / "out" / "r.html"
    with pytest.raises(ReportInputError, match="'pred_a' has 1 missing"):
        rp.run_report(bad, out, progress=False)
    assert not out.parent.exists()  # the folder the run created is removed too


class _Stop(Exception):
    pass


@pytest.mark.parametrize("rng", [7, np.random.default_rng(11), np.random.SeedSequence(5)])
def test_run_report_rng_reaches_the_notebook_as_one_integer_seed(tmp_path, monkeypatch, rng):
    """run_report takes rng like every function; the notebook receives one int seed:
    rng itself when an int, else numpy's first draw below 2**31 - 1 from the same state."""
    import papermill

    seen = {}

    def fake_execute(*args, parameters, **kwargs):
        seen.update(parameters)
        raise _Stop

    if isinstance(rng, int):
        expected = rng
    else:
        twin = np.random.default_rng(11) if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        expected = int(twin.integers(2**31 - 1))
    monkeypatch.setattr(papermill, "execute_notebook", fake_execute)
    with pytest.raises(rp.ReportExecutionError, match="_Stop"):
        rp.run_report(EXAMPLE_PATH, tmp_path / "out" / "r.html", pos_label="ER-", progress=False, rng=rng)
    assert seen["seed"] == expected and type(seen["seed"]) is int
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("bad, error", [(-1, ValueError), ("0", TypeError), (1.5, TypeError)])
def test_run_report_refuses_a_bad_rng_before_anything_runs(tmp_path, bad, error):
    with pytest.raises(error, match="rng must be None, an int >= 0"):
        rp.run_report(EXAMPLE_PATH, tmp_path / "out" / "r.html", progress=False, rng=bad)
    assert not (tmp_path / "out").exists()
