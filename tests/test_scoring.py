"""Tests of evallib.onetestset._scoring against independent references.

References: a direct O(m n) placement-value implementation of DeLong et al. (1988)
written here from the paper's definitions, scikit-learn's ``roc_auc_score``,
``brier_score_loss`` and ``log_loss``, scipy's ``ttest_rel``, and a stratified paired
bootstrap of the AUC difference (Monte Carlo tolerance stated in the test).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import brier_score_loss, roc_auc_score
from sklearn.metrics import log_loss as sk_log_loss

from evallib._multitest import adjust_pairs_table
from evallib.onetestset import _scoring as sc


def _direct_delong(y, scores):
    """DeLong et al. (1988) straight from the definitions: psi kernel, O(m n) placements."""
    y = np.asarray(y, bool)
    scores = np.atleast_2d(np.asarray(scores, float).T).T  # (N, k)
    x, z = scores[y], scores[~y]
    m, n, k = len(x), len(z), scores.shape[1]
    v10 = np.empty((m, k))
    v01 = np.empty((n, k))
    auc = np.empty(k)
    for r in range(k):
        psi = (x[:, r][:, None] > z[:, r][None, :]) + 0.5 * (x[:, r][:, None] == z[:, r][None, :])
        auc[r] = psi.mean()
        v10[:, r] = psi.mean(axis=1)
        v01[:, r] = psi.mean(axis=0)
    s10 = np.array([[np.sum((v10[:, r] - auc[r]) * (v10[:, s] - auc[s])) / (m - 1) for s in range(k)]
                    for r in range(k)])
    s01 = np.array([[np.sum((v01[:, r] - auc[r]) * (v01[:, s] - auc[s])) / (n - 1) for s in range(k)]
                    for r in range(k)])
    return auc, s10 / m + s01 / n


def _task(n, rng, k=3, ties=False):
    y = rng.random(n) < 0.4
    latent = y * 1.0 + rng.normal(size=n)
    cols = {f"c{j}": latent + rng.normal(scale=0.5 + j, size=n) for j in range(k)}
    if ties:
        cols = {name: np.round(v, 0) for name, v in cols.items()}
    return y.astype(int), pd.DataFrame(cols)


@pytest.mark.parametrize("ties", [False, True])
def test_delong_matches_direct_quadratic_implementation(ties):
    rng = np.random.default_rng(3)
    y, scores = _task(150, rng, ties=ties)
    fit = sc.delong_covariance(y, scores)
    auc, cov = _direct_delong(y, scores.to_numpy())
    np.testing.assert_allclose(fit.auc, auc, rtol=0, atol=1e-12)
    np.testing.assert_allclose(fit.covariance, cov, rtol=1e-10, atol=1e-15)
    for j, col in enumerate(scores):
        assert fit.auc[j] == pytest.approx(roc_auc_score(y, scores[col]), abs=1e-12)


def test_pairwise_z_and_interval_from_direct_covariance():
    rng = np.random.default_rng(4)
    y, scores = _task(120, rng, ties=True)
    auc, cov = _direct_delong(y, scores.to_numpy())
    table = sc.delong_pairwise(y, scores, alpha=0.1)
    assert list(zip(table["a"], table["b"])) == [("c0", "c1"), ("c0", "c2"), ("c1", "c2")]
    q = stats.norm.isf(0.05)
    for row in table.itertuples():
        i, j = int(row.a[1]), int(row.b[1])
        se = np.sqrt(cov[i, i] + cov[j, j] - 2 * cov[i, j])
        assert row.difference == pytest.approx(auc[i] - auc[j], abs=1e-12)
        assert row.statistic == pytest.approx((auc[i] - auc[j]) / se, rel=1e-9)
        assert row.pvalue == pytest.approx(2 * stats.norm.sf(abs((auc[i] - auc[j]) / se)), rel=1e-9)
        assert row.low == pytest.approx(auc[i] - auc[j] - q * se, rel=1e-9)
        assert row.reject == (row.pvalue <= 0.1)
    fit = sc.delong_covariance(y, scores)
    pd.testing.assert_frame_equal(fit.pairwise(0.1), table)
    pd.testing.assert_frame_equal(fit.table(0.1), sc.auc_table(y, scores, alpha=0.1))
    one = sc.delong_test(y, scores["c1"], scores["c2"], alpha=0.1)
    assert one.pvalue == pytest.approx(table["pvalue"][2], rel=1e-12)


@pytest.mark.parametrize("adjust", ["holm", "bonferroni", "none"])
def test_adjusted_pvalues_match_statsmodels(adjust):
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(12)
    y, scores = _task(150, rng, k=5)
    table = sc.delong_pairwise(y, scores, alpha=0.05, adjust=adjust)
    if adjust == "none":
        np.testing.assert_array_equal(table["pvalue_adj"], table["pvalue"])
    else:
        reject, padj, _, _ = multipletests(table["pvalue"], alpha=0.05, method=adjust)
        np.testing.assert_allclose(table["pvalue_adj"], padj, rtol=1e-12)
        np.testing.assert_array_equal(table["reject_adj"], reject)
    # the adjusted interval is the joint (Bonferroni) Wald interval, at level 1 - alpha/m
    # (1 - alpha without adjustment): it excludes 0 exactly when the pair's own p-value is
    # below that level, and then the adjusted test rejects too (Holm never rejects less)
    m = len(table)
    excl = (table["low_adj"] > 0) | (table["high_adj"] < 0)
    np.testing.assert_array_equal(excl, table["pvalue"] < (0.05 if adjust == "none" else 0.05 / m))
    assert not (excl & ~table["reject_adj"]).any()
    z = stats.norm.isf((0.05 if adjust == "none" else 0.05 / m) / 2)
    np.testing.assert_allclose(table["high_adj"] - table["difference"], z * table["se"], rtol=1e-12)
    assert table.attrs["adjust"] == adjust
    losses = sc.loss_pairwise(y, 1 / (1 + np.exp(-scores)), adjust=adjust)
    if adjust != "none":
        np.testing.assert_allclose(losses["pvalue_adj"],
                                   multipletests(losses["pvalue"], method=adjust)[1], rtol=1e-12)


def test_auc_interval_is_wald_on_direct_se():
    rng = np.random.default_rng(5)
    y, scores = _task(200, rng, k=1)
    auc, cov = _direct_delong(y, scores.to_numpy())
    res = sc.delong_auc(y, scores["c0"], alpha=0.05)
    z = stats.norm.isf(0.025)
    assert res.se == pytest.approx(np.sqrt(cov[0, 0]), rel=1e-10)
    assert (res.low, res.high) == pytest.approx((auc[0] - z * res.se, auc[0] + z * res.se), rel=1e-10)
    table = sc.auc_table(y, scores)
    assert list(table.columns) == ["name", "estimate", "se", "low", "high", "alpha", "n_pos", "n_neg",
                                   "method", "below_chance"]
    assert not table["below_chance"][0]
    flipped = sc.delong_auc(y, -scores["c0"])
    assert flipped.below_chance and flipped.estimate == pytest.approx(1 - auc[0], abs=1e-12)


def test_delong_se_of_difference_agrees_with_paired_bootstrap():
    # Stratified paired bootstrap (m and n fixed, as in DeLong's variance), B = 2000.
    # The bootstrap SD has Monte Carlo relative error about 1/sqrt(2B) = 1.6%; the
    # bootstrap variance is also biased low by about 1/m + 1/n (< 2% here). Tolerance 10%.
    rng = np.random.default_rng(6)
    y, scores = _task(400, rng, k=2)
    res = sc.delong_test(y, scores["c0"], scores["c1"])
    pos, neg = y == 1, y == 0
    a, b = scores["c0"].to_numpy(), scores["c1"].to_numpy()
    # psi(X_i, Y_j) once per classifier; a replicate's AUC is the mean over resampled i, j.
    psi_a = (a[pos][:, None] > a[neg][None, :]) + 0.5 * (a[pos][:, None] == a[neg][None, :])
    psi_b = (b[pos][:, None] > b[neg][None, :]) + 0.5 * (b[pos][:, None] == b[neg][None, :])
    diffs = []
    for _ in range(2000):
        i = rng.integers(0, pos.sum(), pos.sum())
        j = rng.integers(0, neg.sum(), neg.sum())
        diffs.append(psi_a[np.ix_(i, j)].mean() - psi_b[np.ix_(i, j)].mean())
    assert np.std(diffs, ddof=1) == pytest.approx(res.se, rel=0.10)


def test_perfect_separation_and_identical_columns():
    y = [0, 0, 0, 1, 1, 1]
    s = [0.1, 0.2, 0.3, 0.7, 0.8, 0.9]
    res = sc.delong_auc(y, s)
    assert (res.estimate, res.se, res.low, res.high) == (1.0, 0.0, 1.0, 1.0)
    same = sc.delong_test(y, [0.3, 0.1, 0.8, 0.2, 0.9, 0.5], [0.3, 0.1, 0.8, 0.2, 0.9, 0.5])
    assert (same.statistic, same.pvalue, same.reject, same.low, same.high) == (0.0, 1.0, False, 0.0, 0.0)


def test_format_auc_prints_no_interval_where_delong_variance_is_0():
    """AUC 1 (every positive outranks every negative) and 0 (every negative outranks every
    positive): every placement value is equal, so DeLong's variance is 0 by definition (checked
    with the direct O(m n) placements), and the library's text prints "-" and says why."""
    rng = np.random.default_rng(12)
    y = np.array([0] * 6 + [1] * 5)
    perfect = np.where(y == 1, 10.0, 0.0) + rng.random(11)  # every positive above every negative
    scores = pd.DataFrame({"perfect": perfect, "reversed": -perfect, "noisy": y + rng.normal(size=11),
                           "constant": np.ones(11)})
    auc, cov = _direct_delong(y, scores.to_numpy())
    assert roc_auc_score(y, scores["perfect"]) == 1.0 and roc_auc_score(y, scores["reversed"]) == 0.0
    assert auc[0] == 1.0 and auc[1] == 0.0 and cov[0, 0] == 0.0 and cov[1, 1] == 0.0 and cov[3, 3] == 0.0
    assert cov[2, 2] > 0 and 0 < auc[2] < 1 and auc[3] == 0.5
    table = sc.auc_table(y, scores)
    text = sc.format_auc_table(table)
    interval = "95% interval (DeLong)"
    assert text.loc["perfect", interval] == "-" and text.loc["reversed", interval] == "-"
    assert text.loc["perfect", "note"] == "DeLong's interval is degenerate (perfect separation)"
    assert text.loc["reversed", "note"] == ("DeLong's interval is degenerate (perfect reversal); "
                                            "below chance (0.5): the scores look reversed")
    assert text.loc["constant", interval] == "-"
    assert text.loc["constant", "note"] == "DeLong's interval is degenerate (standard error 0)"
    z = stats.norm.isf(0.025)
    lo, hi = max(0.0, auc[2] - z * np.sqrt(cov[2, 2])), min(1.0, auc[2] + z * np.sqrt(cov[2, 2]))
    assert text.loc["noisy", interval] == f"[{lo:.3f}, {hi:.3f}]" and text.loc["noisy", "note"] == ""

    pairs = sc.delong_pairwise(y, scores[["perfect", "reversed", "noisy"]])
    out = sc.format_auc_pairwise(pairs)
    # var(perfect - reversed) = S_pp + S_rr - 2 S_pr = 0: no interval
    assert cov[0, 0] + cov[1, 1] - 2 * cov[0, 1] == 0.0
    assert (out.loc["perfect vs reversed", "95% interval"], out.loc["perfect vs reversed", "note"]) == (
        "-", "degenerate: both AUCs have DeLong variance 0")
    assert out.loc["perfect vs reversed", "95% joint interval (Bonferroni)"] == "-"
    assert out.loc["perfect vs noisy", "95% interval"].startswith("[")
    assert out.loc["perfect vs noisy", "note"] == (
        "rests on noisy's variance alone (perfect: perfect separation, DeLong variance 0)")
    assert out.loc["reversed vs noisy", "note"] == (
        "rests on noisy's variance alone (reversed: perfect reversal, DeLong variance 0)")
    # a tied column's AUC of 0.5 has variance 0 too, known from the auc table only
    both = sc.delong_pairwise(y, scores[["noisy", "constant"]])
    assert "note" not in sc.format_auc_pairwise(both)
    assert sc.format_auc_pairwise(both, auc=table).loc["noisy vs constant", "note"] == (
        "rests on noisy's variance alone (constant: standard error 0, DeLong variance 0)")
    # no degenerate pair, no note column
    assert "note" not in sc.format_auc_pairwise(sc.delong_pairwise(y, scores[["noisy", "perfect"]].assign(
        perfect=scores["noisy"] + rng.normal(size=11))))


def test_positive_label_is_never_guessed():
    y = ["low", "high", "high", "low"]
    with pytest.raises(ValueError, match="pos_label"):
        sc.delong_auc(y, [0.1, 0.9, 0.8, 0.3])
    with pytest.raises(ValueError, match="pos_label must be one of"):
        sc.delong_auc(y, [0.1, 0.9, 0.8, 0.3], pos_label="medium")
    # labelled the other way round, the AUC is reflected
    hi = sc.delong_covariance(y * 2, [0.1, 0.9, 0.8, 0.3] * 2, pos_label="high").auc[0]
    lo = sc.delong_covariance(y * 2, [0.1, 0.9, 0.8, 0.3] * 2, pos_label="low").auc[0]
    assert hi == pytest.approx(1 - lo)
    assert sc.positive_mask([False, True, True]).tolist() == [False, True, True]


@pytest.mark.parametrize("bad, exc, match", [
    ({"y": [0, 1, 2, 1], "s": [1, 2, 3, 4]}, ValueError, "exactly 2 classes"),
    ({"y": [0, 1, 0, 1], "s": [1, 2, np.nan, 4]}, ValueError, "NaN"),
    ({"y": [0, 1, 0, 1], "s": [1, 2, 3]}, ValueError, "one score per case"),
    ({"y": [0, 1, 0, 0], "s": [1, 2, 3, 4]}, ValueError, "at least 2 positive"),
    ({"y": [0, 1, 0, 1], "s": ["a", "b", "c", "d"]}, TypeError, "numbers"),
])
def test_bad_input_names_the_argument(bad, exc, match):
    with pytest.raises(exc, match=match):
        sc.delong_auc(bad["y"], bad["s"])


def test_missing_scores_in_a_dataframe():
    frame = pd.DataFrame({"a": pd.array([0.1, None, 0.3, 0.9], dtype="Float64")})
    with pytest.raises(ValueError, match="missing"):
        sc.auc_table([0, 1, 0, 1], frame.astype(object))


def test_delong_pairwise_needs_two_columns():
    with pytest.raises(ValueError, match="at least 2 score columns"):
        sc.delong_pairwise([0, 1, 0, 1], {"only": [1, 2, 3, 4]})


# ------------------------------------------------------------------ Brier / log-loss
def test_brier_and_log_loss_match_scikit_learn():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 300)
    p = np.clip(rng.beta(2, 2, 300), 0, 1)
    p[:3] = [0.0, 1.0, 1.0]  # exact 0 / 1 exercise the clipping
    y[:3] = [1, 0, 1]
    assert sc.brier_score(y, p) == pytest.approx(brier_score_loss(y, p), rel=1e-12)
    assert sc.log_loss(y, p) == pytest.approx(sk_log_loss(y, p), rel=1e-12)
    labels = np.where(y == 1, "yes", "no")
    assert sc.log_loss(labels, p, pos_label="yes") == pytest.approx(sk_log_loss(y, p), rel=1e-12)
    table = sc.loss_table(y, {"p": p, "margin": 4 * p - 2})
    assert table["n_clipped"].tolist() == [2, 0]
    assert table["is_probability"].tolist() == [True, False]
    assert np.isnan(table["brier"][1]) and "outside [0, 1]" in table["note"][1]
    assert table["brier"][0] == pytest.approx(brier_score_loss(y, p), rel=1e-12)


def test_not_probabilities_are_refused_with_a_sentence():
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]"):
        sc.brier_score([0, 1, 0], [0.2, 1.3, 0.1])
    check = sc.check_probabilities({"a": [0.0, 0.5, 1.0], "b": [-1.0, 0.0, 2.0]})
    assert check["is_probability"].tolist() == [True, False]


@pytest.mark.parametrize("loss", ["brier", "log"])
def test_paired_loss_test_matches_scipy_ttest_rel(loss):
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 250)
    pa = np.clip(0.5 + (y - 0.5) * rng.uniform(0, 0.8, 250), 0, 1)
    pb = np.clip(0.5 + (y - 0.5) * rng.uniform(0, 0.6, 250), 0, 1)
    res = sc.loss_test(y, pa, pb, loss=loss, alpha=0.05)
    la = (pa - y) ** 2 if loss == "brier" else -np.log(np.where(y == 1, pa, 1 - pa))
    lb = (pb - y) ** 2 if loss == "brier" else -np.log(np.where(y == 1, pb, 1 - pb))
    ref = stats.ttest_rel(la, lb)
    ci = ref.confidence_interval(0.95)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert (res.low, res.high) == pytest.approx((ci.low, ci.high), rel=1e-10)
    assert res.df == 249 and res.reject == (res.pvalue <= 0.05)
    table = sc.loss_pairwise(y, {"a": pa, "b": pb, "m": 3 * pa}, loss=loss)
    assert len(table) == 1 and table.attrs["skipped"] == ["m"]
    assert table["pvalue"][0] == pytest.approx(ref.pvalue, rel=1e-10)



def test_per_case_loss_pairwise_is_scipys_paired_t_on_every_pair_with_holm():
    rng = np.random.default_rng(9)
    losses = {"a": rng.uniform(0, 1, 80), "b": rng.uniform(0, 0.9, 80), "c": rng.uniform(0.1, 1, 80)}
    table = sc.per_case_loss_pairwise(losses, loss="custom", alpha=0.1)
    pairs = [("a", "b"), ("a", "c"), ("b", "c")]
    assert list(zip(table["a"], table["b"])) == pairs and set(table["loss"]) == {"custom"}
    ref = [stats.ttest_rel(losses[x], losses[y]) for x, y in pairs]
    assert table["statistic"].tolist() == pytest.approx([r.statistic for r in ref], rel=1e-10)
    assert table["pvalue"].tolist() == pytest.approx([r.pvalue for r in ref], rel=1e-10)
    ci = [r.confidence_interval(0.9) for r in ref]
    assert table["low"].tolist() == pytest.approx([c.low for c in ci], rel=1e-10)
    # Holm by hand: sorted p times (3, 2, 1), running maximum, capped at 1
    p = np.array([r.pvalue for r in ref])
    order = np.argsort(p)
    holm = np.empty(3)
    holm[order] = np.minimum(1.0, np.maximum.accumulate(p[order] * np.array([3, 2, 1])))
    assert table["pvalue_adj"].tolist() == pytest.approx(holm.tolist(), rel=1e-12)
    assert (table["df"] == 79).all() and table.attrs["adjust"] == "holm"


def test_loss_pairwise_is_per_case_loss_pairwise_on_the_per_case_losses():
    rng = np.random.default_rng(10)
    y = rng.integers(0, 2, 120)
    probs = {n: np.clip(0.5 + (y - 0.5) * rng.uniform(0, w, 120), 0, 1) for n, w in (("a", .8), ("b", .6), ("c", .4))}
    direct = sc.loss_pairwise(y, probs, loss="log", adjust="by")
    given = sc.per_case_loss_pairwise({n: sc.per_case_loss(y, p, loss="log") for n, p in probs.items()},
                                      loss="log", adjust="by")
    pd.testing.assert_frame_equal(direct, given)


@pytest.mark.parametrize("losses, kwargs, exc, match", [
    ({"a": [0.1, 0.2]}, {"alpha": 1.5}, ValueError, "alpha"),
    ({"a": [0.1, 0.2], "b": [0.3, 0.4]}, {"adjust": "fdr"}, ValueError, "adjust must be one of"),
    ({"a": [0.1], "b": [0.3]}, {}, ValueError, r"losses must hold at least 2 cases \(rows\)"),
    ({"a": [0.1, np.nan], "b": [0.3, 0.4]}, {}, ValueError, r"losses\['a'\] must not contain NaN"),
    ({"a": [0.1, 0.2], "b": [0.3, 0.4]}, {"loss": 3}, TypeError, "loss must be a string"),
    ("abc", {}, TypeError, "losses must be a sequence of numbers"),
])
def test_per_case_loss_pairwise_bad_input(losses, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        sc.per_case_loss_pairwise(losses, **kwargs)

def test_loss_test_constant_difference():
    same = sc.loss_test([0, 1, 1], [0.2, 0.7, 0.9], [0.2, 0.7, 0.9])
    assert (same.statistic, same.pvalue, same.low, same.high) == (0.0, 1.0, 0.0, 0.0)


@pytest.mark.parametrize("ties", [False, True])
def test_roc_points_match_scikit_learn(ties):
    from sklearn.metrics import roc_curve

    rng = np.random.default_rng(11)
    y, scores = _task(300, rng, k=1, ties=ties)
    pts = sc.roc_points(y, scores["c0"])
    fpr, tpr, thr = roc_curve(y, scores["c0"], drop_intermediate=False)
    np.testing.assert_allclose(pts["fpr"], fpr, atol=1e-15)
    np.testing.assert_allclose(pts["tpr"], tpr, atol=1e-15)
    np.testing.assert_array_equal(pts["threshold"][1:], thr[1:])
    thin = sc.roc_points(y, scores["c0"], max_points=20)
    assert len(thin) <= 22 and thin["fpr"].iloc[-1] == 1.0 and thin["tpr"].iloc[0] == 0.0
    # every thinned point is a vertex of the full curve, and the gaps are at most 2/20 along the path
    full = set(zip(pts["fpr"], pts["tpr"]))
    assert all((f, t) in full for f, t in zip(thin["fpr"], thin["tpr"]))
    path = thin["fpr"] + thin["tpr"]
    steps = np.diff(pts["fpr"] + pts["tpr"])
    assert np.diff(path).max() <= 2 / 19 + steps.max() + 1e-12


def test_plot_roc_curves_returns_axes():
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(9)
    y, scores = _task(100, rng, k=2)
    ax = sc.plot_roc_curves(y, {"c0": scores["c0"], "c1": scores["c1"]})
    assert len(ax.get_lines()) == 3
    assert ax.get_legend().get_texts()[0].get_text() == f"c0 (AUC {roc_auc_score(y, scores['c0']):.3f})"
    fig, ax2 = plt.subplots()
    assert sc.plot_roc_curves(y, scores, ax=ax2) is ax2
    plt.close("all")


def test_format_functions_are_readable():
    rng = np.random.default_rng(10)
    y, scores = _task(200, rng, k=2)
    scores["flip"] = -scores["c0"]
    auc = sc.format_auc_table(sc.auc_table(y, scores))
    assert auc.loc["c0", "AUC"] == f"{roc_auc_score(y, scores['c0']):.3f}"
    assert "reversed" in auc.loc["flip", "note"] and auc.loc["c0", "note"] == ""
    pairs = sc.format_auc_pairwise(sc.delong_pairwise(y, scores))
    assert list(pairs.index) == ["c0 vs c1", "c0 vs flip", "c1 vs flip"]
    assert sc.format_pvalue(0.0) == "< 1e-15" and sc.format_pvalue(0.0312) == "0.031"
    p = 1 / (1 + np.exp(-scores[["c0", "c1"]]))
    losses = sc.format_loss_table(sc.loss_table(y, {"c0": p["c0"], "margin": scores["c1"]}))
    assert losses.loc["margin", "Brier score"] == "-" and "not a probability" in losses.loc["margin", "note"]
    lp = sc.loss_pairwise(y, p, loss="log")
    text = sc.format_loss_pairwise(lp)
    assert text.columns[0] == "log-loss a - b"
    better = "c0" if lp["difference"][0] < 0 else "c1"
    assert text["verdict"].iloc[0] == (f"{better} better" if lp["reject_adj"][0] else "not shown to differ")
    raw = sc.delong_pairwise(y, scores)
    assert list(pairs.columns) == ["AUC a - b", "95% interval", "95% joint interval (Bonferroni)",
                                   "adjusted p (Holm; DeLong's test)", "verdict"]
    flip = raw.set_index("b").loc["flip"].iloc[0]
    assert flip["reject_adj"] and pairs.loc["c0 vs flip", "verdict"] == "c0 better"
    empty = sc.loss_pairwise(y, {"c0": p["c0"], "m": scores["c1"]})
    assert len(empty) == 0 and "pvalue_adj" in empty.columns and len(sc.format_loss_pairwise(empty)) == 0


def test_adjusted_intervals_never_contradict_holms_verdict():
    """Holm stops at p = 0.02 > 0.05/3, so no pair is rejected; an interval at the last pair's
    Holm level (alpha itself) would still exclude 0. The report's adjusted intervals are joint
    (Bonferroni) ones, which exclude 0 only where Holm rejects."""
    p = np.array([0.02, 0.024, 0.03])
    se = np.ones(3)
    d = stats.norm.isf(p / 2) * se          # differences whose two-sided Wald p-values are p
    table = adjust_pairs_table(pd.DataFrame({"difference": d, "se": se, "pvalue": p}), 0.05, "holm",
                       lambda a: stats.norm.isf(a / 2))
    assert not table["reject_adj"].any()
    assert table["pvalue"].iloc[-1] < table["alpha_adj"].iloc[-1]   # a Holm-level interval would exclude 0
    assert (table["low_adj"] < 0).all()                            # the joint intervals do not
