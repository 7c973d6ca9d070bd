"""The report on repeated cross-validation (issue 24, item 1): cases, repeats, folds.

The file is built here from scikit-learn on a real data set: the breast-cancer data (569
cases, 212 malignant), 10 x 10 stratified cross-validation of three scikit-learn models
(logistic regression, 5-nearest neighbours, an RBF support vector machine), one row per
case and repeat with a ``case_id``, a ``repeat`` and a ``fold`` column. Pooling its 5,690
rows as if they were test cases makes Cochran's Q reject (statsmodels, p < 1e-4) where a
single run does not (p = 0.17): the failure the report must not repeat.

References: statsmodels' ``cochrans_q``, its two-way ANOVA (``ols`` + ``anova_lm``) for
Cochran's within-case statistic on rates, its ``multipletests``; scipy's paired t-test and
its interval; mlxtend's 5x2cv t and F tests on the same splits; DeLong's placements by
comparing every pair of rows; a case-resampling bootstrap written out here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from evallib.report import (
    ReportInputError,
    classifier_measures,
    fold_analysis,
    load_predictions,
    omnibus_test,
    pairwise_comparison,
    score_comparison,
    summarise_data,
    top_two_bootstrap,
)

NAMES = ("logreg", "knn", "svm")


def _models():
    from sklearn.linear_model import LogisticRegression
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    return {"logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
            "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(5)),
            "svm": make_pipeline(StandardScaler(), SVC())}


def _frame_from_splits(X, target, splits) -> pd.DataFrame:
    """One row per (repeat, fold, test case): the three models' predictions and scores."""
    from sklearn.base import clone

    names = np.array(["malignant", "benign"])  # scikit-learn's target: 0 = malignant
    parts = []
    for repeat, fold, train, test in splits:
        part = pd.DataFrame({"case_id": [f"c{i:03d}" for i in test], "repeat": repeat, "fold": fold,
                             "label": names[target[test]]})
        for name, model in _models().items():
            fit = clone(model).fit(X[train], target[train])
            part[f"pred_{name}"] = names[fit.predict(X[test])]
            if name == "logreg":
                part["score_logreg"] = fit.predict_proba(X[test])[:, 0]  # P(malignant)
            if name == "svm":
                part["score_svm"] = -fit.decision_function(X[test])  # higher = more likely malignant
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


@pytest.fixture(scope="module")
def cv10x10() -> pd.DataFrame:
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import RepeatedStratifiedKFold

    X, target = load_breast_cancer(return_X_y=True)
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
    splits = [(s // 10 + 1, s % 10 + 1, train, test) for s, (train, test) in enumerate(cv.split(X, target))]
    frame = _frame_from_splits(X, target, splits)
    return frame.sort_values(["repeat", "fold", "case_id"], kind="stable").reset_index(drop=True)


def first_repeats(frame: pd.DataFrame, r: int) -> pd.DataFrame:
    return frame[frame["repeat"] <= r].reset_index(drop=True)


def case_rates(frame: pd.DataFrame) -> pd.DataFrame:
    """Each case's error rate per model, by pandas (the reference)."""
    wrong = pd.DataFrame({n: frame[f"pred_{n}"] != frame["label"] for n in NAMES})
    return wrong.groupby(frame["case_id"]).mean()


# ------------------------------------------------------------------ the verdicts
def test_verdicts_do_not_change_with_the_number_of_repeats(cv10x10):
    from statsmodels.stats.contingency_tables import cochrans_q

    pvalues = {}
    for r in (1, 2, 5, 10):
        data = load_predictions(first_repeats(cv10x10, r), pos_label="malignant")
        assert data.n == 569 and data.n_rows == 569 * r
        q = omnibus_test(data)
        pw = pairwise_comparison(data)
        assert not q.reject, (r, q.pvalue)
        assert not pw["reject"].any(), (r, pw[["pair", "pvalue_adj"]])
        pvalues[r] = q.pvalue
    one = first_repeats(cv10x10, 1)
    ref = cochrans_q(np.column_stack([one[f"pred_{n}"] == one["label"] for n in NAMES]).astype(int))
    assert pvalues[1] == pytest.approx(ref.pvalue, rel=1e-12)
    # what the rows-as-cases analysis says about the same 5,690 rows: a verdict made by the repeats
    pooled = cochrans_q(np.column_stack([cv10x10[f"pred_{n}"] == cv10x10["label"] for n in NAMES]).astype(int))
    assert pooled.pvalue < 1e-4 and pvalues[1] > 0.1
    assert max(pvalues.values()) / min(pvalues.values()) < 2.5


def test_cochran_q_on_rates_equals_the_two_way_anova(cv10x10):
    import statsmodels.formula.api as smf
    from statsmodels.stats.anova import anova_lm

    data = load_predictions(cv10x10, pos_label="malignant")
    q = omnibus_test(data)
    rates = 1.0 - case_rates(cv10x10)
    long = rates.reset_index().melt(id_vars="case_id", var_name="model", value_name="rate")
    table = anova_lm(smf.ols("rate ~ C(case_id) + C(model)", data=long).fit())
    ss_model, ss_resid = table.loc["C(model)", "sum_sq"], table.loc["Residual", "sum_sq"]
    n, k = rates.shape
    expected = n * (k - 1) * ss_model / (ss_model + ss_resid)
    assert q.statistic == pytest.approx(expected, rel=1e-9) and q.df == k - 1
    assert q.pvalue == pytest.approx(stats.chi2.sf(expected, k - 1), rel=1e-9)
    assert "per-case correctness rates" in q.text()


def test_pairs_on_repeats_are_paired_t_tests_over_cases(cv10x10):
    from statsmodels.stats.multitest import multipletests

    data = load_predictions(cv10x10, pos_label="malignant")
    pw = pairwise_comparison(data, alpha=0.05, adjust="holm")
    rates = case_rates(cv10x10)
    assert pw.attrs["test"] == "paired t-test on per-case error rates" and pw.attrs["n"] == 569
    for row in pw.itertuples():
        i, j = row.pair
        ref = stats.ttest_rel(rates[i], rates[j])
        assert row.diff == pytest.approx(rates[i].mean() - rates[j].mean(), abs=1e-12)
        assert row.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
        ci = ref.confidence_interval(0.95)
        assert (row.diff_low, row.diff_high) == (pytest.approx(ci.low), pytest.approx(ci.high))
        joint = ref.confidence_interval(1 - 0.05 / 3)
        assert (row.adj_low, row.adj_high) == (pytest.approx(joint.low), pytest.approx(joint.high))
        assert (row.b, row.c) == (int((rates[i] > rates[j]).sum()), int((rates[i] < rates[j]).sum()))
    np.testing.assert_allclose(pw["pvalue_adj"], multipletests(pw["pvalue"], method="holm")[1])


def test_accuracy_interval_uses_the_cases(cv10x10):
    """Wilson's interval with the effective sample size of the per-case rates, written out
    (Korn & Graubard 1998): n_eff = p (1 - p) / (s^2 / n), times (z / t_{n-1})^2, then
    statsmodels' Wilson interval at that size."""
    from statsmodels.stats.proportion import proportion_confint

    data = load_predictions(cv10x10, pos_label="malignant")
    m = classifier_measures(data)
    rates = 1.0 - case_rates(cv10x10)
    n = len(rates)
    for name in NAMES:
        r = rates[name].to_numpy()
        p = r.mean()
        assert m.loc[name, "accuracy"] == pytest.approx(np.mean(cv10x10[f"pred_{name}"] == cv10x10["label"]))
        n_eff = min(p * (1 - p) / (r.var(ddof=1) / n), 10 * n)
        n_eff *= (stats.norm.isf(0.025) / stats.t.isf(0.025, n - 1)) ** 2
        low, high = proportion_confint(p * n_eff, n_eff, alpha=0.05, method="wilson")
        assert (m.loc[name, "acc_low"], m.loc[name, "acc_high"]) == (pytest.approx(low), pytest.approx(high))
        pooled = proportion_confint(int(round(p * 5690)), 5690, method="wilson")
        assert high - low > 1.5 * (pooled[1] - pooled[0])  # not the 5,690-row interval
    conf_counts = m.loc["logreg", ["TP", "FN", "FP", "TN"]].astype(float)
    assert conf_counts.sum() == pytest.approx(569)
    assert m.loc["logreg", "TP"] + m.loc["logreg", "FN"] == pytest.approx(212)


def test_data_section_names_the_design(cv10x10):
    data = load_predictions(cv10x10, pos_label="malignant")
    s = summarise_data(data)
    text = s.text()
    assert "test cases: 569, each predicted 10 times (10 repeats of 10-fold CV; 5,690 rows)" in text
    assert "positive class 'malignant': 212 (37.3%)" in text and "folds: 10 in each of 10 repeats" in text
    assert "repeats: the column 'repeat'" in text and "Cases are identified by the column 'case_id'" in text


# ------------------------------------------------------------------ folds
def test_corrected_ttest_takes_its_ratio_within_a_repeat(cv10x10):
    data = load_predictions(cv10x10, pos_label="malignant")
    res = fold_analysis(data)
    correct = pd.DataFrame({n: cv10x10[f"pred_{n}"] == cv10x10["label"] for n in NAMES})
    per_fold = correct.groupby([cv10x10["repeat"], cv10x10["fold"]]).mean()
    sizes = cv10x10.groupby(["repeat", "fold"]).size()
    np.testing.assert_allclose(res.per_fold.to_numpy(), per_fold.to_numpy())
    ratio = np.mean(sizes / (569 - sizes))
    assert res.test_train_ratio == pytest.approx(ratio) and ratio == pytest.approx(1 / 9, rel=2e-3)
    best, second = per_fold.mean().sort_values(ascending=False).index[:2]
    d = (per_fold[best] - per_fold[second]).to_numpy()
    t = d.mean() / np.sqrt((1 / 100 + ratio) * d.var(ddof=1))
    assert (res.best, res.second) == (best, second)
    assert res.ttest.statistic == pytest.approx(t) and res.ttest.df == 99
    assert res.ttest.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 99))
    assert res.dietterich is None and "100 folds (10 repeats of 10)" in res.text()


def test_5x2cv_adds_dietterich_and_alpaydin_as_mlxtend_computes_them():
    """Five repeats of two folds on mlxtend's own splits (its seed, its train_test_split calls)."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import train_test_split
    from mlxtend.evaluate import combined_ftest_5x2cv, paired_ttest_5x2cv

    X, target = load_breast_cancer(return_X_y=True)
    rng = np.random.RandomState(1)
    splits = []
    for r in range(5):
        first, second = train_test_split(np.arange(len(target)), test_size=0.5,
                                         random_state=rng.randint(low=0, high=32767))
        splits += [(r + 1, 1, first, second), (r + 1, 2, second, first)]  # fold 1 tests on the second half
    frame = _frame_from_splits(X, target, splits)
    data = load_predictions(frame, pos_label="malignant")
    res = fold_analysis(data)
    assert res.test_train_ratio == pytest.approx(1.0, abs=1e-4)  # n_test/n_train of 2-fold CV
    models = _models()
    t, p = paired_ttest_5x2cv(models[res.best], models[res.second], X, target, random_seed=1)
    f, pf = combined_ftest_5x2cv(models[res.best], models[res.second], X, target, random_seed=1)
    assert res.dietterich.statistic == pytest.approx(t) and res.dietterich.pvalue == pytest.approx(p)
    assert res.alpaydin.statistic == pytest.approx(f) and res.alpaydin.pvalue == pytest.approx(pf)
    assert "Dietterich's 5x2cv paired t-test" in res.text() and "Alpaydin's F test" in res.summary()


def test_repeats_are_inferred_from_the_folds(cv10x10):
    """Folds numbered on across repeats (1-30), or 1-10 in every repeat with the rows written
    repeat by repeat: both without a repeat column, both the same analysis as with it."""
    three = first_repeats(cv10x10, 3)
    reference = load_predictions(three, pos_label="malignant")
    run_on = three.assign(fold=(three["repeat"] - 1) * 10 + three["fold"]).drop(columns="repeat")
    restart = three.drop(columns="repeat")
    for frame, how in ((run_on, "recur across the folds"), (restart, "order of the rows")):
        data = load_predictions(frame, pos_label="malignant")
        assert how in data.repeat_from and data.n == 569 and data.n_repeats == 3
        np.testing.assert_array_equal(data.repeats, three["repeat"].to_numpy() - 1)
        pd.testing.assert_frame_equal(pairwise_comparison(data), pairwise_comparison(reference))
        assert omnibus_test(data).pvalue == pytest.approx(omnibus_test(reference).pvalue)
    # folds that cannot be split into repeats: one sentence that asks for the column
    bad = run_on.copy()
    bad.loc[bad.index[:5], "fold"] = 1
    with pytest.raises(ReportInputError, match="--repeat-column") as info:
        load_predictions(bad.iloc[:-5], pos_label="malignant")
    assert "\n" not in str(info.value)


# ------------------------------------------------------------------ scores and bootstrap
def _direct_placements(y: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Every row's placement by comparing it with every row of the other class (O(n^2))."""
    pos, neg = s[y], s[~y]
    out = np.empty(s.size)
    out[y] = ((pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])).mean(axis=1)
    out[~y] = ((pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])).mean(axis=0)
    return out


def test_auc_with_repeats_is_clustered_by_case(cv10x10):
    three = first_repeats(cv10x10, 3)
    data = load_predictions(three, pos_label="malignant")
    res = score_comparison(data)
    y = three["label"].to_numpy() == "malignant"
    case_y = three.groupby("case_id")["label"].first().to_numpy() == "malignant"
    v = {n: pd.Series(_direct_placements(y, three[f"score_{n}"].to_numpy())).groupby(
        three["case_id"].to_numpy()).mean().to_numpy() for n in ("logreg", "svm")}
    m, k = case_y.sum(), (~case_y).sum()
    for n in ("logreg", "svm"):
        row = res.auc.set_index("name").loc[n]
        assert row["estimate"] == pytest.approx(v[n][case_y].mean())
        se = np.sqrt(v[n][case_y].var(ddof=1) / m + v[n][~case_y].var(ddof=1) / k)
        assert row["se"] == pytest.approx(se)
    d = v["logreg"] - v["svm"]
    se_d = np.sqrt(d[case_y].var(ddof=1) / m + d[~case_y].var(ddof=1) / k)
    pair = res.auc_pairs.iloc[0]
    assert pair["se"] == pytest.approx(se_d) and pair["pvalue"] == pytest.approx(
        2 * stats.norm.sf(abs(d[case_y].mean()) / se_d))
    # a case-resampling bootstrap of the pooled AUC agrees with the clustered standard error
    from sklearn.metrics import roc_auc_score

    gen = np.random.default_rng(0)
    ids = three["case_id"].to_numpy()
    uniq, inverse = np.unique(ids, return_inverse=True)
    rows_of = [np.flatnonzero(inverse == c) for c in range(uniq.size)]
    boot = []
    for _ in range(400):
        take = np.concatenate([rows_of[c] for c in gen.integers(0, uniq.size, uniq.size)])
        boot.append(roc_auc_score(y[take], three["score_svm"].to_numpy()[take]))
    se_svm = res.auc.set_index("name").loc["svm", "se"]
    assert np.std(boot, ddof=1) == pytest.approx(se_svm, rel=0.2)


def test_bootstrap_resamples_cases_with_all_their_predictions(cv10x10):
    """Against a case bootstrap written out: 20,000 resamples of the 569 cases, each case
    bringing its ten rows; percentile bounds agree to 0.002 (the Monte Carlo error of each
    bound is about 0.0002 here, the F1 values lie on a grid of about 0.0005). Resampling the
    5,690 rows instead gives an interval about a third as wide, bounds 0.005-0.008 inside."""
    data = load_predictions(cv10x10, pos_label="malignant")
    m = classifier_measures(data)
    res = top_two_bootstrap(data, m, n_resamples=20_000, rng=5)
    f1 = m["F1"].astype(float)
    assert [res.best, res.second] == list(f1.sort_values(ascending=False).index[:2])
    ids = cv10x10["case_id"].to_numpy()
    pos = cv10x10["label"].to_numpy() == "malignant"
    counts = {}
    for name in (res.best, res.second):
        said = cv10x10[f"pred_{name}"].to_numpy() == "malignant"
        per = pd.DataFrame({"tp": said & pos, "fp": said & ~pos, "fn": ~said & pos}).groupby(ids).mean()
        counts[name] = per.to_numpy()
    gen = np.random.default_rng(1)
    w = np.stack([np.bincount(gen.integers(0, 569, 569), minlength=569) for _ in range(20_000)])

    def f1_of(c):
        tp, fp, fn = (w @ c).T
        return 2 * tp / (2 * tp + fp + fn)

    diff = f1_of(counts[res.best]) - f1_of(counts[res.second])
    lo, hi = np.quantile(diff, [0.025, 0.975])
    assert res.low == pytest.approx(lo, abs=0.002) and res.high == pytest.approx(hi, abs=0.002)


def test_identical_repeats_change_no_verdict(cv10x10):
    """A single run written four times as four repeats (the same predictions each time) is
    the same evidence: every test-set statistic equals the single run's."""
    one = first_repeats(cv10x10, 1).drop(columns="fold")
    four = pd.concat([one.assign(repeat=r) for r in (1, 2, 3, 4)], ignore_index=True)
    a = load_predictions(one, pos_label="malignant")
    b = load_predictions(four, pos_label="malignant")
    assert b.repeated and b.n == a.n == 569
    pd.testing.assert_frame_equal(pairwise_comparison(b), pairwise_comparison(a))
    ma, mb = classifier_measures(a), classifier_measures(b)
    pd.testing.assert_frame_equal(mb.astype(float), ma.astype(float), check_exact=False, rtol=1e-12)
    assert omnibus_test(b).pvalue == omnibus_test(a).pvalue
    sa, sb = score_comparison(a), score_comparison(b)
    pd.testing.assert_frame_equal(sb.auc_pairs, sa.auc_pairs, check_exact=False, rtol=1e-9)
    ba, bb = top_two_bootstrap(a, ma, n_resamples=2000, rng=3), top_two_bootstrap(b, mb, n_resamples=2000, rng=3)
    assert (bb.low, bb.high, bb.share_best_better) == (ba.low, ba.high, ba.share_best_better)

