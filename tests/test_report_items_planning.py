"""The per-item report's planning section (section 6) and --min-difference.

References: the one-way ANOVA and the covariance written out with numpy on balanced data, and
the power of the paired t-test on the ``J`` cluster means (items without clusters), ``J - 1`` df,
by quadrature over the chi-square law (:func:`_references.t_test_power`, not scipy's noncentral
t), with ``V = omega^2 (1 + (m - 1) icc) + (sigma_wA^2 + sigma_wB^2) / K`` the variance of one
item's difference, ``V m`` that of one cluster mean times ``m^2``: the fewest whole clusters with
power 0.8 counted up one by one, and the detectable difference by bisection. Miller's (2024)
normal approximation ``(z_{alpha/2} + z_beta)^2 V / delta^2`` is the lower bound they exceed.
"""

from __future__ import annotations

import html
import math
import re

import numpy as np
import pandas as pd
import pytest
from _references import t_test_detectable, t_test_power, t_test_units
from conftest import MMLU, write_lm_eval_task
from scipy import stats

from evallib.report._items_inputs import load_item_scores
from evallib.report._items_sections import format_item_planning, item_planning


def _long(scores: dict[str, np.ndarray], clusters: np.ndarray | None) -> pd.DataFrame:
    rows = []
    for model, y in scores.items():
        n, k = y.shape
        frame = pd.DataFrame({"item": np.repeat([f"q{i}" for i in range(n)], k), "model": model,
                              "sample": np.tile(np.arange(k), n), "score": y.ravel()})
        if clusters is not None:
            frame["cluster"] = np.repeat([f"c{c}" for c in clusters], k)
        rows.append(frame)
    return pd.concat(rows, ignore_index=True)


def _anova(y: np.ndarray) -> tuple[float, float]:
    """Balanced one-way ANOVA: (between, within) of items x samples."""
    n, k = y.shape
    msw = float(((y - y.mean(axis=1, keepdims=True)) ** 2).sum() / (n * (k - 1)))
    msb = float(k * ((y.mean(axis=1) - y.mean()) ** 2).sum() / (n - 1))
    return (msb - msw) / k, msw


@pytest.fixture(scope="module")
def clustered_file():
    rng = np.random.default_rng(5)
    G, m, K = 40, 5, 3
    cl = np.repeat(np.arange(G), m)
    pa = np.clip(0.7 + rng.normal(0, 0.08, G)[cl] + rng.normal(0, 0.10, G * m), 0.02, 0.98)
    pb = np.clip(pa - 0.03 + rng.normal(0, 0.06, G)[cl] + rng.normal(0, 0.04, G * m), 0.02, 0.98)
    ya = np.clip(pa[:, None] + rng.normal(0, 0.05, (G * m, K)), 0, 1).round(4)
    yb = np.clip(pb[:, None] + rng.normal(0, 0.05, (G * m, K)), 0, 1).round(4)
    return dict(ya=ya, yb=yb, clusters=cl, m=m, K=K, frame=_long({"A": ya, "B": yb}, cl))


def test_planning_parts_and_plan_against_written_out_miller(clustered_file):
    f = clustered_file
    data = load_item_scores(f["frame"], item_column="item", cluster_column="cluster", sample_column="sample")
    plan = item_planning(data, alpha=0.05, min_difference=0.02)
    row = plan.table.iloc[0]
    assert (row["a"], row["b"], row["n_items"], row["samples"], row["cluster_size"]) == ("A", "B", 200, 3, 5)
    (ba, wa), (bb, wb) = _anova(f["ya"]), _anova(f["yb"])
    sa, sb = math.sqrt(ba), math.sqrt(bb)
    ma, mb = f["ya"].mean(axis=1), f["yb"].mean(axis=1)
    rho = float(np.cov(ma, mb)[0, 1]) / (sa * sb)
    assert (row["sd_a"], row["sd_b"], row["within_sd_a"], row["within_sd_b"], row["correlation"]) == pytest.approx(
        (sa, sb, math.sqrt(wa), math.sqrt(wb), rho), rel=1e-9)
    # the ICC of the expected differences: the observed differences' between-cluster share, balanced ANOVA,
    # divided by omega^2 / (omega^2 + noise / K)
    d = (ma - mb).reshape(-1, f["m"])
    between_c, within_c = _anova(d)
    observed = between_c / (between_c + within_c)
    omega2 = sa * sa + sb * sb - 2 * rho * sa * sb
    noise = (wa + wb) / f["K"]
    icc = observed * (omega2 + noise) / omega2
    assert 0.05 < icc < 1 and row["icc"] == pytest.approx(icc, rel=1e-9)
    V = omega2 * (1 + (f["m"] - 1) * icc) + noise
    assert row["variance"] == pytest.approx(V, rel=1e-9)
    # the paired t-test on the cluster means: each of variance V m / m^2 = V / m
    clusters = t_test_units(0.02, V / f["m"], 0.05, 0.8)
    z = stats.norm.isf(0.025) + stats.norm.ppf(0.8)
    assert clusters > math.ceil(z * z * V / 0.02 ** 2 / f["m"])      # t asks for more than Miller's normal plan
    assert (row["needed_items"], row["needed_clusters"]) == (clusters * f["m"], clusters)
    detectable = t_test_detectable(200 / f["m"], V / f["m"], 0.05, 0.8)
    assert row["detectable"] == pytest.approx(detectable, rel=1e-6) and row["df"] == 39
    text = " ".join(plan.sentences())
    assert (f"on its 200 shared items a difference of {detectable:.4f} (mean score) has power 0.8 at "
            "level alpha = 0.05 (two-sided), unadjusted for multiplicity" in text
            and "; the paired t-test on the cluster means, 39 degrees of freedom)" in text
            and f"power 0.8 for a difference of 0.02 needs {clusters * f['m']:,} items ({clusters:,} clusters) "
            f"(t on {clusters - 1} degrees of freedom)" in text)
    assert "detects" not in text and "detecting" not in text
    assert "tied" not in text
    shown = format_item_planning(plan)
    assert shown["items for power 0.8 at 0.02"].iloc[0] == f"{clusters * f['m']:,}"
    # without min_difference: the detectable difference only
    bare = item_planning(data, alpha=0.05)
    assert bare.table["needed_items"].isna().all() and "needs" not in " ".join(bare.sentences())
    assert "items for power" not in format_item_planning(bare).columns.str.cat()


def test_planning_with_one_answer_per_item_is_the_variance_of_the_differences():
    rng = np.random.default_rng(9)
    n = 300
    p = rng.beta(3, 2, n)
    scores = {"A": (rng.random(n) < p).astype(float), "B": (rng.random(n) < p - 0.05).astype(float),
              "C": (rng.random(n) < 0.4).astype(float)}
    frame = pd.DataFrame({"item": [f"q{i}" for i in range(n)], **scores})
    data = load_item_scores(frame, item_column="item")
    plan = item_planning(data, alpha=0.01, min_difference=0.05)
    leader = max(scores, key=lambda k: scores[k].mean())
    assert set(plan.table["a"]) == {leader} and len(plan.table) == 2
    for _, row in plan.table.iterrows():
        d = scores[row["a"]] - scores[row["b"]]
        V = float(np.var(d, ddof=1))       # one answer: the noise is part of the spread between items
        assert row["within_sd_a"] == 0 and row["samples"] == 1 and row["cluster_size"] == 1
        assert row["variance"] == pytest.approx(V, rel=1e-9)
        assert row["needed_items"] == t_test_units(0.05, V, 0.01, 0.8)     # the paired t-test, n - 1 df
        assert row["detectable"] == pytest.approx(t_test_detectable(n, V, 0.01, 0.8), rel=1e-6)
    shown = format_item_planning(plan)     # no clusters: no cluster size or ICC to print
    assert set(shown["cluster size (size-weighted mean)"]) == {"-"} and set(shown["ICC"]) == {"-"}
    # the power is at alpha = 0.01 itself, not adjusted for the leader's 2 comparisons, and the text says so
    assert all("has power 0.8 at level alpha = 0.01 (two-sided), unadjusted for the 2 comparisons with the leader"
               in t for t in plan.sentences())
    with pytest.raises(Exception, match="min-difference"):
        item_planning(data, min_difference=1.5)


def _page_text(path) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))))


@pytest.mark.slow
def test_cli_per_item_report_takes_min_difference_and_plans(clustered_file, tmp_path, capsys):
    from evallib.__main__ import main

    source = tmp_path / "scores.csv"
    clustered_file["frame"].to_csv(source, index=False)
    out = tmp_path / "items.html"
    status = main(["report", str(source), "--item-column", "item", "--cluster-column", "cluster",
                   "--sample-column", "sample", "--min-difference", "0.02", "--bootstrap-reps", "200",
                   "-o", str(out), "-q"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    text = _page_text(out)
    data = load_item_scores(clustered_file["frame"], item_column="item", cluster_column="cluster",
                            sample_column="sample")
    plan = item_planning(data, alpha=0.05, min_difference=0.02)
    assert "6. Planning the next evaluation" in text
    m = len(plan.table)   # the summary's bullet: the power is at the unadjusted level, for m comparisons
    assert "Planning: on the items the pair shares, a difference in mean score from" in text
    caveat = "unadjusted for multiplicity" if m == 1 else f"unadjusted for the {m} comparisons with the leader"
    assert f"has power 0.8 at level alpha = 0.05 (two-sided), {caveat}" in text
    assert "power 0.8 for the smallest difference that matters, 0.02, needs" in text and "(section 6)." in text
    for sentence in plan.sentences():
        assert html.unescape(sentence) in text


def _anova_share(values: np.ndarray, groups: np.ndarray) -> float:
    """The one-way ANOVA's between-group share, (MSB - MSW) / (MSB + (K0 - 1) MSW), from statsmodels' table."""
    import statsmodels.api as sm
    import statsmodels.formula.api as smf

    frame = pd.DataFrame({"y": values, "g": groups})
    table = sm.stats.anova_lm(smf.ols("y ~ C(g)", data=frame).fit())
    msb, msw = table.loc["C(g)", "mean_sq"], table.loc["Residual", "mean_sq"]
    k_i = frame.groupby("g").size().to_numpy()
    N, n = k_i.sum(), k_i.size
    k0 = (N - (k_i ** 2).sum() / N) / (n - 1)
    return float((msb - msw) / (msb + (k0 - 1) * msw))


def test_an_icc_below_zero_within_a_task_is_said_in_words(tmp_path):
    """Issue 33: MMLU subtasks with the task as the cluster, where the ICC of the expected differences
    within a task comes out below 0: the plan reads it as 0 and says so, with the estimate.

    With one answer per item the observed differences' between-task share is the ICC itself
    (no answers' noise to divide out); the reference is statsmodels' one-way ANOVA of the
    leader's minus the other's item scores by task.
    """

    from evallib.report._items_inputs import read_lm_eval_samples

    rng = np.random.default_rng(0)
    files = {}
    for model, acc in (("llama", 0.62), ("mistral", 0.55)):
        (tmp_path / model).mkdir()
        files[model] = [write_lm_eval_task(tmp_path / model, t, n, acc, rng=rng) for t, n in MMLU.items()]
    data = read_lm_eval_samples(files, metric="acc", cluster_key="task")
    means = data.item_means()
    tasks = np.array([i.split("/")[0] for i in means.index])
    d = (means["llama"] - means["mistral"]).to_numpy()
    reference = _anova_share(d, tasks)
    assert reference < 0                                   # the seed gives an estimate below 0
    plan = item_planning(data, alpha=0.05, min_difference=0.05)
    row = plan.table.iloc[0]
    assert row["icc"] == 0 and row["icc_raw"] == pytest.approx(reference, rel=1e-9)
    text = " ".join(plan.sentences())
    # read as 0 for the plan, with the largest ICC not ruled out: the estimate plus z_0.975 times Fisher's
    # large-sample SE at ICC 0 (one answer per item: no noise to scale by)
    # m: the size-weighted mean task size sum n^2 / sum n (Kish's for unequal clusters), rounded
    g, m = len(MMLU), round(sum(n * n for n in MMLU.values()) / sum(MMLU.values()))
    assert m != round(sum(MMLU.values()) / g)             # the plain mean would be another number
    upper = reference + stats.norm.ppf(0.975) * math.sqrt(2 / (m * (m - 1) * (g - 1)))
    assert (f"The ICC of the expected differences within a task was estimated at {reference:.3f}, below zero, so it "
            f"is read as 0 for the plan; ICCs up to about {upper:.3f} (a design effect of {1 + (m - 1) * upper:.2f} "
            f"for tasks of {m} items) are not ruled out") in text
    assert f"for G = {g} tasks of m = {m} items" in text and "for the answers' noise" not in text
    assert "no more alike" not in text
    assert f"tasks of a size-weighted mean of {m} items with an ICC of the expected differences read as 0" in text
    assert format_item_planning(plan)["ICC"].iloc[0] == f"0 (estimated {reference:.3f})"
    # an estimate inside [0, 1] is printed as it is, with no such sentence
    rng = np.random.default_rng(2)
    for model, acc in (("llama", 0.62), ("mistral", 0.55)):
        files[model] = [write_lm_eval_task(tmp_path / model, t, n, acc, rng=rng) for t, n in MMLU.items()]
    other = item_planning(read_lm_eval_samples(files, metric="acc", cluster_key="task"))
    assert other.table["icc_raw"].iloc[0] == other.table["icc"].iloc[0] > 0
    assert "below zero" not in " ".join(other.sentences())


def test_the_icc_standard_error_at_zero_matches_a_simulation():
    """Fisher's large-sample SE of the one-way ANOVA ICC at ICC 0, sqrt(2 / (m (m - 1) (G - 1))),
    against the SD of the ANOVA estimates of 4,000 simulated balanced data sets of G = 67 clusters
    of m = 18 normal items with no cluster effect (the report's example's shape); the SD's Monte
    Carlo relative SE is about 1 / sqrt(2 * 4000) = 1.1%, the tolerance 5%."""
    from evallib.report._items_sections import icc_null_se

    rng = np.random.default_rng(1)
    g, m = 67, 18
    x = rng.normal(size=(4000, g, m))
    means = x.mean(axis=2)
    msb = m * means.var(axis=1, ddof=1)
    msw = ((x - means[..., None]) ** 2).sum(axis=(1, 2)) / (g * (m - 1))
    estimates = (msb - msw) / (msb + (m - 1) * msw)
    assert icc_null_se(m, g) == pytest.approx(estimates.std(ddof=1), rel=0.05)
    with pytest.raises(ValueError, match="cluster_size"):
        icc_null_se(1, g)


def test_unequal_clusters_plan_with_the_size_weighted_mean_size():
    """Kish's design effect for unequal clusters takes m* = sum m^2 / sum m (written out here), not the
    plain mean or the median; the plan, its table and its sentence use and name that one number."""
    rng = np.random.default_rng(3)
    sizes = np.array([2, 3, 3, 4, 20, 2, 3, 25, 4, 3, 2, 30])   # mean 8.4, median 3, m* 2005 / 101 = 19.9
    cl = np.repeat(np.arange(sizes.size), sizes)
    n = cl.size
    p = np.clip(0.6 + rng.normal(0, 0.1, sizes.size)[cl] + rng.normal(0, 0.1, n), 0.05, 0.95)
    ya = (rng.random((n, 2)) < p[:, None]).astype(float)
    yb = (rng.random((n, 2)) < (p - 0.05)[:, None]).astype(float)
    data = load_item_scores(_long({"A": ya, "B": yb}, cl), item_column="item", cluster_column="cluster",
                            sample_column="sample")
    plan = item_planning(data, alpha=0.05)
    weighted = round(float((sizes ** 2).sum() / sizes.sum()))
    assert weighted == 20 and round(sizes.mean()) == 8 and np.median(sizes) == 3
    assert int(plan.table["cluster_size"].iloc[0]) == weighted
    assert format_item_planning(plan)["cluster size (size-weighted mean)"].iloc[0] == "20"
    assert "clusters of a size-weighted mean of 20 items with an ICC" in plan.sentences()[0]


def test_unidentified_answer_noise_prints_a_dash():
    """A model that answered each item once has no answers' noise of its own (it is inside the SD of its
    expected scores): the table prints "-", not 0.000, for it and keeps the other model's number."""
    rng = np.random.default_rng(4)
    n = 120
    p = rng.beta(4, 2, n)
    many = (rng.random((n, 3)) < p[:, None]).astype(float)
    once = (rng.random((n, 1)) < p[:, None] - 0.05).astype(float)
    frame = pd.concat([_long({"many": many}, None), _long({"once": once}, None)], ignore_index=True)
    data = load_item_scores(frame, item_column="item", sample_column="sample")
    plan = item_planning(data, alpha=0.05)
    row = plan.table.iloc[0]
    assert (row["a"], row["b"]) == ("many", "once") and row["samples"] >= 2
    within = math.sqrt(_anova(many)[1])     # the written-out within-item variance of "many"
    cell = format_item_planning(plan)["answer noise SD A / B"].iloc[0]
    assert cell == f"{min(within, math.sqrt(max(0.25 - row['sd_a'] ** 2, 0))):.3f} / -"
    bare = format_item_planning(item_planning(load_item_scores(
        _long({"x": many[:, :1], "y": once}, None).drop(columns="sample"), item_column="item"), alpha=0.05))
    assert bare["answer noise SD A / B"].iloc[0] == "- / -"


def test_few_clusters_plan_with_the_t_quantile_on_their_degrees_of_freedom():
    """Six clusters: the plan is the paired t-test on the cluster means with 5 df, as the report's CR2
    intervals take them (Bell–McCaffrey for equal clusters, written out), not Miller's normal plan, which
    with 5 df is markedly too optimistic."""
    from _references import cr2_dense

    rng = np.random.default_rng(8)
    G, m, K = 6, 5, 2
    cl = np.repeat(np.arange(G), m)
    pa = np.clip(0.6 + rng.normal(0, 0.08, G)[cl] + rng.normal(0, 0.12, G * m), 0.05, 0.95)
    pb = np.clip(pa - 0.05 + rng.normal(0, 0.05, G)[cl] + rng.normal(0, 0.05, G * m), 0.05, 0.95)
    ya = np.clip(pa[:, None] + rng.normal(0, 0.05, (G * m, K)), 0, 1).round(4)
    yb = np.clip(pb[:, None] + rng.normal(0, 0.05, (G * m, K)), 0, 1).round(4)
    data = load_item_scores(_long({"A": ya, "B": yb}, cl), item_column="item", cluster_column="cluster",
                            sample_column="sample")
    plan = item_planning(data, alpha=0.05, min_difference=0.1)
    row = plan.table.iloc[0]
    assert row["cluster_size"] == m
    # the df of the report's interval for the pair on these 6 equal clusters
    _, bm_df = cr2_dense(ya.mean(axis=1) - yb.mean(axis=1), cl)
    assert row["df"] == pytest.approx(bm_df) == pytest.approx(G - 1)
    V = row["variance"]
    detectable = t_test_detectable(G, V / m, 0.05, 0.8)
    z = stats.norm.isf(0.025) + stats.norm.ppf(0.8)
    assert row["detectable"] == pytest.approx(detectable, rel=1e-6)
    assert detectable > 1.2 * z * math.sqrt(V / (G * m))     # the normal plan would claim 20%+ less
    clusters = t_test_units(0.1, V / m, 0.05, 0.8)
    assert (row["needed_clusters"], row["needed_items"]) == (clusters, clusters * m)
    assert clusters > math.ceil(z * z * V / 0.1 ** 2 / m)
    text = " ".join(plan.sentences())
    assert f"a difference of {detectable:.4f} (mean score) has power 0.8" in text
    assert "the paired t-test on the cluster means, 5 degrees of freedom)" in text
    assert f"needs {clusters * m:,} items ({clusters} clusters) (t on {clusters - 1} degrees of freedom)" in text


def test_unequal_clusters_give_the_plan_fractional_degrees_of_freedom_and_say_why():
    """The plan takes n / m* clusters of the size-weighted mean size m*: 101 items in clusters of 20 is
    5.05 clusters, t on 4.05 df, and the sentence says where the fraction comes from."""
    rng = np.random.default_rng(3)
    sizes = np.array([2, 3, 3, 4, 20, 2, 3, 25, 4, 3, 2, 30])
    cl = np.repeat(np.arange(sizes.size), sizes)
    n = cl.size
    p = np.clip(0.6 + rng.normal(0, 0.1, sizes.size)[cl] + rng.normal(0, 0.1, n), 0.05, 0.95)
    ya = (rng.random((n, 2)) < p[:, None]).astype(float)
    yb = (rng.random((n, 2)) < (p - 0.05)[:, None]).astype(float)
    plan = item_planning(load_item_scores(_long({"A": ya, "B": yb}, cl), item_column="item", cluster_column="cluster",
                                          sample_column="sample"))
    row = plan.table.iloc[0]
    df = n / 20 - 1
    assert row["df"] == pytest.approx(df)
    V = row["variance"]
    assert row["detectable"] == pytest.approx(t_test_detectable(n / 20, V / 20, 0.05, 0.8), rel=1e-6)
    # the planned df are the design's J - 1 for J = 101 / 20 = 5.05, not a count of clusters, to 2 decimals as J is
    assert (f"the paired t-test on the cluster means, {df:.2f} degrees of freedom, the planned design's J − 1 for "
            f"J = {n} items / 20 per cluster (the size-weighted mean cluster size) = {n / 20:.2f} clusters, a planning "
            "quantity rather than a count of clusters") in plan.sentences()[0]
    assert n == 101 and f"{df:.2f}" == "4.05" and f"{n / 20:.2f}" == "5.05"
    # told apart from section 3's observed CR2 df, which come from the 12 clusters, a count printed whole
    seen = plan.table["observed_df"].iloc[0]
    assert (f"{seen:.2f}" == f"{df:.2f}") != (f"; a different number from section 3's {seen:.1f} Bell–McCaffrey degrees "
                                              f"of freedom, which its CR2 test of this pair takes from the file's "
                                              f"{sizes.size} observed clusters)" in plan.sentences()[0])


@pytest.mark.parametrize("b_once, compromise", [(0, True), (30, False)])
def test_a_plan_at_a_median_answer_count_neither_model_used_says_so(b_once, compromise):
    """A answers each of 60 items once; B five times, but once on the first ``b_once`` items. The 120
    counts' median is (1 + 5) / 2 = 3 when B always answers 5 times, a count neither model used, and 1
    (A's own) when B answers once on 30 items (90 ones of 120): only the first is called a compromise."""
    rng = np.random.default_rng(4)
    n = 60
    rows = [(f"q{i}", "A", 0, int(rng.random() < 0.6)) for i in range(n)]
    rows += [(f"q{i}", "B", j, int(rng.random() < 0.5)) for i in range(n) for j in range(1 if i < b_once else 5)]
    data = load_item_scores(pd.DataFrame(rows, columns=["item", "model", "sample", "score"]), item_column="item",
                            sample_column="sample")
    note = item_planning(data, alpha=0.05).table.iloc[0]["note"]
    samples = 3 if compromise else 1
    assert f"The plan takes {samples} answer" in note
    assert ("a compromise neither model used" in note) == compromise


def test_the_plan_sets_its_standard_error_beside_section_3s():
    """Issue rep-items8 #1: a paired interval far narrower than the plan's detectable difference is
    reconciled in words. Clusters whose mean differences are almost equal (an ICC below 0): section 3's
    CR2 standard error (written out with matrices, :func:`_references.cr2_dense`) is far below the
    plan's sqrt(V / n), with V the variance of the item differences (one answer per item, ICC read as 0),
    and the detectable difference is the t-test's (by quadrature), not the interval's half-width."""
    from _references import cr2_dense

    rng = np.random.default_rng(11)
    G, m = 6, 10
    cl = np.repeat(np.arange(G), m)
    pa = rng.uniform(0.3, 0.7, G * m)
    raw = rng.normal(0, 0.1, G * m)
    d = raw - np.bincount(cl, raw)[cl] / m + 0.03 + rng.normal(0, 0.002, G)[cl]
    pb = pa - d
    frame = _long({"A": pa[:, None], "B": pb[:, None]}, cl).drop(columns="sample")
    data = load_item_scores(frame, item_column="item", cluster_column="cluster")
    plan = item_planning(data, alpha=0.05)
    row = plan.table.iloc[0]
    V = float(np.var(d, ddof=1))
    plan_se = math.sqrt(V / (G * m))
    seen, _ = cr2_dense(d, cl)
    assert row["icc"] == 0 and row["icc_raw"] < 0
    assert row["plan_se"] == pytest.approx(plan_se, rel=1e-9)
    assert row["observed_clustered_se"] == pytest.approx(seen, rel=1e-6)
    assert plan_se / seen > 3                               # the construction makes the plan's far larger
    # on 6 clusters a CR2 SE below 0.8 times the items-independent one is set aside (section 3's guard):
    # section 3 decided with sd(d) / sqrt(n), and the plan is set beside that one (brief rep-items12 #3)
    independent = float(np.std(d, ddof=1) / math.sqrt(G * m))
    assert bool(row["observed_guarded"]) and row["observed_se"] == pytest.approx(independent, rel=1e-9)
    detectable = t_test_detectable(G, V / m, 0.05, 0.8)
    text = " ".join(plan.sentences())
    assert (f"the plan's standard error of the mean difference on these {G * m} items, sqrt(V / n) = {plan_se:.4f}, "
            f"is built from the parts in the table (V = {V:.4f}, with 1 answer per item and the ICC read as 0), "
            f"section 3's, {independent:.4f}, from the spread of the items' observed differences taken as "
            f"independent (the items-independent standard error, which section 3 used for this pair in place of "
            f"its CR2 one, {seen:.4f}), and the plan's is {plan_se / independent:.2f} times section 3's; the ICC "
            f"estimate below 0 shows in that CR2 standard error (the plan's is {plan_se / seen:.2f} times it)") in text
    # the power at 0.8 times the detectable difference, by quadrature: less than planned, far from "missed"
    smaller = t_test_power(G, 0.8 * detectable, V / m, 0.05)
    assert 0.5 < smaller < 0.7 and row["power_smaller"] == pytest.approx(smaller, abs=1e-6)
    assert (f"; a true difference of 0.8 times it, {0.8 * detectable:.4f}, has power {smaller:.2f}: a smaller true "
            "difference is found with less than the planned power, and not finding it would not show it absent") in text
    assert "usually" not in text
    assert (f"the detectable difference, {detectable:.4f}, is {detectable / plan_se:.2f} times the plan's standard "
            "error") in text and "not the half-width of an interval" in text
    from evallib.report._items_sections import _planning_sentence
    assert (f"the plan's standard error of the difference is {plan_se / independent:.2f} times section 3's against "
            "B, section 3's being the items-independent standard error it used in place of the CR2 one") in (
        _planning_sentence(plan))


@pytest.mark.parametrize("G", [6, 29, 30])
def test_the_icc_bound_on_few_clusters_is_called_rough(G):
    """Issue rep-items8 #2: Fisher's large-sample SE of the ICC on few clusters overstates precision;
    below FEW_CLUSTERS the bound is said to be a large-sample approximation, with the clusters counted."""
    from evallib.report._items_inputs import FEW_CLUSTERS

    assert FEW_CLUSTERS == 30
    rng = np.random.default_rng(G)
    m = 8
    cl = np.repeat(np.arange(G), m)
    pa = rng.uniform(0.3, 0.7, G * m)
    raw = rng.normal(0, 0.1, G * m)
    pb = pa - np.clip(raw - np.bincount(cl, raw)[cl] / m, -0.25, 0.25) - 0.02      # equal cluster means: an ICC below 0
    frame = _long({"A": pa[:, None], "B": pb[:, None]}, cl).drop(columns="sample")
    plan = item_planning(load_item_scores(frame, item_column="item", cluster_column="cluster"))
    assert plan.table["icc_raw"].iloc[0] < 0
    text = " ".join(plan.sentences())
    rough = (f"on only {G} clusters (fewer than 30) that standard error is a large-sample approximation, "
             "so the bound is rough")
    assert (rough in text) == (G < 30) and "are not ruled out" in text


def test_section_6_intro_does_not_say_a_smaller_difference_is_usually_missed():
    """At alpha 0.05 and power 0.8, 0.8 times the detectable difference has power about 0.61
    (normal approximation, by hand), so "usually missed" is false; the intro says "less than the planned power"."""
    import json
    from pathlib import Path

    assert stats.norm.cdf(0.8 * (stats.norm.isf(0.025) + stats.norm.ppf(0.8)) - stats.norm.isf(0.025)) > 0.5
    nb = json.loads((Path(__file__).parents[1] / "notebooks" / "report_items.ipynb").read_text())
    text = " ".join("".join(c["source"]).replace("\n", " ") for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "usually be missed" not in text and "found with less than the planned power" in text
