"""The report never reaches a silently wrong conclusion (issue 14, section 1), and a failed
run leaves nothing behind (section 5, output).

The reversed-score file is built here from scikit-learn on a real data set: the diabetes
data, median split into ``low``/``high`` (221 cases each), 10-fold cross-validated
predictions of three models, scores ``P(high)`` as scikit-learn gives them. References:
scikit-learn's ``roc_auc_score``, statsmodels' McNemar test and Holm adjustment.
"""

from __future__ import annotations

from conftest import run_main

import errno
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

from evallib import adjust_pvalues
from evallib import report as rp
from _references import bonett_price as _bonett_price, mid_p as _mid_p
from evallib.report import (
    EXAMPLE_PATH,
    ReportExecutionError,
    ReportInputError,
    chance_check,
    classifier_measures,
    format_measures,
    load_predictions,
    pairwise_comparison,
    score_warnings,
    summarise_data,
    summary_text,
    top_two_bootstrap,
)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def diabetes() -> pd.DataFrame:
    from sklearn.datasets import load_diabetes
    from sklearn.dummy import DummyClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, target = load_diabetes(return_X_y=True)
    y = np.where(target > np.median(target), "high", "low")
    cv = StratifiedKFold(10, shuffle=True, random_state=0)
    frame = pd.DataFrame({"label": y})
    models = {"logreg": make_pipeline(StandardScaler(), LogisticRegression()), "bayes": GaussianNB(),
              "dummy": DummyClassifier(strategy="prior")}
    for name, model in models.items():
        proba = cross_val_predict(model, X, y, cv=cv, method="predict_proba")
        classes = sorted(set(y))  # scikit-learn's classes_: ['high', 'low']
        frame[f"score_{name}"] = proba[:, classes.index("high")]
        frame[f"pred_{name}"] = np.asarray(classes)[proba.argmax(axis=1)]
    return frame


def test_diabetes_file_is_tied_and_needs_the_positive_label(diabetes):
    assert (diabetes["label"] == "high").sum() == (diabetes["label"] == "low").sum() == 221
    with pytest.raises(ReportInputError, match="--pos-label") as info:
        load_predictions(diabetes)
    assert "\n" not in str(info.value)


def test_right_positive_class_no_warning(diabetes):
    data = load_predictions(diabetes, pos_label="high")
    m = classifier_measures(data)
    y = diabetes["label"].to_numpy() == "high"
    for name in ("logreg", "bayes", "dummy"):
        assert m.loc[name, "AUC"] == pytest.approx(roc_auc_score(y, diabetes[f"score_{name}"]))
    assert m.loc["logreg", "AUC"] > 0.75
    assert not [w for w in score_warnings(data, m) if "reversed" in w]
    assert "Scores are read as evidence for 'high'" in " ".join(rp.data_notes(data))


def test_reversed_scores_are_called_out(diabetes):
    data = load_predictions(diabetes, pos_label="low")
    m = classifier_measures(data)
    y = diabetes["label"].to_numpy() == "low"
    assert m.loc["logreg", "AUC"] == pytest.approx(roc_auc_score(y, diabetes["score_logreg"]))
    assert m.loc["logreg", "AUC"] < 0.25  # the 0.16-0.23
    warnings = score_warnings(data, m)
    reversed_ = [w for w in warnings if "look reversed" in w]
    assert any(w.startswith("logreg's scores look reversed") for w in reversed_)
    assert any(w.startswith("bayes's scores look reversed") for w in reversed_)
    assert not any(w.startswith("dummy's scores") for w in reversed_)  # constant: AUC exactly 0.5
    text = summary_text(data, measures=m, warnings=warnings)
    first = text.splitlines()[0]
    assert first.startswith("- **Warning:**") and "look reversed" in first


def test_baseline_beside_every_classifier(diabetes):
    data = load_predictions(diabetes, pos_label="high")
    m = classifier_measures(data)
    base = m.attrs["baseline"]
    assert base["accuracy"] == 0.5 and base["AUC"] == 0.5 and "classes of equal size" in base["name"]
    table = format_measures(m)
    assert table.index[-1].startswith("baseline: majority class") and table.iloc[-1]["AUC"] == "0.500"
    text = summary_text(data, measures=m)
    assert "Always predicting the majority class scores 50.0%" in text
    # the shipped example: three classifiers below the baseline are named
    ex = load_predictions(EXAMPLE_PATH, pos_label="ER-")
    em = classifier_measures(ex)
    raw = pd.read_csv(EXAMPLE_PATH)
    majority = raw["label"].value_counts().max() / len(raw)
    below = [n for n in ex.labels if np.mean(raw[f"pred_{n}"] == raw["label"]) < majority]
    assert below == ["dlda30_swapped", "coin", "prior"]
    warned = [w for w in score_warnings(ex, em) if "below the" in w and "baseline" in w]
    assert len(warned) == 1  # one sentence names them all
    listed = [f"{n} ({100 * np.mean(raw[f'pred_{n}'] == raw['label']):.1f}%)" for n in below]
    assert warned[0].startswith(f"The accuracy of {', '.join(listed[:-1])} and {listed[-1]} is below")


def test_best_threshold_accuracy_is_labelled_optimistic():
    data = load_predictions(EXAMPLE_PATH, pos_label="ER-")
    m = classifier_measures(data)
    chance = chance_check(data, m)
    best = chance.table.loc["best accuracy"]
    assert "optimistic" in best["from"] and best["value"] > m.loc[best["winner"], "accuracy"]
    s = chance.summary()
    assert "optimistic" in s and "not the classifier's accuracy" in s
    # the F1 found at the best threshold is likewise not the classifier's F1 (nor its accuracy)
    f1_part = s[s.index("'s F1 of"):]
    assert "not the classifier's F1" in f1_part and "accuracy" not in f1_part.split(";")[0]
    text = summary_text(data, measures=m, chance=chance)
    acc_line = next(line for line in text.splitlines() if "highest accuracy" in line)
    assert f"{100 * best['value']:.1f}%" not in acc_line  # the best-threshold figure is not the accuracy


def test_the_majority_class_comparison_is_paired():
    """The best classifier against always predicting the majority class, on the same cases:
    McNemar's mid-p test (scipy's binomial law) on the cases where exactly one of the two is
    wrong, and Bonett & Price's interval, not the best's own one-sample interval."""
    raw = pd.read_csv(EXAMPLE_PATH)
    y = raw["label"].to_numpy()
    correct = {c[5:]: int((raw[c] == raw["label"]).sum()) for c in raw if c.startswith("pred_")}
    best = max(correct, key=correct.get)
    majority = raw["label"].value_counts().idxmax()
    wrong_best, wrong_base = raw[f"pred_{best}"].to_numpy() != y, y != majority
    b, c = int(np.sum(wrong_base & ~wrong_best)), int(np.sum(~wrong_base & wrong_best))
    lo, hi = _bonett_price(b, c, len(y), 0.05)
    data = load_predictions(EXAMPLE_PATH, pos_label="ER-")
    text = summary_text(data, measures=classifier_measures(data))
    acc_line = next(line for line in text.splitlines() if "highest accuracy" in line)
    assert f"**{best}**" in acc_line
    assert f"paired on the same cases {best} is {100 * (b - c) / len(y):.1f} percentage points ahead" in acc_line
    assert f"interval {100 * lo:.1f} to {100 * hi:.1f} percentage points, McNemar's mid-p test p = {_mid_p(b, c):#.2g}" in acc_line
    assert f"this test set does not show that {best} beats the majority class" in acc_line
    # a clear winner gets no such caveat
    y = np.array([1] * 100 + [0] * 100)
    clear = pd.DataFrame({"label": y, "pred_good": y.copy(), "pred_other": y.copy()})
    clear.loc[:9, "pred_good"] = 0
    clear.loc[:29, "pred_other"] = 0
    d2 = load_predictions(clear, pos_label=1)
    line2 = next(li for li in summary_text(d2, measures=classifier_measures(d2)).splitlines()
                 if "highest accuracy" in li)
    assert "does not show" not in line2 and "good beats the majority class" in line2


def test_small_test_set_warning_in_percentage_points():
    data = load_predictions(EXAMPLE_PATH, pos_label="ER-")
    half = 1.96 * np.sqrt(0.25 / data.n)     # the normal half-width at 50%
    text = summarise_data(data).text()
    assert f"±{100 * half:.0f} percentage points" in text and "%)" in text and "+/-" not in text


def test_pvalue_floor_and_holm_against_statsmodels():
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(0)
    y = (rng.random(5000) < 0.5).astype(int)
    frame = pd.DataFrame({"label": y, "pred_perfect": y, "pred_bad": np.where(np.arange(5000) < 2500, 1 - y, y),
                          "pred_noisy": np.where(rng.random(5000) < 0.1, 1 - y, y)})
    data = load_predictions(frame)
    pw = pairwise_comparison(data)
    assert (pw["pvalue"] == 0).any()  # the chi-square tail underflows
    np.testing.assert_allclose(np.sort(pw["pvalue_adj"]), np.sort(multipletests(pw["pvalue"], method="holm")[1]))
    text = summary_text(data, measures=classifier_measures(data), pairwise=pw)
    assert "p < 1e-15" in text and "p = 0" not in text and "p = 0." not in text.replace("p = 0.", "")
    p = np.array([0.01, 0.04, 0.03, 0.5])
    np.testing.assert_allclose(adjust_pvalues(p, "bonferroni"), multipletests(p, method="bonferroni")[1])


def test_interval_versus_holm_disagreement_is_explained():
    data = load_predictions(EXAMPLE_PATH, pos_label="ER-")
    pw = pairwise_comparison(data)
    split = pw[(pw["diff_low"] > 0) | (pw["diff_high"] < 0)]
    split = split[~split["reject"]]
    assert len(split)  # the example has such pairs (e.g. dlda30 vs coin)
    text = summary_text(data, measures=classifier_measures(data), pairwise=pw)
    line = next(s for s in text.splitlines() if "excludes zero, but not once the 10 comparisons" in s)
    for i, j in split["pair"]:
        assert f"{i} vs {j}" in line


def test_bootstrap_versus_mcnemar_disagreement_is_explained():
    n = 2000
    y = np.r_[np.ones(n // 2, int), np.zeros(n // 2, int)]
    a = y.copy()
    a[n // 2: n // 2 + 300] = 1  # 300 false positives
    b = y.copy()
    b[:300] = 0  # 300 false negatives: the same number of errors, a lower F1
    data = load_predictions(pd.DataFrame({"label": y, "pred_a": a, "pred_b": b}))
    m = classifier_measures(data)
    pw = pairwise_comparison(data)
    boot = top_two_bootstrap(data, m, n_resamples=2000, rng=1)
    assert boot.excludes_zero and not pw["reject"].iloc[0] and pw["verdict"].iloc[0] == "not shown to differ (the same number of errors here)"
    text = summary_text(data, measures=m, pairwise=pw, bootstrap=boot)
    assert ("It and the error-rate test disagree on this pair (the bootstrap interval of the F-measure "
            "difference excludes 0, the 95% Bonett–Price interval of the error-rate difference does not; McNemar's "
            "mid-p test does not reject equal error rates at alpha = 0.05, p = ") in text
    assert "have equal error rates here: the same number of errors" in text


def test_tied_leaders_are_named():
    y = np.array([1, 0, 1, 0, 1, 0, 1, 0] * 10)
    a = y.copy()
    a[:8] = 1 - a[:8]
    b = y.copy()
    b[-8:] = 1 - b[-8:]
    data = load_predictions(pd.DataFrame({"label": y, "pred_a": a, "pred_b": b}))
    text = summary_text(data, measures=classifier_measures(data), pairwise=pairwise_comparison(data))
    assert "**a and b** have equal accuracy, the highest" in text
    assert "a and b, have equal error rates here: the same number of errors, disagreeing on 16 cases" in text


# ----------------------------------------------------------------------- output
def _cli(args, cwd=ROOT, env=None):
    return run_main(["report", *map(str, args)], cwd=cwd, env=env)


def test_output_is_a_directory(tmp_path):
    out = tmp_path / "existing.html"
    out.mkdir()
    proc = _cli([EXAMPLE_PATH, "-o", out, "--pos-label", "ER-", "-q"])
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "is a directory" in proc.stderr.strip().splitlines()[-1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["existing.html"]
    assert not any(out.iterdir())


def test_output_folder_not_writable(tmp_path):
    proc = _cli([EXAMPLE_PATH, "-o", "/proc/evallib-report-test/r.html", "--pos-label", "ER-", "-q"])
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert "could not be written" in last and last.endswith("No report was written.")


def _fake_execute(template, output, **kwargs):
    Path(output).write_text(Path(template).read_text())


def test_full_disk_leaves_nothing(tmp_path, monkeypatch):
    import papermill

    def full(path, text):
        Path(path).write_text(text[:10])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(papermill, "execute_notebook", _fake_execute)
    monkeypatch.setattr(rp._runner, "_write_text", full)
    out = tmp_path / "out" / "r.html"
    with pytest.raises(ReportInputError, match="is full") as info:
        rp.run_report(EXAMPLE_PATH, out, pos_label="ER-", progress=False)
    assert "\n" not in str(info.value)
    assert not (tmp_path / "out").exists()


def test_timeout_is_one_sentence_and_leaves_nothing(tmp_path, monkeypatch):
    import papermill
    from nbclient.exceptions import CellTimeoutError

    def slow(*args, **kwargs):
        raise CellTimeoutError("Cell execution timed out: 60 lines of detail")

    monkeypatch.setattr(papermill, "execute_notebook", slow)
    (tmp_path / "keep.txt").write_text("x")
    out = tmp_path / "r.html"
    with pytest.raises(ReportExecutionError) as info:
        rp.run_report(EXAMPLE_PATH, out, pos_label="ER-", progress=False, timeout=7)
    assert str(info.value) == ("A cell of the report notebook ran longer than the 7 s allowed per cell "
                               "(timeout=), so the report was stopped.")
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


@pytest.mark.slow
def test_real_kernel_timeout_through_the_cli(tmp_path):
    """A real kernel whose every cell outlasts --timeout: one sentence, exit 1, nothing left.

    The kernel is made slow deterministically, not by a big file (how long a section takes
    depends on the machine): an IPython start-up file in a private IPYTHONDIR makes every
    cell sleep 3 s before it runs, longer than the 1 s allowed.
    """
    startup = tmp_path / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-slow.py").write_text(
        "import time\nget_ipython().events.register('pre_run_cell', lambda *args: time.sleep(3))\n")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    env = dict(os.environ, IPYTHONDIR=str(tmp_path / "ipython"))
    proc = _cli([EXAMPLE_PATH, "-o", out_dir / "r.html", "--pos-label", "ER-", "--timeout", "1", "-q"],
                env=env)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "ran longer than the 1 s allowed" in proc.stderr.strip().splitlines()[-1], proc.stderr
    assert list(out_dir.iterdir()) == []


def test_interval_plot_labels_do_not_overlap():
    import matplotlib.pyplot as plt

    from evallib.report import plot_pair_intervals

    rng = np.random.default_rng(2)
    y = (rng.random(400) < 0.5).astype(int)
    frame = pd.DataFrame({"label": y})
    for k in range(7):  # 21 pairs with long names
        frame[f"pred_gradient_boosting_variant_{k}"] = np.where(rng.random(400) < 0.1 + 0.03 * k, 1 - y, y)
    pw = pairwise_comparison(load_predictions(frame))
    ax = plot_pair_intervals(pw)
    fig = ax.figure
    fig.canvas.draw()
    boxes = [t.get_window_extent() for t in ax.get_yticklabels()]
    assert len(boxes) == 21
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            assert not boxes[i].overlaps(boxes[j])
    fig2, ax2 = plt.subplots()
    assert plot_pair_intervals(pw, ax=ax2) is ax2
    plt.close("all")


@pytest.mark.slow
def test_reversed_diabetes_report_through_the_cli(diabetes, tmp_path):
    path = tmp_path / "diabetes.csv"
    diabetes.to_csv(path, index=False)
    proc = _cli([path, "-o", tmp_path / "none.html", "-q"])
    assert proc.returncode == 1 and "--pos-label" in proc.stderr.strip().splitlines()[-1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["diabetes.csv"]
    out = tmp_path / "low.html"
    proc = _cli([path, "-o", out, "--pos-label", "low", "-q"])
    assert proc.returncode == 0, proc.stderr
    html = out.read_text()
    summary = html[html.index("Summary"):html.index("1. The data")]
    assert "logreg&#x27;s scores look reversed" in summary or "logreg's scores look reversed" in summary
    auc = roc_auc_score(diabetes["label"] == "low", diabetes["score_logreg"])
    assert f"{auc:.3f}" in html


def test_bootstrap_summary_does_not_round_a_partial_share_to_all_or_none():
    from evallib.report._sections import F1Comparison

    def summary(better, tied):
        return F1Comparison(best="a", second="b", f1_best=0.76, f1_second=0.61, difference=0.15,
                            low=0.06, high=0.24, share_best_better=better, share_tied=tied,
                            n_resamples=10_000, alpha=0.1, n_classifiers=2).summary()  # the only pair: a verdict

    s = summary(0.99968, 0.00012)  # 9,996.8 of 10,000 replicates: not "100.0%"
    assert "100.0%" not in s and "a's is the higher in over 99.9% of the 10,000 resamples (" in s
    # every resample: said as all of them, bounded by the rule of three (1 - 3/10,000 = 99.97%, by hand)
    assert ("a's is the higher in all of the 10,000 resamples (the share over endless resamples is at least "
            "99.97% at 95% confidence, the rule of three, 3/10,000;") in summary(1.0, 0.0)
    # one decimal, as in section 6's text, with the Monte Carlo error sqrt(s (1 - s) / B) by hand:
    # sqrt(0.75 * 0.25 / 10,000) = 0.00433, 0.4 percentage points; no integer seed given
    s75 = summary(0.75, 0.114)
    assert ("a's is the higher in 75.0% of the 10,000 resamples (Monte Carlo standard error 0.4 percentage "
            "points; no integer seed") in s75
    assert "and the two are equal in 11.4% (" in s75
    assert "equal in" not in summary(0.99, 0.0)  # no equal resample: nothing said
    # worded as what they are: shares of resamples, not a probability that a is better
    assert s.endswith("(shares of resamples, not the probability that a is better).")


def test_bootstrap_warns_on_few_discordant_cases_or_an_endpoint_at_zero():
    from evallib.report._sections import F1Comparison

    def summary(n_dis, low, high, seed=None):
        return F1Comparison(best="a", second="b", f1_best=0.76, f1_second=0.61, difference=0.15,
                            low=low, high=high, share_best_better=0.8, share_tied=0.1,
                            n_resamples=2_000, alpha=0.05, n_discordant=n_dis, seed=seed)

    assert "unreliable" not in summary(25, 0.06, 0.24).summary()  # 25 is not fewer than 25
    few = summary(24, 0.06, 0.24)
    assert "The bootstrap interval is unreliable here, as the two" in few.summary()
    assert "differ at alpha" not in few.summary() and "no verdict at alpha = 0.05 is drawn from it" in few.summary()
    assert "differ on only 24 test cases (fewer than 25)" in few.summary()
    assert "unreliable" in few.text()
    one = summary(1, 0.0, 0.24, seed=7).summary()
    assert "differ on only 1 test case (fewer" in one and "an endpoint of the interval is exactly 0" in one
    assert "seed 7)" in one
    assert "exactly 0" in summary(40, -0.2, 0.0).summary()
    assert "unreliable" not in summary(-1, 0.06, 0.24).summary()  # unknown count: nothing claimed


def test_top_two_bootstrap_counts_discordant_cases_and_records_the_seed(tmp_path):
    from evallib.report import classifier_measures, load_predictions, top_two_bootstrap

    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 80)
    a = y.copy()
    b = y.copy()
    a[:6] = 1 - a[:6]  # a wrong on 6 cases, b on 4 others: 10 discordant cases, counted by hand
    b[10:14] = 1 - b[10:14]
    f = tmp_path / "p.csv"
    pd.DataFrame({"label": y, "pred_a": a, "pred_b": b}).to_csv(f, index=False)
    data = load_predictions(f, pos_label=1)
    res = top_two_bootstrap(data, classifier_measures(data), n_resamples=500, rng=11)
    assert res.n_discordant == 10 and res.seed == 11
    assert "fewer than 25" in res.summary()
    assert top_two_bootstrap(data, classifier_measures(data), n_resamples=50,
                             rng=np.random.default_rng(1)).seed is None


def _delong_by_hand(y, s, alpha):
    """DeLong's Wald interval of one AUC from the placement values, written out (DeLong et al. 1988)."""
    pos, neg = s[y], s[~y]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    auc = psi.mean()
    se = np.sqrt(psi.mean(axis=1).var(ddof=1) / pos.size + psi.mean(axis=0).var(ddof=1) / neg.size)
    z = stats.norm.ppf(1 - alpha / 2)
    return auc, auc - z * se, auc + z * se


@pytest.mark.parametrize("alpha", [0.05, 0.5])
def test_an_auc_below_half_is_read_against_its_interval(alpha):
    """dlda30_swapped's AUC 0.378: its 95% DeLong interval includes 0.5 (could be chance), its 50%
    interval does not; the warning says which, computed, instead of "below 0.5" alone (issue 33)."""
    data = load_predictions(EXAMPLE_PATH, pos_label="ER-")
    m = classifier_measures(data, alpha=alpha)
    raw = pd.read_csv(EXAMPLE_PATH)
    auc, lo, hi = _delong_by_hand((raw["label"] == "ER-").to_numpy(), raw["score_dlda30_swapped"].to_numpy(), alpha)
    assert lo < hi < 0.5 if alpha == 0.5 else lo < 0.5 < hi
    level = f"{100 * (1 - alpha):g}%"
    (said,) = [w for w in score_warnings(data, m, alpha=alpha) if w.startswith("dlda30_swapped's AUC")]
    interval = f"its {level} DeLong interval {lo:.3f} to {hi:.3f}"
    if hi < 0.5:
        assert said == (f"dlda30_swapped's AUC {auc:.3f} is below the 0.5 of random scores, and {interval} "
                        "excludes 0.5: its scores rank the classes worse than random ones.")
    else:
        assert said == f"dlda30_swapped's AUC {auc:.3f} is below 0.5, but {interval} includes 0.5: the low AUC could be chance."


def test_one_disagreement_is_singular_and_the_brier_score_is_read_against_the_prevalence_forecast(tmp_path):
    from evallib.report import classifier_measures, load_predictions, pairwise_comparison, score_comparison, summary_text

    rng = np.random.default_rng(8)
    y = np.array([1] * 15 + [0] * 45)  # prevalence 0.25: the constant forecast 0.25 scores 0.25 * 0.75 = 0.1875
    a = y.copy()
    b = y.copy()
    b[0] = 0  # b wrong on one case a gets right: one disagreement
    f = tmp_path / "p.csv"
    pd.DataFrame({"label": y, "pred_a": a, "pred_b": b,
                  "score_a": np.clip(0.6 * y + rng.uniform(0, 0.4, y.size), 0, 1)}).to_csv(f, index=False)
    data = load_predictions(f, pos_label=1)
    m = classifier_measures(data)
    text = summary_text(data, measures=m, pairwise=pairwise_comparison(data))
    assert "from 1 disagreement;" in text or "from 1 disagreement)" in text
    assert "1 disagreements" not in text and "for 1 comparison" not in text
    brier_by_hand = float(np.mean((pd.read_csv(f)["score_a"] - y) ** 2))
    s = score_comparison(data).summary()
    assert f"a's scores (the only column of probabilities) have Brier score {brier_by_hand:.4f}" in s
    assert ("(lower is better); against the prevalence forecast, which gives every case the test set's own "
            "share of positive cases, 25.0%, as its probability (the best constant forecast fitted on this test "
            "set; Brier score 0.1875), it is") in s
