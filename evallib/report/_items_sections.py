"""The per-item report's sections: one function per section computes its numbers.

Each function takes the checked :class:`~evallib.report.ItemScores` and
returns a tidy DataFrame or a small frozen result (or :class:`~evallib.report.Skipped`
with a one-line reason), computed with the functions of :mod:`evallib.items`:

1. :func:`summarise_items` -- items, models, samples, clusters, what the report assumes.
2. :func:`model_means` -- each model's mean with its interval
   (:func:`evallib.items.item_mean`: Wilson's interval for 0/1 scores, on the effective
   sample size with clusters or several answers; CR2 with Bell–McCaffrey df otherwise).
3. :func:`pairwise_items` -- every pair's paired difference
   (:func:`evallib.items.leaderboard_pairs`: CR2 clustered when clusters are given,
   Holm or Benjamini–Hochberg), with McNemar's mid-p test and the Bonett–Price interval
   beside it where they apply (0/1 scores, one answer per item, no clusters:
   :func:`evallib.items.paired_item_difference`).
4. :func:`sample_analysis` -- with repeated answers: between- and within-item variance
   (:func:`evallib.items.variance_components`) and, for 0/1 scores, pass@k and pass^k
   (:func:`evallib.items.pass_at_k`).
5. :func:`leaderboard` -- the leader's not-separated group (:func:`evallib.items.tie_group`),
   bootstrap rank intervals and the share of resamples ranked first (:func:`evallib.items.rank_intervals`).

:func:`items_summary_text` turns them into Markdown bullets, effect sizes and intervals
first; every name from the file passes through :func:`~evallib.report._prose.escape`, so that nothing from
the file can become markup in the HTML page.

References
----------
E. Miller (2024), Adding error bars to evals, arXiv:2411.00640.
R. M. Bell and D. F. McCaffrey (2002), Survey Methodology 28(2), 169-181.
M. W. Fagerland, S. Lydersen and P. Laake (2013), BMC Medical Research Methodology 13, 91.
S. Holm (1979), Scandinavian Journal of Statistics 6, 65-70; Y. Benjamini and Y. Hochberg
(1995), JRSS B 57, 289-300.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats
from scipy.special import gammaln, xlogy

from .._compat import moved_names, renamed_keywords
from .._inference import wilson_effective
from .._multitest import FDR_ADJUSTMENTS, adjust_pvalues
from .._plotting import get_axes
from .._results import table_metadata
from .._validate import check_alpha, check_choice, check_count, check_rng
from ..items import (
    LEADERBOARD_ADJUSTMENTS,
    TieGroup,
    item_mean,
    leaderboard_pairs,
    paired_item_difference,
    pass_at_k,
    rank_intervals,
    tie_group,
    variance_components,
)
from ..planning import (
    item_difference_variance,
    item_minimum_detectable_difference,
    item_power,
    item_sample_size,
)
from .._cr2 import cr2_mean_se
from ._items_inputs import FEW_CLUSTERS, FEW_ITEMS, TASK_CLUSTER, ItemScores
from ._prose import (
    MACHINE_ZERO,
    beside_bound,
    escape,
    join_names,
    level_text,
    plain,
    plot_text,
    plural,
    pvalue_cell,
    signed,
)
from ._sections import Skipped, check_min_difference
from ._text import ADJUST_NAME, adjusted_p_text, pvalue_header

__all__ = [
    "ItemsOverview",
    "SampleAnalysis",
    "Leaderboard",
    "independence_note",
    "summarise_items",
    "model_means",
    "pairwise_items",
    "sample_analysis",
    "leaderboard",
    "format_item_means",
    "format_item_pairs",
    "format_components",
    "format_passk",
    "format_ranks",
    "tie_group_text",
    "interval_conventions_note",
    "components_se_note",
    "effective_n_note",
    "plot_item_means",
    "plot_item_pairs",
    "icc_null_se",
    "weighted_cluster_size",
    "interval_disagrees",
    "pairs_interval_note",
    "pairs_guard_note",
    "rank_bootstrap_note",
    "rank_redraw_note",
    "pairs_identical_note",
    "items_summary_text",
]

#: Names listed in one sentence before "and N more".
_LIST_LIMIT = 10


def _clusters_arg(data: ItemScores):
    return None if data.clusters is None else data.clusters


# ------------------------------------------------------------------ section 1
def independence_note(data: ItemScores, *, markdown: bool = False) -> str:
    """What the intervals assume about the items, in words (one sentence or two).

    Without clusters: the items are taken as independent -- said in words, with what to
    do when they are not. With clusters: the clusters are taken as independent, the
    items within one may be correlated; on fewer than :data:`~evallib.report.FEW_CLUSTERS` clusters
    the sentence adds section 3's guard (a pair whose CR2 standard error is below
    :data:`CLUSTERED_SE_RATIO` times the items-independent one is decided with the latter). ``markdown``: the cluster column's name is
    escaped (:func:`~evallib.report._prose.escape`) for a Markdown output; plain text otherwise.
    """
    if data.clustered:
        column = escape(data.cluster_column) if markdown else data.cluster_column
        guard = ("" if data.n_clusters >= FEW_CLUSTERS else
                 f" On these {data.n_clusters:,} clusters (fewer than {FEW_CLUSTERS}) one exception is made: a pair "
                 f"whose cluster-robust standard error is below {CLUSTERED_SE_RATIO:g} times the one that takes the "
                 "items as independent is decided with that larger, items-independent standard error, and section "
                 "3 names the pair.")
        return (f"The items come in {data.n_clusters:,} clusters ({column}): items of one "
                "cluster may be correlated, and every interval and test is cluster-robust, taking only the "
                "clusters as independent of one another." + guard)
    return ("No cluster column was given, so the items are taken as independent: every interval and test assumes "
            "that one item's score says nothing about another's. If items share a passage, a source, a template "
            "or a school, name that column (--cluster-column, cluster_column=): where the items of one cluster are alike, "
            "ignoring the clusters makes the intervals too narrow and the tests too eager.")


@dataclass(frozen=True)
class ItemsOverview:
    """Section 1: what the per-item file holds and what the report assumes.

    Attributes
    ----------
    n_items, n_models : items and models.
    models : the models' names.
    n_clusters : clusters (None without clusters).
    cluster_sizes : smallest, median and largest cluster (None without clusters).
    samples : fewest and most answers of one item by one model.
    binary : every score is 0 or 1.
    layout : how the file was read (wide, long, lm-eval, inspect).
    n_rows : rows (or sample records) read.
    assumption : :func:`independence_note`.
    notes : how the file was read (plain sentences).
    warnings : few items, few clusters.
    """

    n_items: int
    n_models: int
    models: tuple[str, ...]
    n_clusters: int | None
    cluster_sizes: tuple[int, float, int] | None
    samples: tuple[int, int]
    binary: bool
    layout: str
    n_rows: int
    assumption: str
    notes: tuple[str, ...]
    warnings: tuple[str, ...]

    def text(self) -> str:
        """The overview as plain text (what the report prints)."""
        lines = [f"items: {self.n_items:,}", f"models: {self.n_models:,}",
                 f"scores: {'0/1 (wrong/right)' if self.binary else 'numbers in [0, 1]'}",
                 f"read as: {self.layout} ({self.n_rows:,} rows)"]
        lo, hi = self.samples
        lines.append("answers per item and model: " + (f"{lo}" if lo == hi else f"{lo} to {hi}"))
        if self.n_clusters is None:
            lines.append("clusters: none (items taken as independent)")
        else:
            a, med, b = self.cluster_sizes
            lines.append(f"clusters: {self.n_clusters:,} (items per cluster: smallest {a}, median {med:g}, "
                         f"largest {b})")
        lines.append("models: " + ", ".join(self.models))
        lines += [f"note: {n}" for n in self.notes]
        lines += [f"warning: {w}" for w in self.warnings] or ["warnings: none"]
        return "\n".join(lines)


#: Below this many independent units (items, or clusters with clusters) section 1 warns that the paired
#: t-test's size exceeds alpha, with the file's own size: exact for 0/1 scores (:func:`_paired_t_size`), else
#: by Monte Carlo (:func:`_flipped_size`). The excess does not end at 20: on independent 0/1 items the exact size
#: at alpha = 0.05 is 0.054 to 0.078 from 20 to 49 items, 0.053 to 0.067 from 50 to 99 and 0.053 to 0.062 from
#: 100 to 199, and 0.052 to 0.058 from 200 to 1,000 (measured by :func:`_paired_t_size`, each checked by Monte
#: Carlo in tests/test_report_items_coldread3.py); from 200 units on the report does not warn.
FEW_TEST_UNITS = 200
#: Draws and seed of the Monte Carlo size of section 3's paired test on a file's own differences.
SIZE_DRAWS = 2000
SIZE_SEED = 0


def _paired_t_size(n: int, alpha: float) -> tuple[float, float]:
    """The exact size of section 3's paired t-test on ``n`` independent items of 0/1 scores, one answer each,
    at its own level ``alpha``: its rejection rate when the two models are equally good, maximised over the
    share ``q`` of items on which they disagree (``q`` = 0.01, 0.02, ..., 1).

    Under the null each item's difference is +1 or -1 with probability ``q / 2`` each and 0 otherwise; the
    counts ``(n+, n-)`` are trinomial, and the test (:func:`evallib.items.leaderboard_pairs`, that is
    ``scipy.stats.ttest_rel``) rejects when ``p <= alpha``, with differences of no spread and a mean other
    than 0 rejected (``p = 0``) and a mean of 0 not. Returns ``(size, q)`` at the largest size.

    >>> size, q = _paired_t_size(8, 0.05)
    >>> round(size, 4), q
    (0.0856, 0.91)
    """
    n = check_count(n, "n", minimum=2)
    alpha = check_alpha(alpha)
    a, b = (v.ravel() for v in np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij"))
    keep = a + b <= n
    a, b = a[keep], b[keep]
    z = n - a - b
    mean = (a - b) / n
    ss = a * (1 - mean) ** 2 + b * (1 + mean) ** 2 + z * mean ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / np.sqrt(ss / (n - 1) / n)
    p = np.where(a == b, 1.0, np.where(ss <= MACHINE_ZERO, 0.0, 2 * stats.t.sf(np.abs(t), n - 1)))
    reject = p <= alpha
    log_coef = gammaln(n + 1) - gammaln(a + 1) - gammaln(b + 1) - gammaln(z + 1)
    qs = np.round(np.arange(1, 101) / 100, 2)
    sizes = np.array([np.exp(log_coef + xlogy(a + b, q / 2) + xlogy(z, 1 - q))[reject].sum() for q in qs])
    j = int(np.argmax(sizes))
    return float(sizes[j]), float(qs[j])


def _flipped_size(data: ItemScores, alpha: float, *, draws: int = SIZE_DRAWS,
                  seed: int = SIZE_SEED) -> list[tuple[str, str, float, float]]:
    """The size of section 3's unadjusted paired test on this file's own differences, by Monte Carlo.

    For every pair of models, the per-item differences ``d`` on the items both scored are multiplied by a
    random sign per cluster (per item without clusters): swapping the two models' scores in a random half of
    the clusters, a null under which the two are equally good that keeps the file's clusters, their sizes
    and its differences. Each draw is tested as section 3 tests it, unadjusted: the CR2 t-test with the
    Bell–McCaffrey degrees of freedom (`evallib._cr2.cr2_mean_se`, the one
    :func:`evallib.items.leaderboard_pairs` uses), and on fewer than :data:`FEW_CLUSTERS` clusters the
    items-independent standard error where the CR2 one is below :data:`CLUSTERED_SE_RATIO` times it; a
    draw whose differences have no spread rejects when their mean is not 0. Returns, per pair with a
    difference, ``(a, b, size, mc_se)``: the share of ``draws`` draws that reject at ``alpha`` and its
    binomial Monte Carlo standard error (draws from ``numpy.random.default_rng(seed)``).
    """
    draws = check_count(draws, "draws", minimum=1)
    alpha = check_alpha(alpha)
    rng = np.random.default_rng(seed)
    means = data.item_means()
    out = []
    chunk = max(1, min(draws, 2_000_000 // max(1, data.n_items)))
    for i, a in enumerate(data.models):
        for b in data.models[i + 1:]:
            x, y = means[a].to_numpy(float), means[b].to_numpy(float)
            shared = ~np.isnan(x) & ~np.isnan(y)
            d = x[shared] - y[shared]
            if d.size < 2 or np.all(d == 0):
                continue
            if data.clustered:
                codes = np.unique(data.clusters[shared], return_inverse=True)[1]
                groups = int(codes.max()) + 1
            else:
                codes, groups = None, d.size
            guard = data.clustered and groups < FEW_CLUSTERS
            rejected = 0
            for s in range(0, draws, chunk):
                rows = min(chunk, draws - s)
                signs = rng.choice(np.array([-1.0, 1.0]), size=(groups, rows))
                flipped = d[:, None] * (signs if codes is None else signs[codes])
                mean, se, df = cr2_mean_se(flipped, None if codes is None else codes, groups)
                if guard:
                    independent = cr2_mean_se(flipped, None, d.size)[1]
                    se = np.where(se < CLUSTERED_SE_RATIO * independent, independent, se)
                with np.errstate(divide="ignore", invalid="ignore"):
                    p = np.where(se > MACHINE_ZERO, 2 * stats.t.sf(np.abs(mean / se), df),
                                 np.where(np.abs(mean) > MACHINE_ZERO, 0.0, 1.0))
                rejected += int(np.count_nonzero(p <= alpha))
            share = rejected / draws
            out.append((a, b, share, math.sqrt(share * (1 - share) / draws)))
    return out


def _few_units_warning(data: ItemScores, alpha: float) -> str | None:
    """Section 1's warning that the paired t-test exceeds its level on fewer than :data:`FEW_TEST_UNITS`
    independent units (items, or clusters with clusters), in the file's own numbers: with 0/1 scores, one
    answer per item and no clusters the test's exact size on the file's items (:func:`_paired_t_size`),
    otherwise its size on the file's own differences by Monte Carlo (:func:`_flipped_size`); none when
    that size does not exceed ``alpha``."""
    units = data.n_clusters if data.clustered else data.n_items
    if units >= FEW_TEST_UNITS or units < 2:
        return None
    exact = data.binary and data.max_samples == 1 and not data.clustered
    if data.clustered:
        n_g = np.bincount(data.clusters)
        per = (f"{int(n_g.min()):,}" if n_g.min() == n_g.max() else f"{int(n_g.min()):,} to {int(n_g.max()):,}")
        what = (f"this file's {units:,} clusters, which hold its {data.n_items:,} items ({per} per cluster), the units section 3's tests count (their t reference has at "
                f"most {units - 1:,} degrees of freedom)")
    else:
        what = f"this file's {units:,} items"
    if exact:
        size, q = _paired_t_size(units, alpha)
        if size <= alpha:
            return None
        return (f"the paired t-test's level on few items: on {what} the paired t-test of section 3, at its own "
                f"level alpha = {alpha:g}, declares two equally good models different with probability up to "
                f"{size:.3f}, not {alpha:g} (its exact size on {units:,} items of 0/1 scores, by enumerating the "
                f"items on which the two disagree, largest when they disagree on a share {q:g} of the items); "
                "read a p-value near alpha, or a verdict that turns on it, as unsettled; McNemar's mid-p test "
                "beside it counts only the items on which the two disagree.")
    sizes = _flipped_size(data, alpha)
    if not sizes:
        return None
    a, b, size, mc = max(sizes, key=lambda r: r[2])
    if size - 2 * mc <= alpha:
        return None
    low = min(r[2] for r in sizes)
    spread = ("" if len(sizes) == 1 else
              f", the largest of the {len(sizes)} pairs' (the smallest {low:.3f})")
    return (f"the paired t-test's level on few units: on {what}, section 3's unadjusted paired test of "
            f"{a} and {b}, run on the file's own differences with the two models' scores swapped in a random "
            f"half of the {'clusters' if data.clustered else 'items'} (a null under which the two are equally "
            f"good; {SIZE_DRAWS:,} draws, seed {SIZE_SEED}), rejects at alpha = {alpha:g} in a share {size:.3f} "
            f"of the draws (Monte Carlo SE {mc:.3f}){spread}, not {alpha:g}: the t reference is a large-sample "
            "approximation that so few units do not meet (Bowyer, Aitchison and Ivanova 2025: do not use the "
            "central limit theorem in evals with fewer than a few hundred data points); read a p-value near "
            "alpha, or a verdict that turns on it, as unsettled.")


def summarise_items(data: ItemScores, *, alpha: float = 0.05) -> ItemsOverview:
    """Section 1: sizes, answers per item, clusters, the independence assumption, warnings.

    Warns below :data:`~evallib.report.FEW_ITEMS` items (with the half-width
    of a 95% interval for a mean near 0.5), below
    :data:`~evallib.report.FEW_CLUSTERS` clusters (the cluster-robust
    intervals then rest on few degrees of freedom) and below :data:`FEW_TEST_UNITS` items
    (clusters with clusters), where the paired t-test's size can exceed ``alpha``: the warning gives
    the file's own size, exact for 0/1 scores with one answer per item and no clusters, otherwise
    by Monte Carlo on the file's differences (:func:`_few_units_warning`).
    """
    alpha = check_alpha(alpha)
    counts = data.sample_counts()
    warnings = []
    if data.n_items < FEW_ITEMS:
        half = 1.96 * math.sqrt(0.25 / data.n_items)
        warnings.append(f"few items: with {data.n_items} items a mean near 0.5 is only known to about "
                        f"±{half:.2f} (95% interval, 1.96 sqrt(0.25 / items): items taken as independent, one answer each; the "
                        "intervals of section 2 allow for clusters and repeated answers, and can be wider); differences between models are resolved only as far as their "
                        "paired intervals (section 3) allow, which can be much narrower.")
    sizes = None
    if data.clustered:
        n_g = np.bincount(data.clusters)
        sizes = (int(n_g.min()), float(np.median(n_g)), int(n_g.max()))
        if data.n_clusters < FEW_CLUSTERS:
            warnings.append(f"few clusters: the cluster-robust standard errors rest on {data.n_clusters} clusters, "
                            "so they are themselves uncertain (noisy, not necessarily large), and their t reference "
                            f"has at most {data.n_clusters - 1} degrees of freedom ({data.n_clusters} clusters less 1; "
                            "the CR2 Bell–McCaffrey degrees of freedom can be fewer), which is what widens the "
                            "intervals, and the rank "
                            f"bootstrap resamples only these {data.n_clusters} clusters, so its shares and rank "
                            "intervals are rough.")
    few_units = _few_units_warning(data, alpha)
    if few_units:
        warnings.append(few_units)
    notes = tuple(s for s in [data.read_note] if s)
    return ItemsOverview(n_items=data.n_items, n_models=data.n_models, models=data.models,
                         n_clusters=data.n_clusters if data.clustered else None, cluster_sizes=sizes,
                         samples=(int(counts.min()), int(counts.max())), binary=data.binary, layout=data.layout,
                         n_rows=data.n_rows, assumption=independence_note(data), notes=notes,
                         warnings=tuple(warnings))


# ------------------------------------------------------------------ section 2
def model_means(data: ItemScores, *, alpha: float = 0.05) -> pd.DataFrame:
    """Section 2: each model's mean score with its interval, best first.

    :func:`evallib.items.item_mean` with ``method="auto"`` on each model's items x
    answers (item means first, so an item answered ten times counts once): for 0/1
    scores Wilson's interval (on the Korn–Graubard effective sample size when the items
    are clustered or answered several times), otherwise the CR2 t interval with
    Bell–McCaffrey df (the item-level t interval without clusters).

    Returns
    -------
    pandas.DataFrame
        Indexed by model, best first (ties in file order): ``mean``, ``low``, ``high``,
        ``se``, ``df``, ``method`` (``"wilson"``; ``"cr2"`` with clusters; ``"t"`` without them, where
        :func:`evallib.items.item_mean`'s CR2 has one item per cluster and is the ordinary t interval over
        items, ``s / sqrt(n)`` on ``n - 1`` df), ``unclustered_se`` (the standard error
        if the items were independent), ``design_effect`` (``(se /
        unclustered_se)^2``, the variance ratio of the clusters, NaN without clusters),
        ``interval_design_effect`` (the design effect the interval itself uses: for
        Wilson's interval on the effective sample size ``n_0/1 / n_eff``, which is at least 1
        because ``n_eff`` is capped at the number of 0/1 scores ``n_0/1``, the answers, items x
        answers per item (Korn and Graubard's truncation: a variance below ``p (1 - p) / n_0/1``,
        that of independent answers, is taken at the cap); for Wilson's own case 1; for a t
        interval the variance ratio), ``effective_n`` (Wilson on the effective sample size:
        ``n_eff``; else NaN), ``independent_effective_n`` (the sample size of the items-independent
        interval: the number of items for Wilson's own interval, one 0/1 answer per item, else the
        ``n_eff`` that the items-independent variance ``unclustered_se^2`` gives), ``cap`` (the
        smaller of ``n_0/1`` and ``independent_effective_n``: one rule for every model, so that a
        cluster-robust variance below the items-independent one, which a variance ratio below 1 gives
        by chance when the clusters hardly matter, narrows no model's interval, whether it answered
        each item once or several times; the interval is :func:`evallib._inference.wilson_effective`
        with that cap, and ``low``, ``high`` are its), ``scores`` (0/1 scores or answers counted), ``answers`` (mean answers per item),
        ``answers_min``, ``answers_max`` (the fewest and most answers to one of the items it scored),
        ``independent_low``, ``independent_high``, ``independent_df`` (the interval
        :func:`evallib.items.item_mean` gives without the clusters, the items taken as independent,
        and its degrees of freedom, inf for the normal quantile; the interval itself without
        clusters), ``note``, ``n_items`` (the items the model scored: each mean is on its own
        items). ``attrs``: ``alpha``.
    """
    alpha = check_alpha(alpha)
    rows = []
    for name in data.models:
        block = data.model_scores(name)
        r = item_mean(block, clusters=_clusters_arg(data), alpha=alpha, missing="drop")
        ratio = r.se / r.unclustered_se if r.unclustered_se > 0 else float("nan")
        n_obs = int(np.count_nonzero(np.isfinite(block)))
        counts = data.sample_counts()[:, list(data.models).index(name)]
        counts = counts[counts > 0]                     # answers per item, over the items the model scored
        effective = alone_effective = cap = float("nan")
        r_low, r_high = r.low, r.high
        alone = r if not data.clustered else item_mean(block, alpha=alpha, missing="drop")
        if r.method == "wilson" and "effective sample size" in r.note.lower():
            # the items-independent interval's own sample size: Wilson's binomial n with one 0/1 answer per
            # item, else the effective sample size its variance gives (capped at the 0/1 scores)
            alone_effective = (float(r.n_items) if not math.isfinite(alone.df) else
                               float(wilson_effective(r.estimate, r.unclustered_se ** 2, r.df, n_obs, alpha,
                                                      n_items=r.n_items)[2]))
            # one cap for every model: the clusters never raise the effective sample size above the
            # items-independent one (a design effect of the clusters of at least 1), nor the answers above n_0/1
            cap = min(float(n_obs), alone_effective)
            low, high, effective = (float(v) for v in wilson_effective(r.estimate, r.se * r.se, r.df, cap, alpha,
                                                                       n_items=r.n_items))
            r_low, r_high = low, high
            used = n_obs / effective
        elif r.method == "wilson":
            used = 1.0
        else:
            used = ratio * ratio
        # without clusters item_mean's "cr2" has one item per cluster: HC2, which for a mean is the ordinary
        # t interval over items (s / sqrt(n), n - 1 df); it is named so, not CR2 / Bell–McCaffrey
        method = "t" if r.method == "cr2" and not data.clustered else r.method
        rows.append({"model": name, "mean": r.estimate, "low": r_low, "high": r_high, "se": r.se, "cap": cap,
                     "independent_low": alone.low, "independent_high": alone.high, "independent_df": alone.df,
                     "independent_effective_n": alone_effective,
                     "df": r.df, "method": method, "unclustered_se": r.unclustered_se,
                     "design_effect": ratio * ratio if data.clustered else float("nan"),
                     "interval_design_effect": used, "effective_n": effective, "scores": n_obs,
                     "answers": r.n_samples, "answers_min": int(counts.min()), "answers_max": int(counts.max()),
                     "note": r.note, "n_items": r.n_items})
    out = pd.DataFrame(rows).set_index("model")
    order = np.lexsort((np.arange(len(out)), -out["mean"].to_numpy()))
    out = out.iloc[order]
    out.attrs["alpha"] = alpha
    out.attrs["n_clusters"] = data.n_clusters if data.clustered else None
    return out


def _few_clusters_noise(n_clusters: int | None, what: str, *, many: bool = False) -> str:
    """The caveat on an estimate from the clusters (a variance ratio, a design effect, an effective sample size,
    a cluster-robust standard error) when there are fewer than :data:`~evallib.report.FEW_CLUSTERS` of them:
    ``"; <what> rests on only J clusters (fewer than 30), so it is itself noisy"`` (``many``: the plural verb and
    pronoun), else ``""``.

    >>> _few_clusters_noise(6, "this ratio")
    '; this ratio rests on only 6 clusters (fewer than 30), so it is itself noisy'
    >>> _few_clusters_noise(67, "this ratio"), _few_clusters_noise(None, "this ratio")
    ('', '')
    """
    if n_clusters is None or n_clusters >= FEW_CLUSTERS:
        return ""
    return (f"; {what} {'rest' if many else 'rests'} on only {n_clusters:,} clusters (fewer than {FEW_CLUSTERS}), "
            f"so {'they are themselves' if many else 'it is itself'} noisy")


def format_item_means(means: pd.DataFrame) -> pd.DataFrame:
    """Section 2's table as text: mean, interval, standard error, method."""
    level = level_text(table_metadata(means, "alpha", made_by="evallib.report.model_means"))
    labels = {"wilson": "Wilson", "cr2": "CR2 t", "t": "t over items", "naive": "normal"}
    out = pd.DataFrame({
        "mean": [f"{v:.4f}" for v in means["mean"]],
        f"{level} interval": [f"{lo:.4f} to {hi:.4f}" for lo, hi in zip(means["low"], means["high"])],
        "SE": [f"{v:.4f}" for v in means["se"]],
        "SE if items independent": [f"{v:.4f}" for v in means["unclustered_se"]],
        "interval": [labels.get(m, m) + (f", {df:.1f} df" if math.isfinite(df) and m != "wilson" else "")
                     + (f" on the effective sample size {n:,.1f}" if m == "wilson" and math.isfinite(n) else "")
                     for m, df, n in zip(means["method"], means["df"], means["effective_n"])],
    }, index=means.index)
    return out


#: The warning every figure of separate intervals carries.
OVERLAP_WARNING = "overlap of two intervals is not a test: section 3 compares the pairs"


def plot_item_means(means: pd.DataFrame, ax=None, *, title: str | None = None):
    """Each model's mean and interval, one row per model, best on top.

    Separate intervals invite the overlap reading, which is wrong both ways: paired models
    whose intervals overlap can differ (the items' difficulty cancels in the paired
    difference), so the title always carries :data:`OVERLAP_WARNING` and
    :func:`plot_item_pairs` draws the paired differences.

    Parameters
    ----------
    means : DataFrame from :func:`model_means`
    ax : matplotlib Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    n = len(means)
    ax = get_axes(ax, figsize=(6.8, max(2.0, 0.32 * n + 1.2)))
    y = np.arange(n)
    ax.hlines(y, means["low"], means["high"], colors="C0", linewidth=4)
    ax.plot(means["mean"], y, "o", color="k", markersize=4)
    ax.set_yticks(y)
    ax.set_yticklabels([plot_text(m) for m in means.index])
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlabel("mean score over items")
    level = level_text(table_metadata(means, "alpha", made_by="evallib.report.model_means"))
    ax.set_title(f"{title or f'{level} intervals, best first'}\n({OVERLAP_WARNING})", fontsize="medium")
    ax.figure.tight_layout()
    return ax


def interval_disagrees(pairs: pd.DataFrame) -> np.ndarray:
    """Which pairs' verdict (the adjusted test's ``reject``) and joint interval disagree.

    The verdict follows the adjusted p-value (Holm, BH, Bonferroni or none); the interval
    is the simultaneous Bonferroni one (level ``alpha / m``). Holm's step-down test and BH
    reject whatever Bonferroni rejects and can reject more, so a pair can differ by the
    test while its interval still covers 0 (the interval is the wider one); with
    ``adjust="bonferroni"`` or ``"none"`` the two agree.

    Returns
    -------
    numpy.ndarray of bool, one per row of ``pairs``.
    """
    excludes = (pairs["low"].to_numpy(float) > 0) | (pairs["high"].to_numpy(float) < 0)
    return pairs["reject"].to_numpy(bool) != excludes


def _joint(adjust: str, n_pairs: int) -> bool:
    """Whether the pairs' intervals are joint (adjusted, over more than one pair): one pair's Bonferroni
    interval is its own interval, and its adjusted test the unadjusted one."""
    return adjust != "none" and n_pairs > 1


def _n_tested(pairs: pd.DataFrame) -> int:
    """How many of section 3's pairs have a test: all but those of models that answered every item alike,
    which are not part of the multiplicity family (:func:`pairwise_items`)."""
    return int((~pairs["identical"].to_numpy(bool)).sum()) if "identical" in pairs else len(pairs)


def _adjust_words(adjust: str, n_pairs: int, identical: int = 0) -> str:
    """The adjustment over the pairs in words: ``"Holm over all 6 pairs"``; one pair needs none.

    ``n_pairs`` counts the pairs tested; ``identical`` the pairs of models that answered every item alike,
    which have no test and are not part of the family.

    >>> _adjust_words("holm", 2, identical=1)
    'Holm over the 2 pairs tested; the pair that answered every item alike is not part of the family'
    """
    if adjust == "none":
        return "no adjustment for multiplicity"
    left = ("" if not identical else
            f"; {'the pair' if identical == 1 else f'the {identical:,} pairs'} that answered every item alike "
            f"{'is' if identical == 1 else 'are'} not part of the family")
    if n_pairs == 1:
        return ("one pair tested, so no adjustment for multiplicity" if identical else
                "one pair, so no adjustment for multiplicity") + left
    return (f"{ADJUST_NAME[adjust]} over the {n_pairs:,} pairs tested" if identical else
            f"{ADJUST_NAME[adjust]} over all {n_pairs:,} pairs") + left


def pairs_interval_note(pairs: pd.DataFrame, *, agree: bool = False) -> str | None:
    """The pairs whose verdict and joint interval disagree, in one sentence; None if there are none.

    With ``agree=True``, where none disagree, the sentence that says so for the pairs that have a test and
    an interval (not those that answered every item alike), in the singular for one pair and without
    "adjusted" or "joint" where one pair's test and interval are its own; None if no pair has an interval.

    >>> import pandas as pd
    >>> one = pd.DataFrame({"a": ["A"], "b": ["B"], "reject": [False], "low": [-0.1], "high": [0.2]})
    >>> one.attrs.update(made_by="evallib.report.pairwise_items", adjust="holm", interval_level=0.05)
    >>> pairs_interval_note(one, agree=True)
    "For the one pair the test's verdict and its interval agree."
    """
    adjust, interval_level = table_metadata(pairs, "adjust", "interval_level", made_by="evallib.report.pairwise_items")
    mask = interval_disagrees(pairs)
    if not mask.any():
        if not agree:
            return None
        tested = int((~pairs["identical"].to_numpy(bool)).sum()) if "identical" in pairs else len(pairs)
        if not tested:
            return None
        joint = _joint(adjust, tested)
        if tested == 1:
            return (f"For the {'one pair with a test' if len(pairs) > 1 else 'one pair'} the "
                    f"{'adjusted ' if joint else ''}test's verdict and its {'joint ' if joint else ''}interval agree.")
        return (f"For every pair{' with a test' if tested < len(pairs) else ''} the verdict of the "
                f"{'adjusted ' if adjust != 'none' else ''}test and the {'joint ' if joint else ''}interval agree.")
    rows = pairs[mask]
    differ = rows[rows["reject"].to_numpy(bool)]
    level = level_text(1 - interval_level, digits=4) if adjust != "none" else level_text(interval_level)
    name = f"{ADJUST_NAME[adjust]}'s" if adjust != "none" else "the unadjusted"
    parts = []
    if len(differ):
        shown = join_names((f"{escape(r.a)} - {escape(r.b)} = {signed(r.estimate)} ({signed(r.low)} to {signed(r.high)}, "
                            f"adjusted p {pvalue_cell(r.pvalue_adj)})" for r in differ.itertuples()),
                           limit=_LIST_LIMIT)
        parts.append(f"{name[0].upper()}{name[1:]} test declares {plural(len(differ), 'pair')} different "
                     f"although {'its' if len(differ) == 1 else 'their'} joint {level} "
                     f"interval{'' if len(differ) == 1 else 's'} still cover{'s' if len(differ) == 1 else ''} 0: "
                     f"{shown}. The verdict follows the adjusted test; the interval is the simultaneous Bonferroni "
                     f"one, which is wider than {name} test needs")
    rest = len(rows) - len(differ)
    if rest:
        parts.append(f"{plural(rest, 'pair')} whose joint interval leaves out 0 {'is' if rest == 1 else 'are'} not "
                     "declared different by the adjusted test")
    return "; ".join(parts) + "."


def plot_item_pairs(pairs: pd.DataFrame, ax=None, *, title: str | None = None):
    """Every pair's paired difference with its joint interval, and the line of no difference.

    This is the figure to judge differences by, whether or not the two models' own intervals
    overlap. The colour follows the verdict of the adjusted test (red: differ, blue: not
    separated); the interval is the simultaneous Bonferroni one (level ``alpha / m``), which
    can be wider than Holm's or BH's test needs, so a red pair can have an interval that
    covers 0: such pairs (:func:`interval_disagrees`) are drawn dashed and the title says so.

    Parameters
    ----------
    pairs : DataFrame from :func:`pairwise_items`
    ax : matplotlib Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    alpha, adjust, interval_level = table_metadata(pairs, "alpha", "adjust", "interval_level",
                                                   made_by="evallib.report.pairwise_items")
    n = len(pairs)
    ax = get_axes(ax, figsize=(6.8, max(2.0, 0.32 * n + 1.2)))
    y = np.arange(n)
    colors = np.where(pairs["reject"].to_numpy(bool), "C3", "C0")
    odd = interval_disagrees(pairs)
    ax.hlines(y, pairs["low"], pairs["high"], colors=colors, linewidth=4,
              linestyles=["dashed" if o else "solid" for o in odd])
    ax.plot(pairs["estimate"], y, "o", color="k", markersize=4)
    ax.axvline(0.0, color="0.3", linewidth=1, linestyle="--")
    ax.set_yticks(y)
    ax.set_yticklabels([f"{plot_text(a)} - {plot_text(b)}" for a, b in zip(pairs["a"], pairs["b"])])
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlabel("paired difference of the mean scores (A - B)")
    joint = (f"{level_text(1 - interval_level, digits=4)} joint intervals" if _joint(adjust, _n_tested(pairs))
             else f"{level_text(1 - interval_level if adjust != 'none' else alpha)} "
             + ("interval" if n == 1 else "intervals (unadjusted)"))
    how = ADJUST_NAME[adjust] + "'s adjusted test" if adjust != "none" else "the unadjusted test"
    head = f"Paired differences, {joint}: red = differ by {how}, blue = not separated"
    if odd.any():
        head += f"\n(dashed: {plural(int(odd.sum()), 'pair')} where the verdict and the interval disagree, see the note)"
    ax.set_title(title or head, fontsize="medium")
    ax.figure.tight_layout()
    return ax




# ------------------------------------------------------------------ section 3
def _mcnemar_applies(data: ItemScores) -> bool:
    return data.binary and data.max_samples == 1 and not data.clustered


#: Below this ratio of the clustered to the items-independent standard error of a paired difference, on
#: fewer than :data:`~evallib.report.FEW_CLUSTERS` clusters, section 3 decides with the larger one.
CLUSTERED_SE_RATIO = 0.8


def _guard_pairs(table: pd.DataFrame, data: ItemScores, means: pd.DataFrame, alpha: float, adjust: str) -> None:
    """Add the items-independent standard error of every pair, and guard the verdicts that rest on a small
    clustered one or on no difference at all (in place).

    Columns added: ``independent_se`` (``sd(d) / sqrt(n)`` of the per-item differences ``d`` on the items
    both scored, the paired SE if the items were independent), ``clustered_se`` (the test's own standard
    error from :func:`evallib.items.leaderboard_pairs`: CR2 with clusters), ``clustered_pvalue``,
    ``clustered_reject`` (its verdict with the same adjustment), ``cluster_size`` (the size-weighted mean
    ``sum m^2 / sum m`` of the pair's clusters; NaN without clusters), ``implied_icc`` (the ICC the ratio
    implies, ``((clustered_se / independent_se)^2 - 1) / (m - 1)``), ``guarded`` and ``identical``.

    ``guarded``: with clusters, fewer than :data:`FEW_CLUSTERS` of them, and a clustered standard error
    below :data:`CLUSTERED_SE_RATIO` times the independent one. With few clusters the CR2 standard error is
    itself noisy, and one far below the independent one means negative correlation within the clusters or
    noise -- not precision. Such a pair is decided with the larger of the two, the independent standard
    error, on the CR2 test's Bell–McCaffrey degrees of freedom: ``se``, ``statistic``, ``pvalue``, ``low``,
    ``high`` are replaced and ``pvalue_adj``, ``reject`` adjusted again over all pairs.

    ``identical``: the two models' item scores agree on every item both scored, so there is no difference to
    test: ``se``, ``statistic``, ``pvalue``, ``low``, ``high`` and ``pvalue_adj`` are NaN, and the pair is not
    part of the multiplicity family: the others' p-values are adjusted over the ``m`` pairs tested, and their
    joint (Bonferroni) intervals are at ``1 - alpha / m``, ``estimate -+ t.isf(alpha / (2 m), df) * se``
    (``attrs["interval_level"]`` and ``attrs["n_tested"]`` updated).
    """
    n = len(table)
    independent = np.full(n, np.nan)
    identical = np.zeros(n, dtype=bool)
    size = np.full(n, np.nan)
    labels = data.clusters
    for j, (a, b) in enumerate(zip(table["a"], table["b"])):
        x, y = means[a].to_numpy(float), means[b].to_numpy(float)
        shared = ~np.isnan(x) & ~np.isnan(y)
        d = x[shared] - y[shared]
        identical[j] = bool(np.all(d == 0))
        independent[j] = float(np.std(d, ddof=1) / math.sqrt(d.size))
        if labels is not None:
            counts = np.bincount(labels[shared])
            size[j] = weighted_cluster_size(counts[counts > 0])
    table["clustered_se"] = table["se"].to_numpy(float)
    table["clustered_pvalue"] = table["pvalue"].to_numpy(float)
    table["clustered_reject"] = table["reject"].to_numpy(bool)
    table["independent_se"] = independent
    table["cluster_size"] = size
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = table["clustered_se"].to_numpy(float) / independent
        table["implied_icc"] = np.where(size > 1, (ratio * ratio - 1) / (size - 1), np.nan)
    few = table.attrs.get("n_clusters") is not None and table.attrs["n_clusters"] < FEW_CLUSTERS
    guarded = few & ~identical & (independent > 0) & (ratio < CLUSTERED_SE_RATIO)
    table["guarded"] = guarded
    table["identical"] = identical
    tested = ~identical
    n_tested = int(tested.sum())
    if adjust != "none" and 0 < n_tested < n:
        # the identical pairs have no test: the family is the pairs tested, and their joint intervals widen less
        table.attrs["interval_level"] = 1.0 - alpha / n_tested
        df = table["df"].to_numpy(float)[tested]
        est = table["estimate"].to_numpy(float)[tested]
        se = table["se"].to_numpy(float)[tested]
        q = stats.t.isf(alpha / n_tested / 2, df)
        table.loc[tested, "low"] = est - q * se
        table.loc[tested, "high"] = est + q * se
    table.attrs["n_tested"] = n_tested
    level = 1.0 - table.attrs["interval_level"]   # the table's own intervals' level (Bonferroni-joint when adjusted)
    if guarded.any():
        df = table["df"].to_numpy(float)[guarded]
        est = table["estimate"].to_numpy(float)[guarded]
        se = independent[guarded]
        q = stats.t.isf(level / 2, df)
        t = est / se
        table.loc[guarded, "se"] = se
        table.loc[guarded, "statistic"] = t
        table.loc[guarded, "pvalue"] = 2 * stats.t.sf(np.abs(t), df)
        table.loc[guarded, "low"] = est - q * se
        table.loc[guarded, "high"] = est + q * se
    adjusted = np.full(n, np.nan)
    if n_tested:
        adjusted[tested] = adjust_pvalues(table["pvalue"].to_numpy(float)[tested], adjust)
    table["pvalue_adj"] = adjusted
    table["reject"] = tested & (np.nan_to_num(adjusted, nan=1.0) <= alpha)
    # the t intervals before the clip to [-1, 1] (leaderboard_pairs clips; pairs_clipped_note says where)
    est_all, se_all = table["estimate"].to_numpy(float), table["se"].to_numpy(float)
    half = stats.t.isf(level / 2, table["df"].to_numpy(float)) * se_all
    table["unclipped_low"], table["unclipped_high"] = est_all - half, est_all + half
    table["low"] = np.maximum(table["low"].to_numpy(float), -1.0)
    table["high"] = np.minimum(table["high"].to_numpy(float), 1.0)
    table.loc[identical, ["se", "statistic", "pvalue", "low", "high", "unclipped_low", "unclipped_high"]] = np.nan
    # from FEW_CLUSTERS clusters on CR2 decides, but a ratio below CLUSTERED_SE_RATIO is still said, with the
    # verdict the independent standard error would give (pairs_guard_note)
    clustered = table.attrs.get("n_clusters") is not None
    watch = np.asarray(clustered and not few) & tested & (independent > 0) & (ratio < CLUSTERED_SE_RATIO)
    table["low_ratio"] = watch
    if watch.any():
        p_alt = table["pvalue"].to_numpy(float).copy()
        t_alt = table["estimate"].to_numpy(float)[watch] / independent[watch]
        p_alt[watch] = 2 * stats.t.sf(np.abs(t_alt), table["df"].to_numpy(float)[watch])
        alt = np.full(n, np.nan)
        alt[tested] = adjust_pvalues(p_alt[tested], adjust)
        table["independent_pvalue_adj"] = alt
        table["independent_reject"] = tested & (np.nan_to_num(alt, nan=1.0) <= alpha)
    table.attrs.update(guard_ratio=CLUSTERED_SE_RATIO)


def pairwise_items(data: ItemScores, *, alpha: float = 0.05, adjust: str = "holm") -> pd.DataFrame:
    """Section 3: every pair of models, paired over the items.

    :func:`evallib.items.leaderboard_pairs` on the item means: per pair ``a`` (ranked
    above) and ``b``, the mean difference, its standard error (CR2 with Bell–McCaffrey
    df when clustered, the paired t otherwise), the joint (Bonferroni) interval, the
    paired t-test's p-value and its adjustment ``pvalue_adj`` by ``adjust``; ``reject``
    follows it.

    Where McNemar's test applies -- 0/1 scores, one answer per item, no clusters -- each
    pair also gets :func:`evallib.items.paired_item_difference` with
    ``method="mcnemar"``: the mid-p McNemar p-value (``mcnemar_p``, adjusted as the t
    tests in ``mcnemar_pvalue_adj``, ``mcnemar_reject``), the Bonett–Price interval at the
    same level as the joint interval (``bp_low``, ``bp_high``) and the discordant counts
    ``n10`` (``a`` right, ``b`` wrong) and ``n01``.

    Models scored on partly different items are compared pair by pair on the items both
    scored (``n_items`` per row; ``leaderboard_pairs(missing="drop")``).

    Returns
    -------
    pandas.DataFrame
        One row per pair, leaderboard order. ``attrs``: ``alpha``, ``adjust``,
        ``interval_level``, ``n_items``, ``n_clusters``, ``mcnemar`` (bool).
    """
    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", LEADERBOARD_ADJUSTMENTS)
    means = data.item_means()
    table = leaderboard_pairs(means, clusters=_clusters_arg(data), alpha=alpha, adjust=adjust, missing="drop")
    _guard_pairs(table, data, means, alpha, adjust)
    m = len(table)
    applies = _mcnemar_applies(data)
    if applies:
        tested = ~table["identical"].to_numpy(bool)
        level = alpha / max(int(tested.sum()), 1) if adjust != "none" else alpha
        cols = {name: means[name].to_numpy() for name in data.models}
        rows = []
        for a, b in zip(table["a"], table["b"]):
            x, y = cols[a], cols[b]
            shared = ~np.isnan(x) & ~np.isnan(y)   # the items both scored
            x, y = x[shared], y[shared]
            r = paired_item_difference(x, y, method="mcnemar", alpha=level)
            rows.append((r.pvalue, r.low, r.high, int(np.count_nonzero((x == 1) & (y == 0))),
                         int(np.count_nonzero((x == 0) & (y == 1)))))
        p, lo, hi, n10, n01 = (np.array(v) for v in zip(*rows))
        table["mcnemar_p"] = p
        adjusted = np.full(m, np.nan)
        if tested.any():
            adjusted[tested] = adjust_pvalues(p[tested], adjust)   # the pairs tested are the family, as for t
        table["mcnemar_pvalue_adj"] = adjusted
        table["mcnemar_reject"] = tested & (np.nan_to_num(adjusted, nan=1.0) <= alpha)
        table["bp_low"], table["bp_high"], table["n10"], table["n01"] = lo, hi, n10, n01
    table.attrs.update(mcnemar=applies)
    return table




def _p_header(adjust: str, n_tested: int, test: str) -> str:
    """The header of section 3's p-values: adjusted over the pairs tested, or, with one pair tested (whose
    adjusted p-value is its own), plain ``"p (test)"``.

    >>> _p_header("holm", 1, "paired t-test"), _p_header("holm", 2, "paired t-test")
    ('p (paired t-test)', 'adjusted p (Holm; paired t-test)')
    """
    return f"p ({test})" if n_tested == 1 else pvalue_header(adjust, test)


def format_item_pairs(pairs: pd.DataFrame) -> pd.DataFrame:
    """Section 3's table as text, every pair (no truncation), leaderboard order.

    Beside the test's standard error stands the one the items would have if they were independent
    (``sd(d) / sqrt(n)`` of the per-item differences); a pair decided with that larger standard error
    (``guarded``, :func:`pairs_guard_note`) says so in its verdict, and a pair of models that answered
    every item alike gets no interval, p-value or standard error, only that verdict.
    """
    alpha, adjust, interval_level = table_metadata(pairs, "alpha", "adjust", "interval_level",
                                                   made_by="evallib.report.pairwise_items")
    clustered = pairs.attrs.get("n_clusters") is not None
    kind = "CR2 t" if clustered else "paired t"
    used = guarded_se_words(pairs)
    joint = (f"{level_text(1 - interval_level, digits=4)} joint interval ({kind}, Bonferroni"
             + (f"; {used})" if used else ")")
             if _joint(adjust, _n_tested(pairs))
             else f"{level_text(1 - interval_level if adjust != 'none' else alpha)} interval ({kind}"
             + (f"; {used})" if used else ")"))
    partial = "n_items" in pairs and bool((pairs["n_items"] < pairs.attrs.get("n_items", 0)).any())
    alike = pairs["identical"].to_numpy(bool) if "identical" in pairs else np.zeros(len(pairs), bool)
    guarded = pairs["guarded"].to_numpy(bool) if "guarded" in pairs else np.zeros(len(pairs), bool)
    out = pd.DataFrame({
        "A": list(pairs["a"]), "B": list(pairs["b"]),
        ("A - B on the items both scored" if partial else "mean A - mean B"): [signed(v) for v in pairs["estimate"]],
        joint: ["-" if same else f"{signed(lo)} to {signed(hi)}"
                for lo, hi, same in zip(pairs["low"], pairs["high"], alike)],
        _p_header(adjust, _n_tested(pairs), f"{kind}-test" + (f"; {used}" if used else "")): [
            "-" if same else pvalue_cell(p)
                                               for p, same in zip(pairs["pvalue_adj"], alike)],
    })
    if "independent_se" in pairs:
        if clustered:
            out["SE (CR2)"] = ["-" if same else f"{v:.4f}" for v, same in zip(pairs["clustered_se"], alike)]
        out["SE if items independent"] = ["-" if same else f"{v:.4f}" for v, same in zip(pairs["independent_se"], alike)]
    if pairs.attrs.get("mcnemar"):
        out[_p_header(adjust, _n_tested(pairs), "McNemar's mid-p test")] = ["-" if same else pvalue_cell(p) for p, same in
                                                              zip(pairs["mcnemar_pvalue_adj"], alike)]
        out["Bonett–Price interval"] = ["-" if same else f"{signed(lo)} to {signed(hi)}"
                                        for lo, hi, same in zip(pairs["bp_low"], pairs["bp_high"], alike)]
        out["A only / B only right"] = [f"{a} / {b}" for a, b in zip(pairs["n10"], pairs["n01"])]
    if partial:
        out["items"] = [f"{v:,}" for v in pairs["n_items"]]
    verdicts = []
    for r, o, same, guard in zip(pairs["reject"], interval_disagrees(pairs), alike, guarded):
        if same:
            verdicts.append("answered every item alike: no difference to test")
            continue
        v = (("differ (interval covers 0)" if o else "differ") if r
             else ("not separated (interval leaves out 0)" if o else "not separated"))
        verdicts.append(v + (" by the independent SE, the larger" if guard else ""))
    out["verdict"] = verdicts
    out.index = pd.RangeIndex(1, len(out) + 1, name="pair")
    return out


def pairs_guard_note(pairs: pd.DataFrame) -> str | None:
    """The pairs decided with the items-independent standard error, and why, in words; None if there are none.

    A pair is guarded (:func:`pairwise_items`) when, on fewer than :data:`~evallib.report.FEW_CLUSTERS`
    clusters, its CR2 standard error is below :data:`CLUSTERED_SE_RATIO` times the one that takes the items
    as independent. The note gives both standard errors, their ratio, the ICC the ratio implies against the
    lowest an ICC can be for clusters of ``m`` items, ``-1/(m - 1)``, and each pair's verdict by CR2 alone
    beside the one the report gives. From ``FEW_CLUSTERS`` clusters on no pair is guarded, but a pair with
    such a ratio (``low_ratio``) is still named, with the verdict the independent standard error would give.
    """
    if "low_ratio" in pairs and pairs["low_ratio"].any():
        return _low_ratio_note(pairs)
    if "guarded" not in pairs or not pairs["guarded"].any():
        return None
    j = int(pairs.attrs["n_clusters"])
    mask = pairs["guarded"].to_numpy(bool)
    rows = pairs[mask]
    tested = ~pairs["identical"].to_numpy(bool)
    alone = np.full(len(pairs), np.nan)
    alone[tested] = adjust_pvalues(pairs["clustered_pvalue"].to_numpy(float)[tested], pairs.attrs["adjust"])
    alone = alone[mask]
    parts = []
    for r, p_alone in zip(rows.itertuples(), alone):
        ratio = r.clustered_se / r.independent_se
        bound = -1.0 / (r.cluster_size - 1)
        icc = (f"the implied ICC of the differences within a cluster, ((SE ratio)^2 - 1) / (m - 1) = "
               f"{r.implied_icc:.3f}, is "
               + (f"below {bound:.3f}, the lowest an ICC can be for clusters of m = {r.cluster_size:.3g} items "
                  "(-1/(m - 1)), so the ratio is noise" if r.implied_icc < bound else
                  f"{r.implied_icc / bound:.0%} of the way to {bound:.3f}, the lowest an ICC can be for clusters "
                  f"of m = {r.cluster_size:.3g} items (-1/(m - 1); an ICC below it is impossible, and one near it "
                  "says the items' differences all but cancel within each cluster)"))
        same = bool(r.clustered_reject) == bool(r.reject)
        verdict = ("differ" if r.reject else "not separated")
        parts.append(f"{escape(r.a)} - {escape(r.b)}: CR2 SE {r.clustered_se:.4f}, {ratio:.2f} times the "
                     f"{r.independent_se:.4f} if the items were independent; {icc}; with the larger SE the "
                     f"verdict is {verdict} (adjusted p {pvalue_cell(r.pvalue_adj)})"
                     + (", as with the CR2 SE alone" if same else
                        f", where the CR2 SE alone would give {'differ' if r.clustered_reject else 'not separated'}"
                        f" (adjusted p {pvalue_cell(p_alone)})"))
    n = len(rows)
    return (f"{'This pair has' if n == 1 else f'These {n:,} pairs have'} a cluster-robust (CR2) standard error "
            f"below {CLUSTERED_SE_RATIO:g} times the one that takes the items as independent, on only {j:,} "
            f"clusters (fewer than {FEW_CLUSTERS}): with {j:,} clusters the CR2 standard error is itself noisy, and "
            "one below the independent one can as well be noise as real negative correlation within the clusters, "
            "not extra precision. The independent standard error is the safer reading, so "
            f"{'this pair is' if n == 1 else 'these pairs are'} decided with the larger of the two, on the CR2 "
            "test's Bell–McCaffrey degrees of freedom (its interval and p-value in the table are those): "
            + "; ".join(parts) + ".")


def guarded_se_words(pairs: pd.DataFrame) -> str:
    """Which standard error section 3's intervals and p-values rest on where some pairs are guarded
    (:func:`pairs_guard_note`), for its labels: ``""`` when none is.

    >>> t = pd.DataFrame({"guarded": [True, False, False], "identical": [False, False, True]})
    >>> guarded_se_words(t)
    'the items-independent SE for the pair so marked in the verdict'
    >>> guarded_se_words(t.assign(guarded=[True, True, False]))
    'the items-independent SE for every pair tested'
    """
    if "guarded" not in pairs or not pairs["guarded"].any():
        return ""
    n = int(pairs["guarded"].sum())
    tested = int((~pairs["identical"].to_numpy(bool)).sum()) if "identical" in pairs else len(pairs)
    if n == tested:
        return ("the items-independent SE for the pair" if len(pairs) == 1 else
                "the items-independent SE for every pair" + (" tested" if tested < len(pairs) else ""))
    return f"the items-independent SE for the {'pair' if n == 1 else plural(n, 'pair')} so marked in the verdict"


def _low_ratio_note(pairs: pd.DataFrame) -> str:
    """From :data:`FEW_CLUSTERS` clusters on, the pairs whose CR2 standard error is still below
    :data:`CLUSTERED_SE_RATIO` times the items-independent one: CR2 decides them, and the note gives the
    verdict the independent standard error would give, since the CR2 variance's relative spread,
    about ``sqrt(2 / (J - 1))`` on ``J`` clusters, leaves such a ratio within noise."""
    j = int(pairs.attrs["n_clusters"])
    rows = pairs[pairs["low_ratio"].to_numpy(bool)]
    parts = []
    for r in rows.itertuples():
        ratio = r.clustered_se / r.independent_se
        bound = -1.0 / (r.cluster_size - 1) if r.cluster_size > 1 else float("nan")
        alt = "differ" if r.independent_reject else "not separated"
        now = "differ" if r.reject else "not separated"
        parts.append(f"{escape(r.a)} - {escape(r.b)}: CR2 SE {r.clustered_se:.4f}, {ratio:.2f} times the "
                     f"{r.independent_se:.4f} if the items were independent (implied ICC {r.implied_icc:.3f}, "
                     f"the lowest possible for clusters of m = {r.cluster_size:.3g} items being {bound:.3f}); with "
                     f"the independent SE, on the same CR2 degrees of freedom, the verdict would be {alt} (adjusted p "
                     f"{pvalue_cell(r.independent_pvalue_adj)})"
                     + (", the same" if alt == now else f", where CR2 gives {now}"))
    n = len(rows)
    return (f"{'This pair has' if n == 1 else f'These {n:,} pairs have'} a cluster-robust (CR2) standard error "
            f"below {CLUSTERED_SE_RATIO:g} times the one that takes the items as independent. With {j:,} clusters "
            f"(at least {FEW_CLUSTERS}) the report decides with CR2, but its variance still varies by about "
            f"{math.sqrt(2.0 / (j - 1)):.0%} from one set of clusters to another (relative standard deviation "
            f"about sqrt(2 / (J - 1))), so a ratio this low can be noise rather than negative correlation within "
            "the clusters: " + "; ".join(parts) + ".")


def pairs_clipped_note(pairs: pd.DataFrame) -> str | None:
    """The pairs whose interval was clipped to [-1, 1], with the t interval's own ends; None if none was.

    A difference of two scores in [0, 1] lies in [-1, 1]; with few clusters the t quantile on their few
    Bell–McCaffrey degrees of freedom can put an end past it. Such an interval says the data hardly
    bound the difference, and the note says so.

    >>> import pandas as pd
    >>> t = pd.DataFrame({"a": ["A"], "b": ["B"], "estimate": [0.1], "low": [-1.0], "high": [1.0],
    ...                   "unclipped_low": [-1.159], "unclipped_high": [1.359]})
    >>> pairs_clipped_note(t)[:72]
    'The interval of A - B (the t interval -1.1590 to +1.3590) was clipped to'
    """
    if "unclipped_low" not in pairs:
        return None
    lo, hi = pairs["unclipped_low"].to_numpy(float), pairs["unclipped_high"].to_numpy(float)
    mask = (lo < -1) | (hi > 1)
    if not mask.any():
        return None
    rows = pairs[mask]
    shown = join_names((f"{escape(r.a)} - {escape(r.b)} (the t interval {signed(r.unclipped_low)} to "
                        f"{signed(r.unclipped_high)})" for r in rows.itertuples()), limit=_LIST_LIMIT)
    one = len(rows) == 1
    return (f"The interval{'' if one else 's'} of {shown} {'was' if one else 'were'} clipped to [-1, 1], the largest "
            "difference possible between two scores in [0, 1]: a t interval that reaches past it (few clusters, so a "
            "large t quantile on few degrees of freedom) says that this file hardly bounds the difference at all.")


def pairs_identical_note(pairs: pd.DataFrame) -> str | None:
    """The pairs of models that answered every item alike, in words; None if there are none."""
    if "identical" not in pairs or not pairs["identical"].any():
        return None
    rows = pairs[pairs["identical"].to_numpy(bool)]
    names = join_names((f"{escape(r.a)} and {escape(r.b)}" for r in rows.itertuples()), limit=_LIST_LIMIT)
    n = len(rows)
    return (f"{names} answered every item they both scored alike (the same score on each of "
            + join_names((f"{int(v):,}" for v in rows["n_items"]), limit=_LIST_LIMIT)
            + " items): there is no difference to test, so "
            + ("this pair gets" if n == 1 else "these pairs get")
            + " no t statistic, no p-value and no interval (the paired differences are all 0, so their "
              "standard error is 0 and an interval of zero width would say nothing about precision); the data "
              "cannot separate the two, and answering these items alike does not show the two models equal on other items.")


# ------------------------------------------------------------------ section 4
@dataclass(frozen=True, eq=False)
class SampleAnalysis:
    """Section 4: repeated answers per item.

    Attributes
    ----------
    components : DataFrame indexed by model: ``between``, ``within``, ``icc`` (the
        between-item share, 0 where its estimate fell below 0), ``icc_raw`` (that estimate
        before it was read as 0), ``truncated`` (whether it was), ``answers`` (mean per item), ``se`` (of the mean, from the components),
        ``se_double`` (with twice the answers per item), ``floor`` (the standard
        error no number of answers can go below: ``sqrt(between / n)``, or with clusters
        the clustered floor ``sqrt(var_floor)``), ``inverse_samples`` (``mean(1/K_i)`` over the items),
        ``n_items``, ``note``.
    passk : DataFrame with one row per model and ``k``: ``model``, ``k``, ``pass_at_k``,
        ``low``, ``high`` (the t interval clipped to [0, 1]), ``se``, ``df`` (its standard error and degrees of
        freedom, from which the unclipped ends follow), ``pass_hat_k``, ``hat_low``, ``hat_high``; or Skipped (not 0/1
        scores).
    ks : the ``k`` reported: every ``k`` up to the most any model allows when that is at most
        :data:`EVERY_K`, else 1, 2, 4, ... and that most (a model's ``k`` stop at the fewest
        answers it gave to one item).
    alpha : the level.
    clustered : whether the items came in clusters (the standard errors and pass@k's
        intervals are then CR2 cluster-robust).
    """

    components: pd.DataFrame
    passk: pd.DataFrame | Skipped
    ks: tuple[int, ...]
    alpha: float
    clustered: bool = False


#: Up to this many answers per item, pass@k is reported for every k; above it, for powers of two and the largest.
EVERY_K = 10


def _ks(smallest: int) -> tuple[int, ...]:
    """Every k from 1 to the smallest number of answers when that is at most :data:`EVERY_K`; else 1,
    the powers of two below it and it."""
    if smallest <= EVERY_K:
        return tuple(range(1, smallest + 1))
    ks = {1, smallest}
    k = 2
    while k < smallest:
        ks.add(k)
        k *= 2
    return tuple(sorted(ks))


def sample_analysis(data: ItemScores, *, alpha: float = 0.05) -> SampleAnalysis | Skipped:
    """Section 4: variance components and, for 0/1 scores, pass@k -- when items were answered several times.

    Per model, :func:`evallib.items.variance_components` on its items x answers (the
    one-way ANOVA estimates; with clusters, the clustered SE and its floor), and for 0/1 scores
    :func:`evallib.items.pass_at_k` with ``n`` each item's answers and ``c`` its correct
    ones, for every ``k`` up to the fewest answers any item has (1, 2, 4, ... and that
    number when it is above :data:`EVERY_K`; clustered
    when clusters are given).

    Returns
    -------
    SampleAnalysis or Skipped
        Skipped when every item was answered once.
    """
    alpha = check_alpha(alpha)
    if not data.has_samples:
        return Skipped("every item was answered once by every model; variance components and pass@k need "
                       "repeated answers (a sample column).")
    counts = data.sample_counts()
    rows = []
    for j, name in enumerate(data.models):
        block = data.scores[:, j, :]
        try:
            vc = variance_components(block, clusters=_clusters_arg(data), missing="drop")
        except ValueError:  # this model answered every item once
            rows.append({"model": name, "between": np.nan, "within": np.nan, "icc": np.nan, "icc_raw": np.nan,
                         "truncated": False, "answers": float(counts[:, j].mean()), "se": np.nan,
                         "se_double": np.nan, "floor": np.nan, "inverse_samples": np.nan, "n_items": np.nan,
                         "note": "one answer per item: within-item variance not identified"})
            continue
        double = math.sqrt(vc.var_floor + vc.within * vc.inverse_samples / (2 * vc.n_items))
        rows.append({"model": name, "between": vc.between, "within": vc.within, "icc": vc.icc,
                     "icc_raw": vc.icc_raw, "truncated": vc.truncated, "answers": vc.samples, "se": vc.se, "se_double": double,
                     "floor": math.sqrt(vc.var_floor), "inverse_samples": vc.inverse_samples,
                     "n_items": vc.n_items, "note": vc.note})
    components = pd.DataFrame(rows).set_index("model")
    # per model: the fewest answers of one item it scored
    smallest = np.where(counts > 0, counts, np.iinfo(np.int64).max).min(axis=0)
    ks = _ks(int(smallest.max()))
    if not data.binary:
        passk: pd.DataFrame | Skipped = Skipped("pass@k counts correct answers, and these scores are not 0/1.")
    else:
        prow = []
        correct = np.nansum(data.scores, axis=2).round().astype(np.int64)
        for j, name in enumerate(data.models):
            own = counts[:, j] > 0   # the items this model scored
            own_clusters = None if data.clusters is None else data.clusters[own]
            for k in (k for k in ks if k <= smallest[j]):
                r = pass_at_k(counts[own, j], correct[own, j], k, clusters=own_clusters, alpha=alpha)
                h = r.pass_hat_k
                prow.append({"model": name, "k": k, "pass_at_k": r.estimate, "low": r.low, "high": r.high,
                             "se": r.se, "df": r.df,
                             "pass_hat_k": h.estimate, "hat_low": h.low, "hat_high": h.high})
        passk = pd.DataFrame(prow)
    return SampleAnalysis(components=components, passk=passk, ks=ks, alpha=alpha, clustered=data.clustered)


def _cell(v: float, spec: str) -> str:
    """A number for a table cell, ``"-"`` where it is not identified (NaN), ``"0"`` for a machine zero."""
    if not np.isfinite(v):
        return "-"
    return "0" if abs(float(v)) < MACHINE_ZERO else format(float(v), spec)   # never "-0.000"


def format_components(samples: SampleAnalysis) -> pd.DataFrame:
    """Section 4's variance components as text, one row per model, ``"-"`` where a model gave one
    answer per item (the within-item variance is then not identified).

    Columns: the mean answers per item, the between-item and within-item variances of one
    answer, the between-item share of one answer's variance (an intraclass correlation of the
    answers within an item; not the intraclass correlation of the items within a cluster,
    which the design effect of section 2 reflects; where its estimate fell below 0 the cell
    says so and gives it, and the share is read as 0), the standard error of the
    model's mean from the components, the same with twice the answers per item, and its floor
    with infinitely many answers (``sqrt(between / n)`` without clusters). With clusters the
    standard errors are the CR2 cluster-robust ones and the floor the clustered floor
    (:func:`evallib.items.variance_components` with ``clusters``).
    """
    c = samples.components
    return pd.DataFrame({
        "answers per item": [f"{v:.3g}" for v in c["answers"]],
        "between items (variance)": [_cell(v, ".4f") for v in c["between"]],
        "within items (variance)": [_cell(v, ".4f") for v in c["within"]],
        "between-item share of an answer's variance": [
            f"0 (estimated {raw:.3f}, below 0)" if cut else _cell(v, ".3f")
            for v, raw, cut in zip(c["icc"], c["icc_raw"], c["truncated"])],
        "SE of the mean": [_cell(v, ".4f") for v in c["se"]],
        "SE with twice the answers": [_cell(v, ".4f") for v in c["se_double"]],
        "SE with unlimited answers": [_cell(v, ".4f") for v in c["floor"]],
        "note": [str(v) if isinstance(v, str) else "" for v in c["note"]],
    }, index=c.index)


def components_se_note(means: pd.DataFrame, samples: SampleAnalysis | Skipped) -> str | None:
    """Why section 4's standard error of a model's mean differs from section 2's, with both numbers.

    Section 2's is the one its interval uses: the spread of the model's item means, ``s / sqrt(n)``,
    without clusters, the CR2 cluster-robust one with them. Section 4's is built from the variance
    components so that the standard errors with more answers follow from it: without clusters
    ``sqrt((between + within mean(1/K)) / n)``, the one-way ANOVA's estimate, which equals ``s / sqrt(n)``
    when every item has the same number of answers ``K`` and the between-item variance is not read as 0
    (``MSB / K = s^2``); with clusters section 2's variance itself, unless it is below the answers' noise
    ``within mean(1/K) / n`` (the floor is then read as 0 and section 4's is the noise's square root).
    One sentence per model whose two standard errors print differently at 4 decimals; None if none does.
    """
    if not isinstance(samples, SampleAnalysis):
        return None
    out = []
    for name, c in samples.components.iterrows():
        if name not in means.index or not math.isfinite(c["se"]):
            continue
        m = means.loc[name]
        se2, se4 = float(m["se"]), float(c["se"])
        if f"{se2:.4f}" == f"{se4:.4f}":
            continue
        noise = c["within"] * c["inverse_samples"] / c["n_items"]
        if samples.clustered:
            out.append(
                f"For {escape(name)}, section 4's standard error of the mean, {se4:.4f}, differs from section 2's "
                f"CR2 cluster-robust one, {se2:.4f}: section 4 takes the same clustered variance, {se2 * se2:.3g}, "
                f"but it is below the answers' noise alone, within × mean(1/K) / n = {c['within']:.4f} × "
                f"{c['inverse_samples']:.4f} / {int(c['n_items']):,} = {noise:.3g}, so the floor is read as 0 and "
                f"section 4's standard error is that noise's square root. Section 2's is the one its interval uses: "
                "quote it for the mean, and section 4's columns for how the standard error splits between items "
                "and answers.")
            continue
        why = []
        lo, hi = int(m["answers_min"]), int(m["answers_max"])
        if lo != hi:
            why.append(f"{escape(name)} answered its items between {lo} and {hi} times")
        if bool(c["truncated"]):
            why.append("its between-item variance was estimated below 0 and read as 0")
        reason = (" and ".join(why) if why else "the two estimators differ in this file")
        out.append(
            f"For {escape(name)}, section 4's standard error of the mean, {se4:.4f}, is built from the variance "
            f"components, sqrt((between + within × mean(1/K)) / n) = sqrt(({c['between']:.4f} + {c['within']:.4f} × "
            f"{c['inverse_samples']:.4f}) / {int(c['n_items']):,}), the one-way ANOVA's estimate from which the "
            f"standard errors with twice and with unlimited answers follow; section 2's, {se2:.4f}, is the spread "
            "of its item means, s / sqrt(n). They are two estimates of one variance, equal when every item has the "
            f"same number of answers and the between-item variance is not read as 0; here {reason}. Section 2's is "
            "the one its interval uses: quote it for the mean, and section 4's columns for how the standard error "
            "splits between items and answers.")
    return " ".join(out) if out else None


def interval_conventions_note(means: pd.DataFrame, samples: SampleAnalysis | Skipped) -> str | None:
    """Why pass@1 in section 4 and the mean in section 2 have two intervals, with the leader's numbers.

    pass@1 is the mean score, but section 2 gives 0/1 scores Wilson's interval (on the effective
    sample size) and section 4 gives every pass@k the t interval of a mean over items (CR2 with
    clusters), so that pass@1, pass@2, ... share one convention. None when section 4 has no
    pass@1 row.
    """
    if not isinstance(samples, SampleAnalysis) or not isinstance(samples.passk, pd.DataFrame):
        return None
    level = level_text(samples.alpha)
    for name in means.index:
        rows = samples.passk[(samples.passk["model"] == name) & (samples.passk["k"] == 1)]
        if len(rows):
            one, m = rows.iloc[0], means.loc[name]
            how = ("Wilson's interval on the effective sample size" if math.isfinite(m["effective_n"])
                   else "Wilson's interval" if m["method"] == "wilson" else "the t interval")
            if not one["high"] - one["low"] > 0:   # every item the same: the t interval has zero width
                return (f"pass@1 is the mean score: for {name} {one['pass_at_k']:.4f}, as in section 2. Every item "
                        "has the same pass@1 here, so the t interval of a mean over items that this table uses has "
                        "standard error 0 and zero width, and is not shown: it says nothing about precision. "
                        f"Section 2's, {m['low']:.4f} to {m['high']:.4f}, is {how}, which keeps a positive width "
                        "and its level near 0 and 1; quote it for the mean. A pass@k whose interval is not shown has "
                        "no interval from this file.")
            return (f"pass@1 is the mean score: for {name} {one['pass_at_k']:.4f}, as in section 2. Its {level} "
                    f"interval here, {one['low']:.4f} to {one['high']:.4f}, is the t interval of a mean over "
                    f"items that every pass@k in this table uses; section 2's, {m['low']:.4f} to {m['high']:.4f}, "
                    f"is {how}, which stays inside [0, 1] and keeps its level near 0 and 1. Quote section 2's "
                    "interval for the mean and this table's for pass@k.")
    return None


def _interval_cell(low: float, high: float) -> str:
    """A pass@k or pass^k interval for section 4's table; one of zero width (every item the same, a standard
    error of 0) is ``"- (SE 0)"``, since it would say nothing about precision."""
    return "- (SE 0)" if high - low <= 0 else f"{low:.4f} to {high:.4f}"


def format_passk(samples: SampleAnalysis) -> pd.DataFrame:
    """Section 4's pass@k and pass^k as text, one row per model and ``k``, each with its interval."""
    t = samples.passk
    level = f"{level_text(samples.alpha)} {'CR2 t' if samples.clustered else 't'}"
    out = pd.DataFrame({
        "pass@k": [f"{v:.4f}" for v in t["pass_at_k"]],
        f"pass@k {level} interval": [_interval_cell(lo, hi) for lo, hi in zip(t["low"], t["high"])],
        "pass^k": [f"{v:.4f}" for v in t["pass_hat_k"]],
        f"pass^k {level} interval": [_interval_cell(lo, hi) for lo, hi in zip(t["hat_low"], t["hat_high"])],
    })
    out.index = pd.MultiIndex.from_arrays([list(t["model"]), list(t["k"])], names=["model", "k"])
    return out


# ------------------------------------------------------------------ section 5
@dataclass(frozen=True, eq=False)
class Leaderboard:
    """Section 5: the leader's not-separated group, rank intervals and the share ranked first.

    Attributes
    ----------
    tie : :class:`evallib.items.TieGroup` (paired tests over all pairs, adjusted).
    ranks : DataFrame of :func:`evallib.items.rank_intervals`: ``model``, ``mean``,
        ``rank``, ``rank_low``, ``rank_high``, ``p_best``, best first.
    """

    tie: TieGroup
    ranks: pd.DataFrame


def _share_cell(p: float, b: int = 0) -> str:
    """A share of ``b`` replicates to 3 decimals that never prints a nonzero share as 0.000 or 1.000: below
    0.001 or above 0.999 it is the count, ``"1 of 2,000"`` (a bound without ``b``)."""
    if 0 < p < 0.001:
        return f"{round(p * b):,} of {b:,}" if b else "<0.001"
    if 0.999 < p < 1:
        return f"{round(p * b):,} of {b:,}" if b else ">0.999"
    return f"{p:.3f}" if 0 < p < 1 else f"{p:g}"


def _share_mc_cell(p: float, se: float, b: int) -> str:
    """The Monte Carlo SE ``se`` of a share ``p`` of ``b`` replicates, or a stated bound where it prints as 0.

    ``se`` is :func:`evallib.items.rank_intervals`' ``p_best_se``, the standard error of the mean of
    the per-replicate credits (1, ``1/j`` or 0), to 3 decimals; below 0.0005 (which would print as
    0.000) to one significant digit, ``0.0005`` beside ``1 of 2,000``. A share of 0 or 1, which has no
    binomial standard error, gets the rule of three's 95% bound on the share over unlimited replicates
    (below ``3 / b``, above ``1 - 3 / b``). A share strictly between 0 and 1 with an SE of 0 is a tie for
    first in every replicate (the same credit ``1/j`` each time), and the cell says so.

    >>> _share_mc_cell(0.5, 0.0, 2000)
    '0: every one of the 2,000 resamples ties it for first with 1 other model, so each gives it 1/2'
    """
    if not b:
        return "-"
    if p <= 0 or p >= 1:
        return (f"no binomial SE ({'0' if p <= 0 else f'{b:,}'} of {b:,}); share "
                + (f"below {3 / b:.4f}" if p <= 0 else f"above {1 - 3 / b:.4f}") + " by the rule of three (95%)")
    if se == 0:
        j = round(1 / p)
        return (f"0: every one of the {b:,} resamples ties it for first with {plural(j - 1, 'other model')}, so each "
                f"gives it 1/{j}")
    return f"{se:.1g}" if se < 0.0005 else f"{se:.3f}"


#: Section 5's column of the share of bootstrap resamples in which a model ranks first.
RANKED_FIRST = "ranked first (share of resamples)"
#: The share of bootstrap resamples ranked first from which the summary names a model beside the leader.
RIVAL_SHARE = 0.05


def _share_text(p: float, se: float, b: int) -> str:
    """A share ``p`` of ``b`` bootstrap resamples in words, as section 5's table prints it, with its Monte Carlo SE ``se``.

    One formatter for both: the share and its SE are :func:`_share_cell` and :func:`_share_mc_cell`
    (3 decimals; a share below 0.001 as its count, an SE below 0.0005 to one significant digit, an SE
    of 0 as the tie for first in every resample it comes from), so the summary and the table never
    round one share two ways. A share of 0 or 1 has no binomial SE; it gets the rule of three's 95%
    bound ``3 / b`` on the share over unlimited resamples.

    >>> _share_text(0.095, 0.00656, 2000)
    '0.095, MC SE 0.007'
    >>> _share_text(1.0, 0.0, 2000)
    '1 (all 2,000; by the rule of three, the share over unlimited resamples is above 0.9985 at 95% confidence)'
    """
    if p >= 1.0 or p <= 0.0:
        return (f"{p:g} ({'all' if p >= 1 else 'none of the'} {b:,}; by the rule of three, the share over unlimited "
                f"resamples is {'above' if p >= 1 else 'below'} {(1 - 3 / b) if p >= 1 else 3 / b:.4f} at 95% "
                "confidence)")
    return f"{_share_cell(p, b)}, MC SE {_share_mc_cell(p, se, b)}"


def format_ranks(board: Leaderboard) -> pd.DataFrame:
    """Section 5's rank table as text, the share ranked first with its Monte Carlo standard error beside it.

    The column :data:`RANKED_FIRST` (``p_best`` of :func:`evallib.items.rank_intervals`) is the
    share of ``B`` bootstrap resamples in which a model ranks first, not a probability that it
    is best; it carries a Monte Carlo error (``p_best_se``, the standard error of the mean of the
    per-resample credits, ``sqrt(p (1 - p) / B)`` when no resample has a tie for first) on top of the
    sampling error the bootstrap estimates. Neither prints as if exact: a share below 0.001 (above
    0.999) prints as its count, ``1 of 2,000``, a standard error below 0.0005 to one significant digit
    (``0.0005``), and a share of 0 or 1 (no binomial standard error) gets the rule of three's bound,
    ``3 / B``. A share that is exact, a tie for first in every resample (two models that answered
    every item alike share 1/2), has an SE of 0, and its cell says why.
    """
    r = board.ranks
    b = int(r.attrs.get("n_resamples", 0))
    return pd.DataFrame({
        "mean": [f"{v:.4f}" for v in r["mean"]],
        "rank": [f"{v:g}" for v in r["rank"]],
        "rank interval": [f"{int(lo)}" if lo == hi else f"{int(lo)} to {int(hi)}"
                          for lo, hi in zip(r["rank_low"], r["rank_high"])],
        RANKED_FIRST: [_share_cell(float(v), b) for v in r["p_best"]],
        f"Monte Carlo SE of the share ({b:,} resamples)": [_share_mc_cell(float(v), float(e), b)
                                                          for v, e in zip(r["p_best"], r["p_best_se"])],
    }, index=pd.Index(list(r["model"]), name="model"))


def _answered_alike(tie: TieGroup) -> list[str]:
    """The models of the not-separated group that answered every item as the leader did (section 3's
    ``identical`` pairs): no test was made for them, so no sentence may say one was."""
    c = tie.comparisons
    if "identical" not in c:
        return []
    rows = c[c["identical"].to_numpy(bool)]
    return [str(b if a == tie.leader else a) for a, b in zip(rows["a"], rows["b"])]


def tie_group_text(tie: TieGroup) -> str:
    """Section 5's sentence on the not-separated group, its counts with thousands separators.

    The report's own wording of :meth:`evallib.items.TieGroup.describe`: who is not shown to
    differ from the leader at ``alpha``, who is separated from it, over which items (each
    pair's shared items where models skipped some) and with which adjustment over all pairs.

    >>> from evallib.items import tie_group
    >>> tie = tie_group({"A": [1] * 6, "B": [1, 1, 1, 1, 1, 0], "C": [0] * 6}, alpha=0.1)
    >>> tie_group_text(tie)
    'B is not shown to differ from the leader A at alpha = 0.1 (paired t-tests over 6 items, Holm over all 3 pairs); C is separated from it.'
    """
    m = len(tie.members) + len(tie.separated)
    every = m * (m - 1) // 2
    n_pairs = int(tie.comparisons.attrs.get("n_tested", every))   # the pairs tested: the family
    how = _adjust_words(tie.adjust, n_pairs, every - n_pairs)
    if tie.adjust in FDR_ADJUSTMENTS and n_pairs > 1:
        how += ", which controls the false discovery rate only"
    data = f"{tie.n_items:,} items" + (f" in {tie.n_clusters:,} clusters" if tie.n_clusters is not None else "")
    shared = tie.comparisons["n_items"] if "n_items" in tie.comparisons else None
    if shared is not None and len(shared) and int(shared.min()) < tie.n_items:
        low, high = int(shared.min()), int(shared.max())
        data += (f", each pair on the items both models scored ({low:,}" + (f" to {high:,}" if high > low else "")
                 + f" of the {tie.n_items:,})")
    guarded = int(tie.comparisons["guarded"].sum()) if "guarded" in tie.comparisons else 0
    if guarded:
        data += (f"; {'one comparison' if guarded == 1 else f'{guarded:,} comparisons'} with the leader decided "
                 "with the items-independent standard error, the larger, as section 3 says")
    detail = f"({'a paired t-test' if n_pairs == 1 else 'paired t-tests'} over {data}{'; ' if guarded else ', '}{how})"
    alike = _answered_alike(tie)
    others = [escape(v) for v in tie.members[1:] if str(v) not in alike]
    separated = [escape(v) for v in tie.separated]
    leader = escape(tie.leader)
    same = (f"{join_names(map(escape, alike), limit=_LIST_LIMIT)} answered every item as the leader {leader} did, "
            "so there is no difference to test" if alike else "")
    if not others and not separated:
        return same + "."
    if not others:
        if same:
            return (f"{same}; {join_names(separated, limit=_LIST_LIMIT)} "
                    f"{'is' if len(separated) == 1 else 'are'} separated from it at alpha = {tie.alpha:g} {detail}.")
        apart = separated[0] if len(separated) == 1 else f"Every other model ({join_names(separated, limit=_LIST_LIMIT)})"
        return f"{apart} is separated from the leader {leader} at alpha = {tie.alpha:g} {detail}."
    tail = (f"; {join_names(separated, limit=_LIST_LIMIT)} {'is' if len(separated) == 1 else 'are'} separated "
            "from it" if separated else "; no model is separated from it")
    return (f"{join_names(others, limit=_LIST_LIMIT)} {'is' if len(others) == 1 else 'are'} not shown to differ "
            f"from the leader {leader} at alpha = {tie.alpha:g} {detail}{tail}" + (f"; {same}" if same else "") + ".")


def rank_bootstrap_note(pairs: pd.DataFrame) -> str | None:
    """Section 5's caveat on its cluster bootstrap where section 3 guarded pairs (:func:`pairs_guard_note`);
    None where it guarded none.

    The bootstrap resamples the same few clusters whose small between-cluster spread of the differences gave
    the guarded pairs their small CR2 standard errors, so its rank intervals and shares rest on that spread
    too, and are as overconfident as those standard errors, which section 3 set aside.
    """
    if "guarded" not in pairs or not pairs["guarded"].any():
        return None
    j = int(pairs.attrs["n_clusters"])
    n = int(pairs["guarded"].sum())
    tested = int((~pairs["identical"].to_numpy(bool)).sum()) if "identical" in pairs else len(pairs)
    which = ("the one pair" if tested == 1 else f"all {tested:,} pairs" if n == tested
             else f"{n:,} of the {tested:,} pairs")
    return (f"The cluster bootstrap rests on the same {j:,} clusters whose CR2 standard errors section 3 set aside "
            f"for {which} (a CR2 standard error below {CLUSTERED_SE_RATIO:g} times the items-independent one on "
            f"fewer than {FEW_CLUSTERS} clusters): it resamples the clusters' means, whose small spread gave "
            "those standard errors, so these rank intervals and shares ranked first are as overconfident as "
            "the CR2 standard errors section 3 did not use")


def rank_redraw_note(ranks: pd.DataFrame) -> str:
    """Section 5's sentence on the bootstrap's empty resamples, with their counts.

    With Poisson weights a resample can draw nothing (every weight 0, with chance ``exp(-J)`` for ``J``
    clusters or items): :func:`evallib.items.rank_intervals` draws it again, so its shares are over
    resamples that draw something (``attrs["redrawn"]``). A resample that draws none of one model's items
    (models scored on partly different items) gives that model its observed mean (``attrs["unscored"]``).

    >>> import pandas as pd
    >>> r = pd.DataFrame({"model": ["a", "b"]})
    >>> r.attrs.update(n_resamples=2000, weights="poisson", n_clusters=3, n_items=30, redrawn=97,
    ...                unscored={"a": 0, "b": 0})
    >>> rank_redraw_note(r)[:95]
    'Of the resamples drawn, 97 drew none of the 3 clusters (every Poisson weight 0, a chance of 0.0'
    """
    b = int(ranks.attrs.get("n_resamples", 0))
    n_units = ranks.attrs.get("n_clusters")
    unit = "clusters" if n_units is not None else "items"
    n_units = int(n_units if n_units is not None else ranks.attrs.get("n_items", 0))
    redrawn = int(ranks.attrs.get("redrawn", 0))
    if ranks.attrs.get("weights", "poisson") != "poisson":
        head = f"Every one of the {b:,} resamples draws {n_units:,} {unit} (multinomial weights): none is empty"
    else:
        chance = f"{math.exp(-n_units):.2g}"
        if redrawn:
            head = (f"Of the resamples drawn, {redrawn:,} drew none of the {n_units:,} {unit} (every Poisson "
                    f"weight 0, a chance of {chance} each) and were drawn again, so the {b:,} resamples above "
                    f"are those that drew at least one, {b + redrawn:,} drawn in all")
        else:
            head = (f"No resample was empty: each of the {b:,} drew at least one of the {n_units:,} {unit} (an "
                    f"empty one, every Poisson weight 0, has a chance of {chance} and would have been drawn again)")
    unscored = {m: int(k) for m, k in ranks.attrs.get("unscored", {}).items() if k}
    tail = ""
    if unscored:
        parts = [f"{escape(m)} in {k:,}" for m, k in unscored.items()]
        tail = ("; resamples that drew none of a model's items keep its observed mean there: "
                + join_names(parts, limit=_LIST_LIMIT) + f" of the {b:,}")
    return head + tail + "."


@renamed_keywords(n_boot="n_resamples")
def leaderboard(data: ItemScores, *, alpha: float = 0.05, adjust: str = "holm", n_resamples: int = 2000,
                rng=None) -> Leaderboard:
    """Section 5: :func:`evallib.items.tie_group` and :func:`evallib.items.rank_intervals` on the item means.

    The bootstrap resamples the clusters (the items without clusters) jointly for all
    models, ``n_resamples`` times with Poisson weights; ``rng`` is its only randomness.
    """
    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", LEADERBOARD_ADJUSTMENTS)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    rng = check_rng(rng)
    means = data.item_means()
    clusters = _clusters_arg(data)
    tie = tie_group(means, clusters=clusters, alpha=alpha, adjust=adjust, missing="drop")
    # section 3's verdicts, guarded as it guards them (a small CR2 standard error on few clusters, identical
    # models): the not-separated group follows them
    pairs = pairwise_items(data, alpha=alpha, adjust=adjust)
    comparisons = pairs[pairs["a"] == tie.leader].reset_index(drop=True)
    comparisons.attrs.update(pairs.attrs)
    tie = TieGroup(tie.leader, (tie.leader,) + tuple(comparisons.loc[~comparisons["reject"], "b"]),
                   tuple(comparisons.loc[comparisons["reject"], "b"]), comparisons, tie.alpha, tie.adjust,
                   tie.n_items, tie.n_clusters)
    ranks = rank_intervals(means, clusters=clusters, n_resamples=n_resamples, alpha=alpha, rng=rng, missing="drop")
    return Leaderboard(tie=tie, ranks=ranks)


# ------------------------------------------------------------------ the summary
def _open_differences(tie: TieGroup, others: list, pairs: pd.DataFrame, min_difference: float | None) -> str:
    """What the joint intervals leave open for the models not separated from the leader."""
    adjust = table_metadata(pairs, "adjust", made_by="evallib.report.pairwise_items")
    interval_level = pairs.attrs.get("interval_level", tie.alpha)
    kind = (f"joint {level_text(1 - interval_level, digits=4)} intervals" if _joint(adjust, _n_tested(pairs))
            else f"{level_text(1 - interval_level if adjust != 'none' else tie.alpha)} "
            + ("interval" if len(pairs) == 1 else "intervals"))
    ahead, behind, ruled_out, alike = [], [], [], []
    for r in tie.comparisons.itertuples():
        other = r.b if r.a == tie.leader else r.a
        if other not in others:
            continue
        if getattr(r, "identical", False):
            alike.append(escape(other))
            continue
        up, down = (r.high, -r.low) if r.a == tie.leader else (-r.low, r.high)  # leader minus other
        # read against min_difference below: printed on its own side of it (0.02996, not 0.0300)
        ahead.append(f"{beside_bound(max(up, 0.0), min_difference)} ({escape(other)})")
        behind.append(f"{beside_bound(max(down, 0.0), min_difference)} ({escape(other)})")
        if min_difference is not None and up < min_difference and down < min_difference:
            ruled_out.append(escape(other))
    same = (f"{join_names(alike, limit=_LIST_LIMIT)} answered every item as the leader did: there is no "
            "difference to test, no interval and no statement of equivalence beyond these items" if alike else "")
    if not ahead:
        return same + "."
    if len(ahead) == 1:
        kind = kind.replace("intervals", "interval")
    allow = "allows" if kind.endswith("interval") else "allow"
    text = (f"Not separated is not tied: the paired differences' {kind} still {allow} the leader to be ahead by "
            f"up to {join_names(ahead, limit=_LIST_LIMIT)} and behind by up to "
            f"{join_names(behind, limit=_LIST_LIMIT)}, in the scores' units; the data do not establish their order at "
            f"alpha = {tie.alpha:g}." + (f" {same}." if same else ""))
    others = [o for o in others if escape(o) not in alike]
    if min_difference is not None:
        rest = [escape(o) for o in others if escape(o) not in ruled_out]
        if ruled_out:
            text += (f" Against the smallest difference that matters, {min_difference:g}: "
                     f"{'the interval rules' if len(ahead) == 1 else 'the intervals rule'} out a "
                     f"difference that large either way for {join_names(ruled_out, limit=_LIST_LIMIT)}")
            text += (f", but not for {join_names(rest, limit=_LIST_LIMIT)}." if rest else ".")
        else:
            text += (f" Against the smallest difference that matters, {min_difference:g}: "
                     + ("the interval does not rule out a difference that large, so more items are needed to call "
                        f"{join_names(map(escape, others))} equivalent." if len(ahead) == 1 else
                        "no interval rules out a difference that large, so more items are needed to call any of them "
                        "equivalent."))
    return text


def _point(text: str, section: int) -> str:
    """A summary sentence with the section it summarises named before its final period."""
    body = text.removesuffix(".")
    if f"section {section}" in body:
        return f"{body}."
    if body.endswith(")"):   # "(paired t-tests)" -> "(paired t-tests; section 3)"
        return f"{body[:-1]}; section {section})."
    return f"{body} (section {section})."


def _interval_name(row: pd.Series) -> str:
    """The method of a section 2 interval in words, from :func:`model_means`' row."""
    if row["method"] == "wilson":
        return ("Wilson's on the effective sample size" if math.isfinite(row["effective_n"])
                else "Wilson's")
    if row["method"] == "cr2":
        return f"CR2 t with {row['df']:.1f} Bell–McCaffrey df"
    if row["method"] == "t":
        return f"t over items, {row['df']:.0f} df"
    return str(row["method"])


def _planning_sentence(planning: ItemPlanning) -> str:
    """Section 6 in one summary sentence: the difference with the planned power on the file's items and,
    with ``min_difference``, the items that power needs; the level is the unadjusted one."""
    t = planning.table
    det = join_names((f"{v:.4f} against {escape(b)}" for v, b in zip(t["detectable"], t["b"])), limit=_LIST_LIMIT)
    text = (f"Planning: on the items {'the pair' if len(t) == 1 else 'each pair'} shares, a difference in mean score from {escape(t['a'].iloc[0])} of "
            f"{det} has power {planning.power:g} at level alpha = {planning.alpha:g} (two-sided), "
            f"{planning.unadjusted()}")
    if planning.min_difference is not None:
        more = int((t["needed_items"] > t["n_items"]).sum())
        need = join_names((f"{int(v):,} items against {escape(b)}" for v, b in zip(t["needed_items"], t["b"])),
                          limit=_LIST_LIMIT)
        held = ("fewer than the file holds" if more == 0 else
                ("more than the file holds" if len(t) == 1 else "each more than the file holds") if more == len(t)
                else f"{more} of these {len(t)} more than the file holds")
        text += (f"; power {planning.power:g} for the smallest difference that matters, {planning.min_difference:g}, "
                 f"needs {need}, {held}")
    else:
        text += "; --min-difference gives the items a difference that matters needs"
    ratios = (t["plan_se"] / t["observed_se"]).to_numpy(dtype=float)
    if np.isfinite(ratios).any():
        guarded = (t["observed_guarded"].to_numpy(bool) if "observed_guarded" in t else np.zeros(len(t), bool))
        shown = np.isfinite(ratios)
        every = bool(guarded[shown].all())
        text += ("; the plan's standard error of the difference is "
                 + join_names((f"{v:.2f} times section 3's against {escape(b)}"
                               + (" (the items-independent one section 3 used for that pair)" if g and not every else "")
                               for v, b, g in zip(ratios, t["b"], guarded) if math.isfinite(v)), limit=_LIST_LIMIT)
                 + (f", section 3's being the items-independent standard error{'s' if shown.sum() > 1 else ''} it "
                    "used in place of the CR2 one" + ("s" if shown.sum() > 1 else "") if every and guarded.any() else "")
                 + ", since the plan builds its variance from estimated parts and section 3 from the observed "
                   "differences, and a detectable difference is not an interval's half-width")
    outside = int(t["n_outside"].sum()) if "n_outside" in t else 0
    if outside:
        text += ("; one of the plan's estimates fell outside its range and was read as the nearest bound"
                 if outside == 1 else
                 f"; {outside:,} of the plan's estimates fell outside their range and were read as the nearest bound")
        text += ", as section 6 says"
    if planning.identical:
        text += "; " + planning._identical_text()
    return text + " (section 6)."


def _clipped_words(row: pd.Series, alpha: float) -> str:
    """Where a pass@k t interval (``estimate -/+ t se``) crossed 0 or 1 and was clipped to it, the unclipped
    end in words; ``""`` where it was not clipped.

    With the t quantile 2.023 on 39 df, 0.925 + 2.023 * 0.04 = 1.006:

    >>> _clipped_words(pd.Series({"pass_at_k": 0.925, "se": 0.04, "df": 39.0}), 0.05)
    ", clipped at 100% from the t interval's 100.6%"
    """
    if "se" not in row or not math.isfinite(float(row["se"])):
        return ""
    half = float(stats.t.isf(alpha / 2, float(row["df"]))) * float(row["se"])
    low, high = float(row["pass_at_k"]) - half, float(row["pass_at_k"]) + half
    ends = ([f"at 0% from the t interval's {low:.1%}"] if low < 0 else []) + (
        [f"at 100% from the t interval's {high:.1%}"] if high > 1 else [])
    return (", clipped " + " and ".join(ends)) if ends else ""


def _tasks_sentence(tasks: TaskTable) -> str:
    """Section 7 in one summary sentence: which of the leader's per-task differences are separated from 0."""
    d = tasks.differences
    m = len(d)
    how = (f"{ADJUST_NAME[tasks.adjust]}'s adjustment over the {m:,} rows" if tasks.adjust != "none"
           else "no adjustment")
    level = level_text(1 - tasks.interval_level, digits=4) + (" joint" if tasks.adjust != "none" else "")
    kind = _task_methods(d)
    apart = d[d["reject"]]
    text = (f"Per task, {escape(tasks.leader)} against each other model on the task's items ({len(tasks.items):,} "
            f"tasks, {how}, {level} {kind} intervals): ")
    if len(apart):
        shown = join_names((f"{escape(r.b)} on {escape(r.task)} ({escape(r.a)} - {escape(r.b)} = {signed(r.estimate)})"
                            for r in apart.itertuples()), limit=_LIST_LIMIT)
        text += (f"{len(apart):,} of the {m:,} differences {'is' if len(apart) == 1 else 'are'} separated from 0: "
                 f"{shown}")
    else:
        text += f"none of the {m:,} differences is separated from 0"
    return text + "; a task has fewer items than the file, so its intervals are wider (section 7)."


def _task_methods(d: pd.DataFrame) -> str:
    """The per-task table's interval method(s) in words."""
    kinds = set(d["method"])
    return ("paired t" if kinds == {"t"} else "CR2 t" if kinds == {"cr2"}
            else "paired t or CR2 t, by whether the task holds several clusters")


def _read_as_zero(what: str, estimate: float, meaning: str) -> str:
    """A share whose estimate fell below 0, in words: the estimate, and that it is read as 0."""
    return f"{what} was estimated at {estimate:.3f}, below zero, so it is read as 0: {meaning}"


def _quantile(df: float, alpha: float) -> float:
    """The two-sided quantile of t with ``df`` degrees of freedom, the normal one for inf."""
    return float(stats.norm.isf(alpha / 2) if not math.isfinite(df) else stats.t.isf(alpha / 2, df))


def _quantile_text(df: float, alpha: float) -> str:
    """The two-sided quantile an interval refers to, in words: t with its df, or the normal one."""
    if not math.isfinite(df):
        return f"the normal quantile {float(stats.norm.isf(alpha / 2)):.3f}"
    return f"the t quantile {float(stats.t.isf(alpha / 2, df)):.3f} ({df:,.1f} degrees of freedom)"


def _uniform(row: pd.Series) -> bool:
    """Whether every 0/1 score of a means row (Wilson on the effective sample size) is the same, so
    that its effective sample size is its number of items (:func:`evallib._inference.wilson_effective`)."""
    return math.isfinite(row["effective_n"]) and (not 0 < row["mean"] < 1 or row["se"] == 0)


def _capped(row: pd.Series) -> bool:
    """Whether Wilson's effective sample size of a means row is at its cap, the smaller of its number of 0/1
    scores and its items-independent sample size (a row whose scores are all the same is not capped: it takes
    its number of items)."""
    return (math.isfinite(row["effective_n"]) and not _uniform(row)
            and row["effective_n"] >= row["cap"] * (1 - 1e-12))


def _cap_text(row: pd.Series) -> str:
    """Which of the two bounds a capped row's effective sample size sits at, in words."""
    if row["cap"] >= row["scores"] * (1 - 1e-12):
        return f"its {int(row['scores']):,} 0/1 scores"
    return (f"its items-independent sample size, {row['cap']:,.1f}, below its {int(row['scores']):,} 0/1 scores "
            f"({row['scores'] / row['n_items']:.3g} answers per item)")


def _design_effect_sentence(row: pd.Series, ratio: float, alpha: float, n_clusters: int | None = None) -> str:
    """The leader's clustering: the variance ratio, the design effect its interval uses, and the quantiles."""
    text = (f"The leader's cluster-robust standard error is {math.sqrt(ratio):.2f} times the one that takes the "
            f"items as independent (variance ratio {ratio:.2f})")
    used = float(row["interval_design_effect"])
    both = math.isfinite(row["effective_n"])
    text += _few_clusters_noise(n_clusters, "this ratio and the design effect from it" if both else "this ratio",
                                many=both)
    if math.isfinite(row["effective_n"]):
        text += (f"; its Wilson interval uses the effective sample size {row['effective_n']:,.1f} of its "
                 f"{int(row['scores']):,} 0/1 scores, a design effect of {used:.2f} relative to independent answers")
        if _uniform(row):
            text += (f" (every answer is {row['mean']:g}, so the variance is 0 and the effective sample size is the "
                     f"number of items, {int(row['n_items']):,}: answers to one item that never differ carry one "
                     "item's information)")
        elif _capped(row):
            text += (f" (the effective sample size is capped, here at {_cap_text(row)}: the cap is the smaller of "
                     "the 0/1 scores and the items-independent sample size for every model, so a variance below "
                     "the items-independent one does not narrow the interval)")
    width = float(row["high"] - row["low"])
    alone = float(row["independent_high"] - row["independent_low"])
    times = width / alone if alone > 0 else float("nan")
    text += (f". Its interval, {row['low']:.4f} to {row['high']:.4f}, is {times:.2f} times as wide as the "
             f"{row['independent_low']:.4f} to {row['independent_high']:.4f} that taking the items as independent "
             f"gives; it takes {_quantile_text(float(row['df']), alpha)}, the independent one "
             f"{_quantile_text(float(row['independent_df']), alpha)}, a quantile ratio of "
             f"{_quantile(float(row['df']), alpha) / _quantile(float(row['independent_df']), alpha):.2f}")
    few = math.isfinite(row["df"]) and row["df"] < FEW_CLUSTERS
    # the standard error's ratio and the quantile's ratio are read apart: "not only its standard
    # error" only when the design effect is above 1
    if few and ratio > 1 and times > 1:
        text += ", so with few degrees of freedom its t quantile, not only its standard error, widens it"
    elif few and times > 1:
        clusters = f"the {n_clusters:,} clusters" if n_clusters is not None else "the clusters"
        text += (f"; its standard error is no larger; the widening is the t quantile's few degrees of freedom, "
                 f"which taking only {clusters} as independent imposes")
    elif few:
        text += ("; its smaller standard error outweighs the wider t quantile of few degrees of freedom")
    if not math.isfinite(times) or 0.95 <= times <= 1.05:
        verdict = "here the clusters change the interval little."
    elif times > 1.05 and ratio <= 1:
        clusters = f"{n_clusters:,} clusters" if n_clusters is not None else "few clusters"
        verdict = (f"the wider interval is the price of resting on {clusters}, not evidence that the items of a "
                   "cluster are alike.")
    elif times > 1.05:
        verdict = "the clusters matter: taking the items as independent would have made its interval too narrow."
    else:
        verdict = ("the cluster-robust interval is the narrower one here; it is the one that does not assume the "
                   "items independent.")
    return f"{text}; {verdict}"


def effective_n_note(means: pd.DataFrame) -> str | None:
    """Section 2's note on the cap of Wilson's effective sample size, with each model's numbers.

    The cap is one rule for every model: the smaller of its number of 0/1 scores (the answers, Korn and
    Graubard's truncation at a design effect of 1 relative to independent answers) and the sample size of
    its items-independent interval (the items for one answer per item; with several, the effective sample
    size the items-independent variance gives), so a cluster-robust variance below the items-independent one
    narrows no model's interval. A model whose scores are all the same takes its number of items instead.
    None when no interval is Wilson's on the effective sample size.
    """
    rows = means[np.isfinite(means["effective_n"].to_numpy(dtype=float))]
    if not len(rows):
        return None
    text = ("Wilson's effective sample size is p(1 - p) / variance, capped, for every model, at the smaller of its "
            "number of 0/1 scores (its answers: items × answers per item; a design effect of at least 1 relative "
            "to independent answers, Korn and Graubard's truncation) and the sample size of its items-independent "
            "interval (its items with one answer per item; with several, the effective sample size of the "
            "items-independent variance): a cluster-robust variance below the items-independent one, which a "
            "variance ratio below 1 gives by chance when the clusters hardly matter, is taken at the cap, so it "
            "narrows no model's interval")
    noise = _few_clusters_noise(means.attrs.get("n_clusters"), "the cluster-robust variances, and so the effective "
                                "sample sizes and design effects", many=True)
    text += (f"{noise}." if noise else ".")
    capped = [(m, r) for m, r in rows.iterrows() if _capped(r)]
    if capped:
        text += (" The cap binds for " + join_names((f"{escape(m)} (at {_cap_text(r)})" for m, r in capped),
                                                     limit=_LIST_LIMIT) + ".")
    free = [(m, r) for m, r in rows.iterrows() if not _capped(r) and not _uniform(r)]
    if free:
        text += (" It does not bind for " + join_names((f"{escape(m)} (effective sample size {r['effective_n']:,.1f} "
                                                        f"below its cap {r['cap']:,.1f})" for m, r in free),
                                                       limit=_LIST_LIMIT)
                 + ": their cluster-robust variance is above the items-independent one.")
    for m, r in rows.iterrows():
        if _uniform(r):
            text += (f" Every answer of {escape(m)} is {r['mean']:g}, so its variance is 0 and says nothing: its "
                     f"effective sample size is its number of items, {int(r['n_items']):,}"
                     + (f", not its {int(r['scores']):,} answers, since answers to one item that never differ carry "
                        "one item's information." if r["scores"] > r["n_items"] else "."))
    return text


def _pairs_sentences(pairs: pd.DataFrame, alpha: float) -> list[str]:
    out = []
    adjust = table_metadata(pairs, "adjust", made_by="evallib.report.pairwise_items")
    m = len(pairs)
    k = _n_tested(pairs)   # the family: the pairs of models that did not answer every item alike
    if m == 1:  # one pair's adjusted test is its own test: no adjustment to name
        lead = f"With {_adjust_words(adjust, m)}"
    elif 0 < k < m:
        lead = (f"With {_adjust_words(adjust, k, m - k)}" if k == 1 or adjust == "none" else
                f"With {ADJUST_NAME[adjust]}'s adjustment for the {plural(k, 'comparison')} tested ("
                + ("the pair" if m - k == 1 else f"the {m - k:,} pairs") + " that answered every item alike "
                + ("is" if m - k == 1 else "are") + " not part of the family)")
    else:
        lead = (f"With {ADJUST_NAME[adjust]}'s adjustment for {plural(m, 'comparison')}" if adjust != "none"
                else f"Without adjustment for the {plural(m, 'comparison')}")
    if adjust in FDR_ADJUSTMENTS and k > 1:
        lead += " (it controls the share of false findings among the differences declared, not the chance of any)"
    clustered = pairs.attrs.get("n_clusters") is not None
    one = m == 1 or k == 1
    tests = ("a paired CR2 t-test, cluster-robust" if one else "paired CR2 t-tests, cluster-robust") if clustered \
        else ("a paired t-test" if one else "paired t-tests")
    used = guarded_se_words(pairs)
    if used and "every pair" in used or used.endswith("for the pair"):
        tests = (f"{'a paired t-test' if m == 1 else 'paired t-tests'} on the CR2 Bell–McCaffrey degrees of freedom, "
                 f"with {used}")
    elif used:
        tests += f"; {used.replace('so marked in the verdict', 'named below')}"
    rejected = [(a, b) for a, b, r in zip(pairs["a"], pairs["b"], pairs["reject"]) if r]
    if rejected:
        shown = "; ".join(f"{escape(a)} over {escape(b)}" for a, b in rejected[:_LIST_LIMIT])
        more = f"; and {len(rejected) - _LIST_LIMIT:,} more (every pair is in section 3)" if len(rejected) > _LIST_LIMIT else ""
        which = ("the one pairwise difference is" if m == 1 else
                 f"{len(rejected):,} of the pairwise differences {'is' if len(rejected) == 1 else 'are'}")
        out.append(f"{lead}, {which} significant at alpha = {alpha:g} ({tests}): {shown}{more}.")
    else:
        which = ("the one pair is not shown to differ" if m == 1 else
                 "the one pair tested is not shown to differ" if k == 1 else
                 "none of the pairs tested is shown to differ" if k < m else "none of the pairs is shown to differ")
        if pairs["identical"].all() if "identical" in pairs else False:
            which = ("the one pair answered every item alike, so there is nothing to test" if m == 1 else
                     "every pair answered every item alike, so there is nothing to test")
            out.append(f"{lead}, {which}.")
        else:
            out.append(f"{lead}, {which} at alpha = {alpha:g} ({tests}).")
    for note in (pairs_guard_note(pairs), pairs_identical_note(pairs), pairs_interval_note(pairs)):
        if note:
            out.append(note)
    if pairs.attrs.get("mcnemar"):
        differ = [(a, b) for a, b, r, q in zip(pairs["a"], pairs["b"], pairs["reject"], pairs["mcnemar_reject"])
                  if r != q]
        if differ:
            out.append(f"McNemar's mid-p test (adjusted the same way) reaches another verdict than the paired t-test "
                       f"for {plural(len(differ), 'pair')} ({'; '.join(f'{escape(a)} vs {escape(b)}' for a, b in differ[:_LIST_LIMIT])}"
                       f"{' and more' if len(differ) > _LIST_LIMIT else ''}): a borderline difference, which the two "
                       "tests weigh slightly differently (McNemar counts only the items the two disagree on).")
        else:
            alike = int(pairs["identical"].sum()) if "identical" in pairs else 0
            tested = m - alike
            if tested:
                which = ("the one pair" if m == 1 else "every pair" if not alike else
                         "the one pair tested" if tested == 1 else f"each of the {tested:,} pairs tested")
                out.append("McNemar's mid-p test, which counts only the items on which two models disagree, reaches "
                           f"the same verdict as the paired t-test for {which}.")
    return out


def items_summary_text(
    data: ItemScores,
    *,
    overview: ItemsOverview,
    means: pd.DataFrame,
    pairs: pd.DataFrame,
    samples: SampleAnalysis | Skipped,
    board: Leaderboard,
    alpha: float = 0.05,
    min_difference: float | None = None,
    planning: ItemPlanning | Skipped | None = None,
    tasks: TaskTable | Skipped | None = None,
) -> str:
    """The findings in Markdown bullets: the leader, its not-separated group, its rank, the pairs, samples, assumptions.

    One bullet per question, effect sizes and intervals before p-values; warnings first;
    every name from the file escaped (:func:`~evallib.report._prose.escape`). Each bullet
    names the section it summarises, and only sections the report holds are mentioned: the
    repeated answers' bullets when ``samples`` is a :class:`SampleAnalysis`, the planning
    bullet when ``planning`` is an :class:`ItemPlanning` (section 6), the per-task bullet when
    ``tasks`` is a :class:`TaskTable` (section 7); a :class:`Skipped` or None leaves its
    bullet out. A model that is not separated from the leader is never called tied or equal:
    the bullet gives the largest difference each way that its joint interval leaves open, and
    with ``min_difference`` (the smallest difference that matters, in the scores' units)
    whether the interval rules a difference that large out.
    """
    level = level_text(alpha)
    out = [_point(f"**Warning:** {w}", 1) for w in overview.warnings]
    tie = board.tie
    leader = str(tie.leader)
    r = means.loc[leader]
    where = f"{data.n_items:,} items" + (f" in {data.n_clusters:,} clusters" if data.clustered else "")
    own = data.sample_counts()[:, list(data.models).index(leader)]  # the leader's answers per item
    lo, hi = int(own.min()), int(own.max())
    # models whose mean equals the leader's (to machine precision) share the highest mean: none is "the" highest
    sharing = [str(m) for m, v in means["mean"].items() if abs(float(v) - float(r["mean"])) < 1e-12]
    sharing = [leader] + [m for m in sharing if m != leader]
    subject = (f"**{escape(leader)}** has the highest mean score, {r['mean']:.4f} (" if len(sharing) == 1 else
               f"{join_names((f'**{escape(m)}**' for m in sharing), limit=_LIST_LIMIT)} share the highest mean score, "
               f"{r['mean']:.4f} ({escape(leader)}, listed first as the leader: ")
    out.append(f"{subject}{level} interval "
               f"{r['low']:.4f} to {r['high']:.4f}, {_interval_name(r)}) over {where}"
               + (f", each answered {lo} times by it" if lo == hi > 1
                  else (f", each answered {lo} to {hi} times by it" if hi > 1 else "")) + " (section 2).")
    how = _adjust_words(tie.adjust, _n_tested(pairs), len(pairs) - _n_tested(pairs))
    others = list(tie.members[1:])
    alike = _answered_alike(tie)
    tested = [o for o in others if str(o) not in alike]
    apart = ('no model is' if not tie.separated else
             plural(len(tie.separated), 'model') + (' is' if len(tie.separated) == 1 else ' are'))
    if others and not tested:   # the only models not separated answered every item as the leader did
        out.append(f"{apart[0].upper()}{apart[1:]} separated from the leader at alpha = {alpha:g} "
                   f"({'a paired test' if len(pairs) == 1 else 'paired tests'}, {how}; section 5). "
                   + _open_differences(tie, others, pairs, min_difference))
    elif others:
        out.append(f"{plural(len(tested), 'model')} {'is' if len(tested) == 1 else 'are'} not shown to differ from "
                   f"the leader at alpha = {alpha:g} "
                   f"({'a paired test' if len(tested) == 1 else 'paired tests'}, {how}): "
                   f"{join_names(map(escape, tested), limit=_LIST_LIMIT)}; {apart} "
                   "separated from it (section 5). " + _open_differences(tie, others, pairs, min_difference)
                   + (" Each pair's verdict follows its own paired standard error (how consistently the two models "
                      "differ item by item), not the gap between their means alone." if len(pairs) > 1 else ""))
    else:
        apart = (escape(tie.separated[0]) if len(tie.separated) == 1 else
                 f"Every other model ({join_names(map(escape, tie.separated), limit=_LIST_LIMIT)})")
        out.append(f"{apart} is separated from the leader at alpha = {alpha:g} "
                   f"({'a paired test' if len(pairs) == 1 else 'paired tests'}, {how}; "
                   "section 5).")
    ranks = board.ranks
    top = ranks.iloc[0]
    unit = "clusters" if data.clustered else "items"
    b = int(ranks.attrs.get("n_resamples", 0))
    # the threshold compares the unrounded shares; each is printed as section 5's table prints it
    rival = ranks.iloc[1:][ranks["p_best"].iloc[1:] >= RIVAL_SHARE]
    rival_text = (("; the other model that ranks first" if len(rival) == 1 else "; the other models that rank first")
                  + f" in a share of at least {RIVAL_SHARE:g} of them: "
                  + join_names((f"{escape(m)} ({_share_text(p, e, b)})"
                                for m, p, e in zip(rival["model"], rival["p_best"], rival["p_best_se"])),
                               limit=_LIST_LIMIT)
                  if len(rival) else
                  f"; no other model ranks first in a share of {RIVAL_SHARE:g} of them or more")
    interval = (f"{int(top['rank_low'])}" if top['rank_low'] == top['rank_high'] else
                f"{int(top['rank_low'])} to {int(top['rank_high'])}")
    out.append(f"In {b:,} bootstrap resamples of the {unit} (Poisson weights), {escape(top['model'])}'s "
               f"{level} rank interval (bootstrap percentile) is {interval} of {len(ranks)}, and the share of "
               "bootstrap resamples in which it ranks first (a share of resamples, not a probability that it is best; "
               "a first place shared by j models whose means coincide counts 1/j to each) is "
               f"{_share_text(float(top['p_best']), float(top['p_best_se']), b)}{rival_text}"
               + (f"; {caveat[0].lower()}{caveat[1:]}" if (caveat := rank_bootstrap_note(pairs)) else "")
               + " (section 5).")
    out.extend(_point(t, 3) for t in _pairs_sentences(pairs, alpha))
    if data.clustered:
        ratio = float(means.loc[leader, "design_effect"])
        if math.isfinite(ratio):
            out.append(_point(_design_effect_sentence(means.loc[leader], ratio, float(means.attrs["alpha"]),
                                                      data.n_clusters), 2))
    else:
        out.append(_point("**Assumption:** " + independence_note(data, markdown=True), 1))
    if isinstance(samples, SampleAnalysis):
        c = samples.components
        repeated = [m for m in means.index if m in c.index and np.isfinite(c.loc[m, "within"])]
        # the leader, or, when it answered each item once, the best of the models that answered more often
        who = leader if leader in repeated else (repeated[0] if repeated else None)
        whose = ("The leader's answers" if who == leader else
                 ("The leader answered each item once; of the models that answered items more than once, "
                  f"{escape(who)} has the highest mean, and its answers" if len(repeated) > 1 else
                  f"The leader answered each item once; {escape(who)} is the only model that answered items more "
                  "than once, and its answers"))
        if who is not None:
            row = c.loc[who]
            total = row["between"] + row["within"]
            share = row["within"] / total if total > 0 else 0.0
            hedge = ("; these are CR2 cluster-robust standard errors, which take the clusters into account, and "
                     "the floor is the clustered one"
                     + _few_clusters_noise(data.n_clusters, "these standard errors and the floor", many=True)
                     if data.clustered else "")
            if not total > 0:   # every answer the same: there is no variance to split
                split = (f"{whose} do not vary: every answer is {means.loc[who, 'mean']:g}, "
                         "so both variances are 0 and their split between and within items is undefined (section 4)")
                floor = None
            elif row["truncated"]:
                split = (f"{whose} to one item are not shown to be more alike than its answers to different "
                         "items: "
                         + _read_as_zero("the between-item share of one answer's variance", row["icc_raw"],
                                         "all of an answer's variance is counted within items, although the items "
                                         "may differ for it by less than this file can detect")
                         + " (section 4)")
                floor = (f"and no number of answers would take it below {row['floor']:.4f}, a floor that rests on the share read "
                         "as 0 and is too low if the items do differ" if not data.clustered
                         else f"and no number of answers would take it below {row['floor']:.4f} (only more items do that)")
            else:
                split = (f"{whose} to one item vary: {share:.0%} of the variance of one answer lies "
                         f"within items (sampling), {1 - share:.0%} between items (section 4)")
                floor = f"and no number of answers would take it below {row['floor']:.4f} (only more items do that)"
            if floor is None:
                out.append(f"{split}; a standard error of 0 says nothing about the precision of its mean, for which "
                           "section 2's interval is the one to quote.")
            else:
                out.append(f"{split}; twice the answers per item would take the standard error of its mean from "
                           f"{row['se']:.4f} to {row['se_double']:.4f}, {floor}{hedge}.")
        if isinstance(samples.passk, pd.DataFrame):
            subject = leader if who is None else who
            own = samples.passk[samples.passk["model"] == subject]
            k = int(own["k"].max()) if len(own) else 1
            if k > 1:
                p = own[own["k"] == k].iloc[0]
                rivals = samples.passk[samples.passk["k"] == k].sort_values("pass_at_k", ascending=False, kind="stable")
                best = rivals.iloc[0]
                kind = "CR2 t interval" if data.clustered else "t interval over items"
                answers = data.sample_counts()[:, list(data.models).index(subject)]
                answers = answers[answers > 0]          # the items it scored, as pass@k uses
                fewest, most = int(answers.min()), int(answers.max())
                lead = (f"With {k} answers per item, {escape(subject)} gets at least one right"
                        if fewest == most == k else
                        f"{escape(subject)} answered each item {fewest} to {most} times; drawing {k} of an item's "
                        f"answers (the fewest any item has), it gets at least one right")
                spread = (f"{level} {kind} {p['low']:.1%} to {p['high']:.1%}{_clipped_words(p, alpha)}"
                          if p["high"] - p["low"] > 0 else
                          f"every item has the same pass@{k}, so its standard error is 0 and no interval is shown: "
                          "one of zero width would say nothing about precision")
                text = (f"{lead} on {p['pass_at_k']:.1%} "
                        f"of the items (pass@{k}; {spread}) and all {k} "
                        f"right on {p['pass_hat_k']:.1%} (pass^{k})")
                if str(best["model"]) != subject:
                    text += (f"; the highest pass@{k} by point estimate is {escape(best['model'])}'s, "
                             f"{best['pass_at_k']:.1%} ({level} {kind} {best['low']:.1%} to {best['high']:.1%}"
                             f"{_clipped_words(best, alpha)}; "
                             "a ranking of estimates, not a test)")
                out.append(text + " (section 4).")
    if isinstance(planning, ItemPlanning):
        out.append(_planning_sentence(planning))
    if isinstance(tasks, TaskTable):
        out.append(_tasks_sentence(tasks))
    return "\n".join(f"- {s}" for s in out)


# ------------------------------------------------------------------ section 6: planning
#: The power the planning section plans for.
PLANNING_POWER = 0.8
#: the share of the detectable difference at which section 6 prints the power, to show that a
#: smaller true difference is found with less than the planned power (not that it is missed)
SMALLER_SHARE = 0.8


@dataclass(frozen=True, eq=False)
class ItemPlanning:
    """Section 6: the items ``min_difference`` needs for the planned power, and the difference with that power at
    the file's size (at the unadjusted level ``alpha``).

    Attributes
    ----------
    table : DataFrame, one row per comparison of the leader with another model: ``a`` (the
        leader), ``b``, ``n_items`` (items both scored), ``sd_a``, ``sd_b`` (SD across items of
        the expected scores), ``correlation`` (of the expected scores), ``within_sd_a``,
        ``within_sd_b`` (SD of one answer around its item's expected score; 0 with one answer
        per item, whose noise is then part of ``sd_a``, ``sd_b``), ``noise_identified_a``,
        ``noise_identified_b`` (False where it is 0 for that reason; the table prints ``"-"``), ``samples`` (answers per item
        planned, the file's median), ``cluster_size`` (items per cluster: the file's size-weighted
        mean ``sum m^2 / sum m``, rounded, as Kish's design effect takes it for unequal clusters), ``icc`` (of the expected differences within a cluster, in [0, 1]), ``icc_raw``
        (its estimate before it was read as 0 below 0 or as 1 above 1; NaN without clusters or
        where it cannot be estimated, and then ``icc`` is 0), ``note`` (what was read as 0 or
        1, in words; ``""`` if nothing), ``n_outside`` (how many of the pair's estimates -- the ICC, each
        model's between-item share -- fell outside their range and were read as the bound), ``variance`` (``V``
        of :func:`evallib.planning.item_difference_variance`), ``plan_se`` (``sqrt(V / n_items)``, the
        plan's standard error of the mean difference at the file's items), ``observed_se`` (the standard
        error section 3 decided the pair with: CR2 with clusters, the items-independent one where it guarded
        the pair), ``observed_guarded`` (whether it did), ``observed_clustered_se`` (the pair's CR2 standard
        error, used or not), ``observed_df`` (its degrees of
        freedom, Bell–McCaffrey's with clusters, beside the planned ``df``), ``n_clusters`` (the file's
        clusters holding the pair's shared items, a count; NaN without clusters), ``detectable`` (the difference
        with power ``power`` at the file's ``n_items``), ``power_smaller`` (the power at
        ``SMALLER_SHARE`` (0.8) times ``detectable``: a smaller true difference is found with less
        than the planned power, but not rarely), ``df`` (of that t-test: the file's clusters, or items
        without clusters, ``n_items / cluster_size``, minus 1, as the t-test takes them), ``needed_items`` and ``needed_clusters`` (for
        ``min_difference``, the t-test then on ``needed_clusters - 1`` df; NaN without it).
    min_difference : the difference that matters (None when not given).
    alpha, power : the two-sided level and the power planned for.
    cluster_word : what a cluster is called in the sentences ("task" when the tasks of
        harness files are the clusters, else "cluster").
    identical : the models left out of the plan because they answered every item as the leader did
        (no variance to plan with, no power statement).
    unplanned : why each other pair left out of the plan has none, in words with its numbers (too few
        shared items for two of the plan's clusters of the size-weighted mean size, or two items).
    """

    table: pd.DataFrame
    min_difference: float | None
    alpha: float
    power: float
    cluster_word: str = "cluster"
    identical: tuple = ()
    unplanned: tuple = ()

    def unadjusted(self) -> str:
        """The level's caveat in words: the power is at ``alpha`` itself, not at a level adjusted for the
        table's comparisons with the leader (section 3 adjusts; the power there is lower)."""
        m = len(self.table)
        return ("unadjusted for multiplicity" if m == 1 else
                f"unadjusted for the {plural(m, 'comparison')} with the leader")

    def sentences(self) -> list[str]:
        """The plan in words, one sentence per comparison, every number from ``table``.

        Returns
        -------
        list of str
            Markdown sentences, names escaped.
        """
        out = []
        level = f"has power {self.power:g} at level alpha = {self.alpha:g} (two-sided), {self.unadjusted()}"
        for _, r in self.table.iterrows():
            unit = f"{self.cluster_word} means" if r["cluster_size"] > 1 else "item differences"
            design = (f"{int(r['samples'])} answer{'s' if r['samples'] > 1 else ''} per item"
                      + (f", {self.cluster_word}s of a size-weighted mean of {int(r['cluster_size'])} items with "
                         "an ICC of the expected "
                         + (f"differences of {r['icc']:.3f}" if not _bounded(r) else
                            f"differences read as {r['icc']:.0f}, as said below")
                         if r["cluster_size"] > 1 else ""))
            text = (f"{escape(r['a'])} vs {escape(r['b'])}: on its {int(r['n_items']):,} shared items a difference "
                    f"of {r['detectable']:.4f} (mean score) {level} ({design}; the paired t-test on the {unit}, "
                    # a fractional planned df to 2 decimals, as its J = n / m beside it (J - 1 and J agree)
                    + (f"{r['df']:,.2f} degrees of freedom" if r["cluster_size"] > 1 and not float(r["df"]).is_integer()
                       else _df_words(r["df"])) + self._df_beside(r) + ")"
                    + f"; a true difference of {SMALLER_SHARE:g} times it, {SMALLER_SHARE * r['detectable']:.4f}, has "
                      f"power {r['power_smaller']:.2f}: a smaller true difference is found with less than the planned "
                      "power, and not finding it would not show it absent")
            if self.min_difference is not None:
                clusters = (f" ({int(r['needed_clusters']):,} {self.cluster_word}s)" if r["cluster_size"] > 1 else "")
                text += (f"; power {self.power:g} for a difference of {self.min_difference:g} needs "
                         f"{int(r['needed_items']):,} items{clusters} (t on {_df_words(r['needed_clusters'] - 1)}), "
                         + ("fewer than" if r["needed_items"] <= r["n_items"] else "more than")
                         + " the file holds")
            out.append(text + "." + (f" {r['note']}" if r["note"] else "") + self._reconcile(r))
        if self.identical:
            out.append(self._identical_text() + ".")
        out += [f"No plan for {reason}." for reason in self.unplanned]
        return out

    def _identical_text(self) -> str:
        """The models left out of the plan for answering every item as the leader did, in words."""
        leader = escape(self.table["a"].iloc[0])
        names = join_names((escape(v) for v in self.identical), limit=_LIST_LIMIT)
        return (f"{names} answered every item as {leader} did: the paired differences are all 0, so there is no "
                "difference to test and no variance to plan from, and no power statement is made for "
                + ("it" if len(self.identical) == 1 else "them"))

    def _df_beside(self, r: pd.Series) -> str:
        """What the plan's degrees of freedom are, and section 3's observed ones beside them, where the two print
        differently (empty for a plan on whole clusters, or items, whose df section 3 shares).

        The plan's are its design's ``J - 1``, ``J = n / m`` for the shared items ``n`` in clusters of the
        size-weighted mean size ``m``: a planning quantity that need not be a whole number of clusters. Section
        3's are the Bell–McCaffrey df of its CR2 test, from the file's observed clusters (a count, printed whole).
        """
        seen = float(r.get("observed_df", np.nan))
        # compared as the plan prints its df: to 2 decimals where fractional
        differ = math.isfinite(seen) and f"{seen:.2f}" != f"{float(r['df']):.2f}"
        whole = float(r["df"]).is_integer()
        if r["cluster_size"] <= 1:
            return (f"; a different number from the {seen:,.1f} degrees of freedom of section 3's paired t-test of "
                    "this pair, from its observed items" if differ else "")
        if whole and not differ:
            return ""
        word = self.cluster_word
        planned = r["n_items"] / r["cluster_size"]
        text = (f", the planned design's J − 1 for J = {int(r['n_items']):,} items / {int(r['cluster_size'])} per "
                f"{word} (the size-weighted mean {word} size) = "
                + (f"{planned:,.0f} {word}s" if whole else
                   f"{planned:,.2f} {word}s, a planning quantity rather than a count of {word}s"))
        if differ:
            n_clusters = r.get("n_clusters", np.nan)
            observed = (f"the file's {int(n_clusters):,} observed {word}s" if math.isfinite(float(n_clusters))
                        else f"the file's observed {word}s")
            text += (f"; a different number from section 3's {seen:,.1f} Bell–McCaffrey degrees of freedom, which "
                     f"its CR2 test of this pair takes from {observed}")
        return text

    def _reconcile(self, r: pd.Series) -> str:
        """The plan's standard error beside section 3's, and why the detectable difference is not the
        interval's half-width (empty when section 3 has no standard error for the pair)."""
        plan, seen = float(r["plan_se"]), float(r.get("observed_se", np.nan))
        if not (math.isfinite(plan) and math.isfinite(seen) and seen > 0):
            return ""
        clustered = r["cluster_size"] > 1
        guarded = bool(r.get("observed_guarded", False))
        source = ("the spread of the items' observed differences taken as independent (the items-independent "
                  "standard error, which section 3 used for this pair in place of its CR2 one, "
                  f"{r['observed_clustered_se']:.4f})" if guarded else
                  f"the spread of the {self.cluster_word}s' observed differences (CR2)" if clustered
                  else "the spread of the items' observed differences")
        ratio = plan / seen
        text = (f" The plan and section 3's interval use different variances: the plan's standard error of the mean "
                f"difference on these {int(r['n_items']):,} items, sqrt(V / n) = {plan:.4f}, is built from the parts "
                f"in the table (V = {r['variance']:.4f}, with {int(r['samples'])} "
                f"answer{'s' if r['samples'] > 1 else ''} per item"
                + (f" and the ICC {'read as' if _bounded(r) else 'of'} {r['icc']:.3g}" if clustered else "")
                + f"), section 3's, {seen:.4f}, from {source}, and the plan's is {ratio:.2f} times section 3's")
        if guarded and _bounded(r) and r["icc_raw"] < 0:
            cr2 = float(r["observed_clustered_se"])
            text += ("; the ICC estimate below 0 shows in that CR2 standard error ("
                     + (f"the plan's is {plan / cr2:.2f} times it" if cr2 > 0 else
                        f"it is 0: the {self.cluster_word}s' mean differences are all alike")
                     + "), which section 3 set aside as too noisy on "
                     f"so few {self.cluster_word}s, not in the independent one it used")
        elif clustered and _bounded(r) and r["icc_raw"] < 0 and ratio > 1:
            text += (f", in part because the ICC estimate below 0 says the {self.cluster_word}s' mean differences "
                     f"vary less than independent items' would, which section 3's standard error reflects and the "
                     "plan, reading the ICC as 0, does not")
        return text + (f"; and the detectable difference, {r['detectable']:.4f}, is {r['detectable'] / plan:.2f} times "
                       f"the plan's standard error (the test's critical value plus the margin for power "
                       f"{self.power:g}), not the half-width of an interval (a t quantile times a standard "
                       "error).")


def _df_words(df: float) -> str:
    """Degrees of freedom in words: whole numbers without decimals."""
    df = float(df)
    return (f"{df:,.0f}" if df.is_integer() else f"{df:,.1f}") + (" degree" if df == 1 else " degrees") + " of freedom"


def _bounded(row: pd.Series) -> bool:
    """Whether a planning row's ICC estimate fell outside [0, 1] and was read as the bound."""
    return bool(math.isfinite(row["icc_raw"]) and row["icc_raw"] != row["icc"])


def _cluster_word(data: ItemScores) -> str:
    """What a cluster is called in words: "task" when the tasks of harness files are the clusters."""
    return "task" if data.tasks and data.cluster_column == TASK_CLUSTER else "cluster"


def weighted_cluster_size(sizes) -> float:
    """The size-weighted mean cluster size ``m* = sum m_g^2 / sum m_g``.

    Kish's design effect for clusters of unequal size, ``1 + (m* - 1) icc``, takes this mean (the
    size of the cluster an item is in, averaged over the items), not the plain mean of the sizes;
    it equals the common size when the clusters are equal and exceeds the mean otherwise.

    >>> weighted_cluster_size([2, 4])
    3.3333333333333335
    """
    m = np.asarray(sizes, dtype=float)
    if m.ndim != 1 or m.size == 0 or not np.all(np.isfinite(m)) or np.any(m <= 0):
        raise ValueError(f"sizes must be a non-empty 1-D array of positive cluster sizes, got {sizes!r}")
    return float((m * m).sum() / m.sum())


def icc_null_se(cluster_size: int, n_clusters: int) -> float:
    """The large-sample standard error of the one-way ANOVA estimate of an ICC at ICC 0.

    Fisher's approximation for ``G`` clusters of ``m`` items,
    ``var = 2 (1 - rho)^2 (1 + (m - 1) rho)^2 / (m (m - 1) (G - 1))``, at ``rho = 0``:
    ``sqrt(2 / (m (m - 1) (G - 1)))``. With unequal clusters the report passes the size-weighted
    mean :func:`weighted_cluster_size`, rounded, the ``m`` its plan uses.

    >>> round(icc_null_se(18, 67), 4)
    0.01
    """
    m, g = check_count(cluster_size, "cluster_size", minimum=2), check_count(n_clusters, "n_clusters", minimum=2)
    return math.sqrt(2.0 / (m * (m - 1) * (g - 1)))


def _pair_plan_parts(data: ItemScores, a: str, b: str, alpha: float = 0.05) -> dict:
    """The planning variance parts of the pair (a, b), estimated from the file on the items both scored.

    An ICC estimate below 0 is read as 0 for the plan, and the note gives the largest ICC the
    file does not rule out: the estimate plus ``z_{1 - alpha/2}`` times :func:`icc_null_se`
    (scaled, as the estimate is, from the observed differences to the expected ones).
    """
    ja, jb = data.models.index(a), data.models.index(b)
    counts = data.sample_counts()
    shared = (counts[:, ja] > 0) & (counts[:, jb] > 0)
    blocks = [data.scores[shared, j, :] for j in (ja, jb)]
    means = [np.nanmean(block, axis=1) for block in blocks]
    samples = max(1, int(round(float(np.median(counts[shared][:, [ja, jb]])))))
    own = [float(np.median(counts[shared, j])) for j in (ja, jb)]
    notes = []
    outside = 0   # the estimates that fell outside what they can be and were read as the nearest bound
    if own[0] != own[1]:
        once = [escape(n) for n, k in zip((a, b), own) if k <= 1]
        notes.append(f"The plan takes {samples} answer{'s' if samples > 1 else ''} per item, the median over the two "
                     f"models' items, where {escape(a)} gave {own[0]:g} per item and {escape(b)} {own[1]:g} (medians)"
                     + (", a compromise neither model used" if samples not in own else "")
                     + (f"; {once[0]}'s one answer per item leaves its answers' noise inside the SD of its expected "
                        "scores, which more answers would not shrink in this plan" if samples > 1 and once else "")
                     + ".")
    sds, withins, identified = [], [], []
    for name, block, y in zip((a, b), blocks, means):
        try:
            if samples == 1:
                raise ValueError("one answer per item")
            vc = variance_components(block)
            sd, within = math.sqrt(vc.between), math.sqrt(vc.within)
            identified.append(True)
            if vc.truncated:
                outside += 1
                notes.append(f"For {escape(name)}, " + _read_as_zero(
                    "the between-item share of one answer's variance", vc.icc_raw,
                    "the file does not show its answers to one item to be more alike than its answers to different "
                    "items, so the SD of its expected scores is taken as 0 (the plan is too optimistic if its items "
                    "do differ by less than this file can detect)"))
        except ValueError:  # one answer per item: its noise is part of the spread between items
            sd, within = float(np.std(y, ddof=1)), 0.0
            identified.append(False)
        sd = min(sd, 0.5)
        sds.append(sd)
        withins.append(min(within, math.sqrt(max(0.25 - sd * sd, 0.0))))   # one answer's variance <= 1/4
    if samples == 1:
        withins, identified = [0.0, 0.0], [False, False]
    cov = float(np.cov(means[0], means[1], ddof=1)[0, 1])
    correlation = float(np.clip(cov / (sds[0] * sds[1]), -1.0, 1.0)) if sds[0] > 0 and sds[1] > 0 else 0.0
    cluster_size, icc, icc_raw = 1, 0.0, float("nan")
    word = _cluster_word(data)
    if data.clustered:
        codes = data.clusters[shared]
        sizes = np.bincount(codes)
        sizes = sizes[sizes > 0]
        # Kish's design effect 1 + (m - 1) icc for clusters of unequal size takes the size-weighted mean
        # m* = sum m^2 / sum m (the size of the cluster an item is in, on average over the items)
        cluster_size = max(1, int(round(weighted_cluster_size(sizes))))
        if cluster_size > 1:
            # the between-cluster share of the observed differences (the one-way ANOVA of
            # variance_components, clusters x items; shifted into [0, 1], which leaves shares unchanged)
            d = (means[0] - means[1] + 1.0) / 2.0
            order = np.argsort(codes, kind="stable")
            _, start = np.unique(codes[order], return_index=True)
            grid = np.full((start.size, int(sizes.max())), np.nan)
            rows = np.repeat(np.arange(start.size), np.diff(np.append(start, codes.size)))
            grid[rows, np.arange(codes.size) - start[rows]] = d[order]
            try:
                observed = variance_components(grid, missing="drop").icc_raw
            except ValueError:  # no cluster of two shared items, or one cluster
                observed = float("nan")
            omega2 = sds[0] ** 2 + sds[1] ** 2 - 2 * correlation * sds[0] * sds[1]
            noise = (withins[0] ** 2 + withins[1] ** 2) / samples
            # the observed differences' ICC is icc * omega^2 / (omega^2 + noise) (item_difference_variance)
            if omega2 > 0 and math.isfinite(observed):
                icc_raw = float(observed * (omega2 + noise) / omega2)
                icc = float(np.clip(icc_raw, 0.0, 1.0))
            what = f"the ICC of the expected differences within a {word}"
            if not math.isfinite(icc_raw):
                reason = ("the two models' expected scores do not differ from item to item" if omega2 <= 0
                          else f"no two {word}s hold two shared items each")
                notes.append(f"{what[0].upper()}{what[1:]} cannot be estimated ({reason}), so it is taken as 0: "
                             f"the plan then treats the items of one {word} as independent.")
            elif icc_raw < 0:
                outside += 1
                scale = (omega2 + noise) / omega2
                se = icc_null_se(cluster_size, sizes.size) * scale
                z = float(stats.norm.ppf(1 - alpha / 2))
                reach = icc_raw + z * se          # the estimate plus z standard errors, before any cap
                upper = min(max(reach, 0.0), 1.0)  # an ICC lies in [0, 1]: the bound is capped, and said so
                scaled = (f", times {scale:.2f} for the answers' noise (as the estimate is): the variance of the observed "
                          f"differences over that of the expected ones, (omega^2 + noise) / omega^2" if scale != 1 else "")
                notes.append(f"{what[0].upper()}{what[1:]} was estimated at {icc_raw:.3f}, below zero, so it is read "
                             f"as 0 for the plan; ICCs up to about {upper:.3f} (a design effect of "
                             f"{1 + (cluster_size - 1) * upper:.2f} for {word}s of {cluster_size} items) are not ruled "
                             + (f"out: {upper:.3f} is the estimate plus {z:.2f} standard errors" if reach == upper else
                                f"out: the estimate plus {z:.2f} standard errors is {reach:.3f}, above 1, the largest "
                                f"an ICC can be, so the bound is capped at 1" if reach > 1 else
                                f"out: the estimate plus {z:.2f} standard errors is {reach:.3f}, itself below 0, so "
                                f"the bound is taken at 0, the smallest ICC can be")
                             + ", with Fisher's "
                             f"large-sample standard error of the one-way ANOVA ICC at ICC 0, "
                             f"sqrt(2 / (m (m - 1) (G - 1))) = {se / scale:.4f} for G = {sizes.size:,} {word}s of "
                             f"m = {cluster_size} items (their size-weighted mean, sum m^2 / sum m, rounded){scaled}; the "
                             f"plan is too optimistic if the "
                             f"ICC is that large"
                             + (f"; on only {sizes.size:,} {word}s (fewer than {FEW_CLUSTERS}) that standard error is a "
                                "large-sample approximation, so the bound is rough" if sizes.size < FEW_CLUSTERS
                                else "") + ".")
            elif icc_raw > 1:
                outside += 1
                notes.append(f"{what[0].upper()}{what[1:]} was estimated at {icc_raw:.3f}, above 1, so it is read "
                             f"as 1: the {word}s' differences vary more than their items' differences.")
    return dict(n_items=int(shared.sum()), n_clusters=int(np.unique(data.clusters[shared]).size) if data.clustered
                else np.nan, sd_a=sds[0], sd_b=sds[1], correlation=correlation,
                within_sd_a=withins[0], within_sd_b=withins[1], samples=samples, cluster_size=cluster_size, icc=icc,
                icc_raw=icc_raw, noise_identified_a=identified[0], noise_identified_b=identified[1],
                n_outside=outside, note=" ".join(s if s.endswith(".") else s + "." for s in notes))


def _unplannable_reason(data: ItemScores, a: str, b: str, n_items: int, n_clusters: float,
                        cluster_size: int) -> str:
    """Why the pair (a, b) gets no plan, with the file's numbers: the plan's t-test on ``n_items / m`` clusters
    of the size-weighted mean size ``m`` (rounded) needs at least two of them, ``n_items >= 2 m``; without
    clusters (or with clusters of one item) it needs two items."""
    pair = f"{escape(a)} vs {escape(b)}"
    if cluster_size <= 1:
        return (f"{pair}: they share {plural(n_items, 'item')}, and the paired t-test the plan "
                "uses needs at least 2 items to estimate a standard error")
    word = _cluster_word(data)
    counts = data.sample_counts()
    shared = (counts[:, data.models.index(a)] > 0) & (counts[:, data.models.index(b)] > 0)
    sizes = np.bincount(data.clusters[shared])
    sizes = sizes[sizes > 0]
    j = int(sizes.size)
    if sizes.min() == sizes.max():
        return (f"{pair}: they share {n_items:,} items in {plural(j, word)} of {int(sizes[0]):,}, and the plan's "
                f"t-test on the {word} means needs at least 2 {word}s ({2 * cluster_size:,} items) to estimate a "
                "standard error")
    exact = weighted_cluster_size(sizes)
    return (f"{pair}: they share {n_items:,} items in {plural(j, word)} of unequal size, and the plan takes its "
            f"{word}s at their size-weighted mean size, sum m^2 / sum m = {int((sizes * sizes).sum()):,} / "
            f"{int(sizes.sum()):,} = {exact:.2f} items, rounded to {cluster_size}; so it plans on "
            f"{n_items:,} / {cluster_size} = {n_items / cluster_size:.2f} {word}s of that size, and its t-test on the "
            f"{word} means needs at least 2 of them, {2 * cluster_size:,} items, more than the {n_items:,} shared"
            + (f" (the file's {j:,} {word}s would be enough; its {word}s' unequal sizes leave the plan fewer than 2)"
               if j >= 2 else ""))


def item_planning(data: ItemScores, *, alpha: float = 0.05, min_difference: float | None = None,
                  power: float = PLANNING_POWER) -> ItemPlanning | Skipped:
    """Section 6: plan the next evaluation from this file (:mod:`evallib.planning`'s item functions).

    For the leader (highest mean) against every other model, the variance parts of
    :func:`evallib.planning.item_difference_variance` are estimated on the items both scored:
    the SDs of the expected item scores and the answers' noise from the one-way ANOVA of
    :func:`evallib.items.variance_components` (with one answer per item: the SD of the item
    scores, the noise included, and no separate noise), their correlation from the item
    means' covariance (the answers' noise is independent between models, so it leaves the
    covariance alone), and with clusters the ICC of the expected differences from the
    between-cluster share of the observed differences (that share is
    ``icc omega^2 / (omega^2 + noise / K)``). An estimate that falls outside what it can be
    (a share of variance below 0, an ICC below 0 or above 1) is read as the nearest bound, and
    the pair's ``note`` and sentence say so with the estimate. Then
    :func:`evallib.planning.item_minimum_detectable_difference` at the shared items and, with
    ``min_difference``, :func:`evallib.planning.item_sample_size`, both with ``method="t"``: the
    power of the paired t-test on the ``J`` cluster means (item differences without clusters)
    with ``J - 1`` degrees of freedom, the Bell–McCaffrey df of the report's CR2 intervals for
    equal clusters, so a plan on few clusters pays for its t quantile as the intervals do
    (Miller's normal approximation does not); at the file's answers per item (the median over
    both models' items, not each model's own) and cluster size.

    Parameters
    ----------
    data : ItemScores
    alpha : float
        Two-sided level, in (0, 1).
    min_difference : float, optional
        The smallest difference of mean scores that matters, in (0, 1).
    power : float
        The power to plan for, default 0.8.

    Returns
    -------
    ItemPlanning or Skipped
        Skipped with one model, or when no comparison with the leader can be planned: every other model
        answered every item as the leader did, or shares fewer than ``2 m`` items with it (``m`` the
        size-weighted mean cluster size ``sum m^2 / sum m``, rounded; 2 items without clusters), the
        reason said with the file's numbers.
    """
    alpha = check_alpha(alpha)
    delta = check_min_difference(min_difference)
    if data.n_models < 2:
        return Skipped("one model: there is no comparison to plan.")
    means = data.item_means().mean(axis=0, skipna=True)
    leader = str(means.idxmax())
    # section 3's standard error of each pair's difference (CR2 with clusters), to set the plan's beside
    seen = pairwise_items(data, alpha=alpha, adjust="none")
    # the standard error section 3 decided with: CR2, or the items-independent one for a guarded pair
    observed = {frozenset((a, b)): (se, df, bool(g), c) for a, b, se, df, g, c in
                seen[["a", "b", "se", "df", "guarded", "clustered_se"]].itertuples(index=False)}
    # a pair that answered every item alike has no variance to plan with: no power statement for it
    alike = {frozenset((a, b)) for a, b in seen.loc[seen["identical"], ["a", "b"]].itertuples(index=False)}
    rows, identical, unplanned = [], [], []
    for other in [m for m in data.models if m != leader]:
        if frozenset((leader, other)) in alike:
            identical.append(other)
            continue
        parts = _pair_plan_parts(data, leader, other, alpha)
        n_items, n_clusters = parts.pop("n_items"), parts.pop("n_clusters")
        icc_raw, note, outside = parts.pop("icc_raw"), parts.pop("note"), parts.pop("n_outside")
        noise = {k: parts.pop(k) for k in ("noise_identified_a", "noise_identified_b")}
        if n_items < 2 * parts["cluster_size"] or n_items < 2:
            unplanned.append((other, _unplannable_reason(data, leader, other, n_items, n_clusters,
                                                         parts["cluster_size"])))
            continue
        # the paired t-test on the cluster (or item) means, J - 1 df: the Bell–McCaffrey df of the
        # report's CR2 intervals for J equal clusters, so the plan pays for few clusters as they do
        plan = dict(parts, alpha=alpha, power=power, method="t")
        detectable = item_minimum_detectable_difference(n_items, **plan)
        # the power at a smaller true difference: less than planned, and not rarely detected
        power_smaller = item_power(n_items, SMALLER_SHARE * detectable, **dict(parts, alpha=alpha, method="t"))
        variance = item_difference_variance(**parts)
        need_items = need_clusters = np.nan
        if delta is not None:
            size = item_sample_size(delta, **plan)
            need_items, need_clusters = size.n_items, size.n_clusters
        rows.append(dict(a=leader, b=other, n_items=n_items, n_clusters=n_clusters, df=n_items / parts["cluster_size"] - 1, **parts, **noise,
                         icc_raw=icc_raw, variance=variance, plan_se=math.sqrt(variance / n_items),
                         observed_se=float(observed.get(frozenset((leader, other)), (np.nan,) * 4)[0]),
                         observed_df=float(observed.get(frozenset((leader, other)), (np.nan,) * 4)[1]),
                         observed_guarded=bool(observed.get(frozenset((leader, other)), (np.nan, np.nan, False))[2]),
                         observed_clustered_se=float(observed.get(frozenset((leader, other)), (np.nan,) * 4)[3]),
                         n_outside=outside, detectable=detectable, power_smaller=power_smaller, needed_items=need_items, needed_clusters=need_clusters, note=note))
    if not rows and identical and not unplanned:
        return Skipped(f"{join_names([leader] + identical, limit=_LIST_LIMIT)} answered every item alike: the "
                       "paired differences are all 0, so there is no difference to test and no variance to plan "
                       "from, and no power statement can be made.")
    if not rows:
        said = [reason for _, reason in unplanned]
        if identical:
            said.append(f"{join_names([leader] + identical, limit=_LIST_LIMIT)} answered every item alike, so "
                        "there is no variance to plan from")
        return Skipped("no comparison with the leader can be planned: " + "; ".join(said) + ".")
    return ItemPlanning(table=pd.DataFrame(rows), min_difference=delta, alpha=alpha, power=power,
                        cluster_word=_cluster_word(data), identical=tuple(identical),
                        unplanned=tuple(reason for _, reason in unplanned))


def format_item_planning(planning: ItemPlanning) -> pd.DataFrame:
    """Section 6's table for display: the parts estimated from the file, and the plan.

    Parameters
    ----------
    planning : ItemPlanning
        :func:`item_planning`'s result.

    Returns
    -------
    pandas.DataFrame
        One row per comparison, numbers as text, names escaped; the column of items needed
        only when ``min_difference`` was given.
    """
    t = planning.table
    out = pd.DataFrame({
        "A": [escape(v) for v in t["a"]], "B": [escape(v) for v in t["b"]],
        "shared items": [f"{v:,}" for v in t["n_items"]],
        "SD of expected scores A / B": [f"{plain(x)} / {plain(y)}" for x, y in zip(t["sd_a"], t["sd_b"])],
        "correlation": [plain(v) for v in t["correlation"]],
        # "-" where a model's answers' noise is not identified (one answer per item: it is inside its SD)
        "answer noise SD A / B": [" / ".join(f"{v:.3f}" if ok else "-" for v, ok in ((x, i), (y, j)))
                                  for x, y, i, j in zip(t["within_sd_a"], t["within_sd_b"],
                                                        t["noise_identified_a"], t["noise_identified_b"])],
        "answers per item": [f"{v:d}" for v in t["samples"]],
        # "-" without clusters (or with clusters of one item): no cluster size or ICC to plan with
        "cluster size (size-weighted mean)": [f"{v:d}" if v > 1 else "-" for v in t["cluster_size"]],
        "ICC": ["-" if r["cluster_size"] <= 1 else
                f"{r['icc']:.0f} (estimated {plain(r['icc_raw'])})" if _bounded(r) else plain(r["icc"])
                for _, r in t.iterrows()],
        f"difference with power {planning.power:g} (unadjusted)": [f"{v:.4f}" for v in t["detectable"]],
    })
    if planning.min_difference is not None:
        out[f"items for power {planning.power:g} at {planning.min_difference:g}"] = [
            f"{int(v):,}" for v in t["needed_items"]]
    out.index = pd.RangeIndex(1, len(out) + 1, name="pair")
    return out


__all__ += ["ItemPlanning", "item_planning", "format_item_planning"]


# ------------------------------------------------------------------ section 7: per task
@dataclass(frozen=True, eq=False)
class TaskTable:
    """Section 7: with several tasks, each task's means and the leader's paired differences.

    Attributes
    ----------
    means : DataFrame, tasks x models: each model's mean on the task's items it scored.
    items : Series, each task's items.
    differences : DataFrame, one row per task and other model: ``task``, ``a`` (the overall
        leader), ``b``, ``n_items`` (the task's items both scored), ``estimate`` (``a - b`` on
        them), ``se``, ``low``, ``high`` (at ``interval_level``), ``pvalue``, ``pvalue_adj``
        (adjusted by ``adjust`` over every row of the table), ``reject``, ``method``.
    leader : the model with the highest mean over all items (section 2's).
    alpha, adjust, interval_level : the level, the adjustment over the table's rows and the
        intervals' confidence (``1 - alpha / rows`` unless ``adjust="none"``, as in section 3).
    """

    means: pd.DataFrame
    items: pd.Series
    differences: pd.DataFrame
    leader: str
    alpha: float
    adjust: str
    interval_level: float

    def sentences(self) -> list[str]:
        """The table in words: which of the leader's per-task differences are separated from 0.

        Returns
        -------
        list of str
            Markdown sentences, names escaped, every number from the table.
        """
        d = self.differences
        m = len(d)
        how = (f"{ADJUST_NAME[self.adjust]}'s adjustment over the {plural(m, 'comparison')} of the table"
               if self.adjust != "none" else f"no adjustment for the {plural(m, 'comparison')} of the table")
        level = level_text(1 - self.interval_level, digits=4) + (" joint" if self.adjust != "none" else "")
        out = [f"Per task, {escape(self.leader)} (the leader over all items) against each other model, with {how}: "
               + (f"{int(d['reject'].sum()):,} of the {m:,} differences {'is' if int(d['reject'].sum()) == 1 else 'are'} "
                  f"separated from 0 at alpha = {self.alpha:g}."
                  if d["reject"].any() else f"none of the {m:,} differences is separated from 0 at alpha = "
                                            f"{self.alpha:g}.")]
        for _, r in d.iterrows():
            verdict = "separated from 0" if r["reject"] else "not separated from 0"
            kind = "CR2 t" if r["method"] == "cr2" else "paired t"
            out.append(f"{escape(r['task'])}, {escape(r['a'])} - {escape(r['b'])}: {signed(r['estimate'])} on "
                       f"{int(r['n_items']):,} items ({level} {kind} interval {signed(r['low'])} to {signed(r['high'])}, "
                       f"{adjusted_p_text(r['pvalue_adj'], self.adjust)}), {verdict}.")
        return out


def task_table(data: ItemScores, *, alpha: float = 0.05, adjust: str = "holm") -> TaskTable | Skipped:
    """Section 7: per task, every model's mean and the leader's paired difference from each other model.

    The leader is the model with the highest mean over all items. Within a task each
    difference is :func:`evallib.items.paired_item_difference` on the task's items both models
    scored (CR2 with Bell–McCaffrey df when the task holds at least two clusters, the paired t
    otherwise, so tasks that are themselves the clusters are analysed item by item), at the
    level ``alpha / rows`` of the table unless ``adjust="none"``; the p-values are adjusted over
    every row of the table (:func:`evallib.adjust_pvalues`).

    Parameters
    ----------
    data : ItemScores
    alpha : float
        In (0, 1).
    adjust : {"holm", "bonferroni", "bh", "by", "none"}
        The adjustment over the table's rows.

    Returns
    -------
    TaskTable or Skipped
        Skipped when the files hold one task (or are not harness files of several tasks).
    """
    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", LEADERBOARD_ADJUSTMENTS)
    tasks = data.item_tasks()
    if tasks is None:
        return Skipped("the file holds one task (harness files of several tasks get a per-task table).")
    means = data.item_means()
    overall = means.mean(axis=0, skipna=True)
    order = np.lexsort((np.arange(len(overall)), -overall.to_numpy()))
    leader = str(overall.index[order[0]])
    others = [str(overall.index[i]) for i in order[1:]]
    labels = data.cluster_labels()
    per_task = pd.DataFrame({t: means[tasks == t].mean(axis=0, skipna=True) for t in data.tasks}).T
    per_task.index.name, per_task.columns.name = "task", "model"
    items = pd.Series({t: int(np.count_nonzero(tasks == t)) for t in data.tasks}, name="items")
    cells = [(t, b) for t in data.tasks for b in others]
    level = alpha / len(cells) if adjust != "none" else alpha
    rows = []
    for t, b in cells:
        sub = tasks == t
        clusters = None if labels is None or len(set(labels[sub])) < 2 else labels[sub]
        r = paired_item_difference(means.loc[sub, leader], means.loc[sub, b], clusters=clusters, alpha=level,
                                   method="t" if clusters is None else "cr2", missing="drop")
        rows.append(dict(task=t, a=leader, b=b, n_items=r.n_items, estimate=r.estimate, se=r.se, low=r.low,
                         high=r.high, pvalue=r.pvalue, method=r.method))
    diff = pd.DataFrame(rows)
    diff["pvalue_adj"] = adjust_pvalues(diff["pvalue"].to_numpy(), adjust)
    diff["reject"] = diff["pvalue_adj"] <= alpha
    return TaskTable(means=per_task, items=items, differences=diff, leader=leader, alpha=alpha, adjust=adjust,
                     interval_level=1 - level)


def format_task_table(table: TaskTable) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Section 7's two tables as text: the per-task means, and the leader's per-task differences.

    Parameters
    ----------
    table : TaskTable
        :func:`task_table`'s result.

    Returns
    -------
    tuple of two pandas.DataFrame
        The means (tasks x models, with the task's items) and the differences (one row per
        task and other model, verdict "differ" or "not separated").
    """
    means = table.means.map(lambda v: _cell(v, ".4f"))
    means.insert(0, "items", [f"{v:,}" for v in table.items.reindex(means.index)])
    means.index = [escape(t) for t in means.index]
    means.columns = [escape(c) for c in means.columns]
    d = table.differences
    joint = (f"{level_text(1 - table.interval_level, digits=4)} "
             + ("joint interval" if table.adjust != "none" else "interval") + f" ({_task_methods(d)})")
    out = pd.DataFrame({
        "task": [escape(v) for v in d["task"]], "A": [escape(v) for v in d["a"]], "B": [escape(v) for v in d["b"]],
        "items": [f"{v:,}" for v in d["n_items"]],
        "A - B": [f"{signed(v)}" for v in d["estimate"]],
        joint: [f"{signed(lo)} to {signed(hi)}" for lo, hi in zip(d["low"], d["high"])],
        pvalue_header(table.adjust, "over the table"): [pvalue_cell(p) for p in d["pvalue_adj"]],
        "verdict": ["differ" if r else "not separated" for r in d["reject"]],
    })
    out.index = pd.RangeIndex(1, len(out) + 1, name="row")
    return means, out


__all__ += ["TaskTable", "task_table", "format_task_table"]


#: Escapers of 0.1.0 that live in :mod:`evallib.report._prose` now (DeprecationWarning until 0.3.0).
__getattr__ = moved_names(__name__, {"md_text": "evallib.report._prose:escape"})
