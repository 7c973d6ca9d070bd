"""The many-data-sets report's sections: one function per section computes its numbers.

Each function takes the checked :class:`~evallib.report.Results` (a table
of ``k`` classifiers' scores on ``N`` data sets) and returns a small frozen result or a tidy
DataFrame, or :class:`~evallib.report.Skipped` with a one-line reason:

1. :func:`describe_results` -- each classifier's mean and median score, average rank and the
   data sets it is best on (Demšar 2006, Table 6's layout).
2. :func:`friedman_test` -- Friedman's test (chi-square, tie-corrected, and Demšar's
   uncorrected eq. 3 when there are ties), Iman & Davenport's F, the exact p-value for small
   tables without ties, and Kendall's W as the effect size.
3. :func:`posthoc_tests` -- all pairs (Nemenyi, Holm, Shaffer, Bergmann–Hommel, Bonferroni on
   the average ranks; García & Herrera 2008) beside Wilcoxon's signed-rank test per pair with
   Holm's adjustment (Benavoli, Corani & Mangili 2016), and against a control when one is
   named (Bonferroni–Dunn, Holm, Hochberg, Finner, Li); :func:`plot_posthoc_diagram` draws
   the critical-difference diagram.
4. :func:`bayesian_top_two` -- the Bayesian signed-rank test of the two best-ranked
   classifiers with a region of practical equivalence (Benavoli et al. 2014, 2017).
5. :func:`assumptions` -- the caveats Demšar gives, in sentences that name this table's
   numbers.

:func:`check_options` checks the options against the table before any section runs, so that
bad options stop the report with one sentence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._compat import moved_names, renamed_fields, renamed_keywords
from .._multitest import ADJUSTMENT_NAMES, BERGMANN_MAX_K, adjust_pvalues
from .._validate import check_alpha, check_count, check_real, check_rng
from ..manydatasets import (
    ALL_PAIRS_METHODS,
    CONTROL_METHODS,
    CriticalDifference,
    FriedmanResult,
    TIE_RTOL,
    SignedRankResult,
    WilcoxonResult,
    bayesian_signed_rank,
    critical_difference,
    friedman,
    friedman_null_distribution,
    plot_cd_diagram,
    posthoc_friedman,
    snap_ties,
    sign_test,
    skillings_mack_test,
    wilcoxon_critical_value,
    wilcoxon_signed_rank,
)
from ..studies import demsar_table_6
from ._datasets_inputs import Results
from ._exact import exact_friedman_p
from ._inputs import ReportInputError
from ._prose import (
    LISTED,
    format_p,
    join_names,
    plot_text,
    plural,
    quote_list,
    share_relation,
    signed,
    tie_groups,
    tie_note,
)
from ._sections import Skipped

__all__ = [
    "METHOD_NAMES",
    "DECISION_LEVEL",
    "ResultsOverview",
    "FriedmanSection",
    "PosthocSection",
    "TopTwoBayes",
    "check_options",
    "default_rope",
    "describe_results",
    "friedman_test",
    "published_note",
    "example_control_note",
    "VERDICT_FAMILIES",
    "posthoc_tests",
    "plot_posthoc_diagram",
    "bayesian_top_two",
    "assumptions",
    "score_decimals",
    "derived_decimals",
    "wilcoxon_variant",
]

#: Display names of the post-hoc procedures: evallib's one spelling (:data:`evallib._multitest.ADJUSTMENT_NAMES`).
METHOD_NAMES = ADJUSTMENT_NAMES
#: The families a pair's verdict can come from, chosen before the report runs (``verdict=``):
#: the all-pairs mean-rank procedure (``posthoc=``) or Wilcoxon's signed-rank test per pair with
#: Holm's adjustment. The other family is shown beside it as secondary.
VERDICT_FAMILIES = ("mean-ranks", "wilcoxon")
#: Posterior probability above which the Bayesian test's verdict is stated as a decision
#: (Benavoli et al. 2017, section 5: "probabilities larger than 0.95").
DECISION_LEVEL = 0.95
#: Below this many data sets a posterior probability above :data:`DECISION_LEVEL` describes these data
#: sets and is not read as a decision about new ones (the report's own rule, which the summary, section 4
#: and the edge sentence state).
SMALL_N = 10
#: Demšar's rule of thumb for the chi-square approximation to Friedman's statistic.
CHI2_MIN_DATASETS, CHI2_MIN_CLASSIFIERS = 10, 5


# ------------------------------------------------------------------------- options
@renamed_keywords(control_method="control_adjust")
def check_options(
    results: Results, *, alpha: float = 0.05, posthoc: str = "nemenyi", control: Any = None,
    control_adjust: str = "holm", rope: Any = None, verdict: str = "mean-ranks",
) -> dict[str, Any]:
    """The report's options, checked against the table; one sentence on the first bad one.

    Parameters
    ----------
    results : Results
    alpha : float
        Family-wise significance level, in (0, 1).
    posthoc : str
        The all-pairs procedure, one of ``evallib.manydatasets.ALL_PAIRS_METHODS``
        (``"bergmann"`` for at most 10 classifiers).
    control : str, optional
        A classifier to compare every other one with; None or a blank text: no control.
    control_adjust : str
        The multiple-testing procedure against the control, one of ``CONTROL_METHODS``
        (0.1.0's ``control_method=``).
    rope : float, optional
        Half-width of the region of practical equivalence, >= 0, in the scores' units; None:
        :func:`default_rope`.
    verdict : {"mean-ranks", "wilcoxon"}
        The family whose rejections are a pair's verdict, chosen before looking
        (:data:`VERDICT_FAMILIES`): the all-pairs procedure ``posthoc`` on the average ranks
        (the default, Demšar's), or Wilcoxon's signed-rank test per pair with Holm's
        adjustment. The other is shown as secondary and never turns a verdict into "differ".

    Returns
    -------
    dict
        ``alpha``, ``posthoc``, ``control`` (None or the classifier's name),
        ``control_adjust``, ``rope`` (None or a float) and ``verdict``, normalised.

    Raises
    ------
    ReportInputError
        Naming the option and the allowed values.
    """
    try:
        alpha = check_alpha(alpha)
    except (TypeError, ValueError):
        raise ReportInputError(f"alpha (--alpha) must be a number between 0 and 1, got {alpha!r}.") from None
    if posthoc not in ALL_PAIRS_METHODS:
        raise ReportInputError(
            f"The all-pairs procedure (--posthoc, posthoc=) must be one of {quote_list(ALL_PAIRS_METHODS)}, "
            f"got {posthoc!r}.")
    if posthoc == "bergmann" and results.n_classifiers > BERGMANN_MAX_K:
        raise ReportInputError(
            f"Bergmann–Hommel's procedure (--posthoc bergmann) enumerates every partition of the "
            f"classifiers and allows at most {BERGMANN_MAX_K} of them; this table has "
            f"{results.n_classifiers}, so choose 'shaffer' or 'holm'.")
    if control_adjust not in CONTROL_METHODS:
        raise ReportInputError(
            f"The procedure against the control (--control-method, control_adjust=) must be one of "
            f"{quote_list(CONTROL_METHODS)}, got {control_adjust!r}.")
    if verdict not in VERDICT_FAMILIES:
        raise ReportInputError(
            f"The family that gives the pairs' verdict (--verdict, verdict=) must be one of {quote_list(VERDICT_FAMILIES)}, "
            f"got {verdict!r}.")
    if isinstance(control, str) and not control.strip():
        control = None
    if control is not None:
        name = str(control).strip()
        if name not in results.classifiers:
            near = {c.casefold(): c for c in results.classifiers}.get(name.casefold())
            raise ReportInputError(
                f"The control {name!r} (--control, control=) is not one of the classifiers "
                f"{quote_list(results.classifiers)}" + (f" (did you mean {near!r}?)." if near else "."))
        control = name
    if rope is not None:
        try:
            rope = check_real(rope, "rope", low=0)
        except (TypeError, ValueError):
            raise ReportInputError(
                f"The region of practical equivalence (--rope, rope=) must be a finite number >= 0, in the "
                f"units of the results table's scores, got {rope!r}.") from None
    return dict(alpha=alpha, posthoc=posthoc, control=control, control_adjust=control_adjust, rope=rope,
                verdict=verdict)


def _has_ties(ranks: pd.DataFrame) -> bool:
    """True when some data set gives two classifiers the same rank."""
    values = ranks.to_numpy()
    return bool(any(np.unique(row).size < row.size for row in values))


def _order(results: Results, fr: FriedmanResult) -> list[str]:
    """The classifiers from best to worst: average rank, then the better mean score (of the oriented
    scores: the higher, or the lower for lower-is-better scores), then the file's order (ranks and
    means equal to 12 decimals tie: the same scores summed in another order)."""
    mean = results.oriented().mean(axis=0)
    names = list(results.classifiers)
    return sorted(names, key=lambda c: (round(float(fr.avg_ranks[c]), 12), -round(float(mean[c]), 12),
                                        names.index(c)))


def _record(a: np.ndarray, b: np.ndarray) -> tuple[int, int, int]:
    """Wins, ties and losses of ``a`` against ``b`` (oriented scores; ties up to rounding)."""
    d = snap_ties(a - b)
    return int((d > 0).sum()), int((d == 0).sum()), int((d < 0).sum())


# ----------------------------------------------------------------------- section 1
@dataclass(frozen=True, eq=False)
class ResultsOverview:
    """Section 1: what the table holds.

    Attributes
    ----------
    table : pandas.DataFrame, one row per classifier from best to worst average rank, columns
        ``mean``, ``median`` (of its scores), ``average rank`` (1 = best) and ``best on``
        (the data sets on which it has the best score, ties included).
    ranks : pandas.DataFrame, each classifier's rank on each data set (ties: average ranks).
    n_datasets, n_classifiers : ``N`` and ``k``.
    higher_is_better : the orientation of the scores.
    notes : plain sentences: how the file was read, which column names the data sets, the
        orientation, data sets on which every classifier ties.
    decimals : the decimals the scores were written with (:func:`score_decimals`).
    """

    table: pd.DataFrame
    ranks: pd.DataFrame
    n_datasets: int
    n_classifiers: int
    higher_is_better: bool
    notes: tuple[str, ...]
    decimals: int = 3

    def text(self) -> str:
        """The overview as deterministic plain text (what the report prints)."""
        lines = [f"data sets: {self.n_datasets}", f"classifiers: {self.n_classifiers}",
                 "scores: " + ("higher is better (rank 1 = the highest score)" if self.higher_is_better
                               else "lower is better (rank 1 = the lowest score)")]
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


def describe_results(results: Results) -> ResultsOverview:
    """Section 1: each classifier's scores summarised, and its average rank.

    Ranks follow Demšar (2006, section 3.2.2): on each data set the classifiers are ranked
    from 1 (best) to ``k``, ties sharing the average of the ranks they span (scores equal up to
    a relative ``1e-9`` are tied, :func:`evallib.manydatasets.snap_ties`).

    Parameters
    ----------
    results : Results

    Returns
    -------
    ResultsOverview

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *JMLR* 7, 1-30 (Table 6: scores with their ranks in parentheses).
    """
    fr = friedman(results.scores, higher_is_better=results.higher_is_better)
    order = _order(results, fr)
    best = fr.ranks.eq(fr.ranks.min(axis=1), axis=0)
    table = pd.DataFrame({
        "mean": results.scores.mean(axis=0),
        "median": results.scores.median(axis=0),
        "average rank": fr.avg_ranks,
        "best on": best.sum(axis=0).astype(int),
    }).loc[order]
    table.index.name = "classifier"
    notes = []
    if results.read_note:
        notes.append(results.read_note)
    notes.append(f"The data sets are named by the column {results.dataset_column!r} "
                 f"({results.dataset_from}); every other column is a classifier.")
    all_tied = [str(d) for d, row in fr.ranks.iterrows() if np.unique(row.to_numpy()).size == 1]
    if all_tied:
        notes.append(
            f"Every classifier has the same score on {plural(len(all_tied), 'data set')} ({quote_list(all_tied)}): "
            "they share the middle rank there, which adds nothing to the differences between them, but it "
            "counts in N.")
    return ResultsOverview(table=table, ranks=fr.ranks.loc[:, list(results.classifiers)],
                           n_datasets=results.n_datasets, n_classifiers=results.n_classifiers,
                           higher_is_better=results.higher_is_better, notes=tuple(notes),
                           decimals=score_decimals(results.scores))


# ----------------------------------------------------------------------- section 2
#: Section 2's note with 2 classifiers (:attr:`FriedmanSection.two_note`), printed only then.
TWO_CLASSIFIERS_NOTE = ("With 2 classifiers the question is the one pair's, and the verdict takes the exact sign "
                        "test, tied data sets dropped (the exact law of Friedman's statistic given the ties): the "
                        "same test the pair's verdict takes in section 3, so the two sections cannot give opposite "
                        "answers.")


@dataclass(frozen=True)
class FriedmanSection:
    """Section 2: do the classifiers perform alike?

    Attributes
    ----------
    result : :class:`evallib.manydatasets.FriedmanResult`, tie-corrected (the
        statistic of scipy's ``friedmanchisquare``), with Iman & Davenport's ``F``.
    untied_statistic, untied_f : Demšar's eq. (3) and (4) without the tie correction (the
        numbers his paper prints) when some data set has tied scores, else None.
    kendall_w : Kendall's coefficient of concordance ``W = chi2_F / (N (k - 1))``, in [0, 1]:
        0 when the average ranks are all equal (unrelated, random orders give about ``1 / N``
        on average), 1 when every data set ranks them in the same order.
    exact_pvalue : ``P(chi2_F >= observed)`` under the exact permutation law of the ranks
        (:func:`evallib.manydatasets.friedman_null_distribution`), conditional on the tied ranks
        when some data set has ties (each data set's own ranks permuted across the classifiers),
        for tables small enough to enumerate (at most 6 classifiers); with 2 classifiers, the
        exact two-sided sign test of the pair with tied data sets dropped (the exact law of
        Friedman's statistic conditional on the ties, the test the pair's verdict takes), ties or
        not; else None.
    alpha : the level.
    sign_test : True when ``exact_pvalue`` is the sign test's (2 classifiers).
    tied : True when some data set gives two classifiers the same rank (the permutation law
        is then conditional on the ties).
    monte_carlo_pvalue, monte_carlo_se, monte_carlo_draws : when the exact law is too large to
        enumerate and ``N`` is at most :data:`CHI2_MIN_DATASETS` (few data sets, where the F
        approximation is least sure), the Monte Carlo p-value of the same permutation law,
        ``(1 + #{chi2* >= chi2_F}) / (1 + draws)`` over ``draws`` random arrangements of each data
        set's ranks (seeded), with its Monte Carlo standard error ``sqrt(p (1 - p) / draws)``;
        else None, None, 0.
    """

    result: FriedmanResult
    untied_statistic: float | None
    untied_f: float | None
    kendall_w: float
    exact_pvalue: float | None
    alpha: float
    sign_test: bool = False
    tied: bool = False
    monte_carlo_pvalue: float | None = None
    monte_carlo_se: float | None = None
    monte_carlo_draws: int = 0

    @property
    def decided_by(self) -> str:
        """``"exact"`` when the exact p-value exists, ``"monte-carlo"`` when the Monte Carlo
        permutation p-value does, else ``"iman-davenport"``."""
        if self.exact_pvalue is not None:
            return "exact"
        return "monte-carlo" if self.monte_carlo_pvalue is not None else "iman-davenport"

    @property
    def pvalue(self) -> float:
        """The p-value the verdict uses: the exact one when it exists, else the Monte Carlo
        permutation one when it exists, else Iman–Davenport's."""
        return float({"exact": self.exact_pvalue, "monte-carlo": self.monte_carlo_pvalue}.get(
            self.decided_by, self.result.f_pvalue))

    @property
    def two_note(self) -> str:
        """With 2 classifiers, what decides section 2 and why (:data:`TWO_CLASSIFIERS_NOTE`); ``""`` with
        more, where it does not apply and is not printed."""
        return TWO_CLASSIFIERS_NOTE if self.sign_test else ""

    @property
    def given_ties(self) -> str:
        """``" given the ties"`` when the permutation law is conditional on tied ranks, else ``""``."""
        return " given the ties" if self.tied else ""

    @property
    def monte_carlo_text(self) -> str:
        """The Monte Carlo p-value with its draws and standard error, as printed (``""`` without one)."""
        if self.monte_carlo_pvalue is None:
            return ""
        b = self.monte_carlo_draws
        hits = int(round(self.monte_carlo_pvalue * (1 + b))) - 1
        none = (f"; none of the draws reached the observed statistic, so p is (1 + 0)/(1 + {b:,}), "
                "the smallest value this Monte Carlo can give" if hits == 0 else "")
        p, se = self.monte_carlo_pvalue, self.monte_carlo_se
        close = (f"; alpha = {self.alpha:g} lies within {MC_CLOSE_SE:g} standard errors of p (|p - alpha| = "
                 f"{abs(p - self.alpha):.2g}), so the verdict is within Monte Carlo error of the level and another "
                 "--seed could give the other one" if abs(p - self.alpha) <= MC_CLOSE_SE * se else "")
        return (f"{format_p(p, alpha=self.alpha)} from {b:,} random arrangements of each data set's own "
                f"ranks (seeded), Monte Carlo standard error {se:#.2g} = √(p(1 - p)/{b:,}){none}{close}")

    @property
    def reject(self) -> bool:
        """True when :attr:`pvalue` <= alpha: the classifiers do not all perform alike."""
        return self.pvalue <= self.alpha

    @property
    def deciding_test(self) -> str:
        """The name of the test whose :attr:`pvalue` the verdict uses, e.g. ``"the exact sign test of the pair"``."""
        return ("the exact sign test of the pair" if self.sign_test else
                f"the exact permutation test of Friedman's statistic{self.given_ties}" if self.decided_by == "exact"
                else f"the Monte Carlo permutation test of Friedman's statistic{self.given_ties}"
                if self.decided_by == "monte-carlo" else "Friedman's test in Iman–Davenport's F form")

    def text(self) -> str:
        """The test as deterministic plain text."""
        fr = self.result
        ranks = ", ".join(f"{name} {r:.3f}" for name, r in fr.avg_ranks.sort_values(kind="stable").items())
        f_text = "infinite (every data set ranks the classifiers alike)" if math.isinf(fr.iman_davenport) \
            else f"{fr.iman_davenport:.2f}"
        lines = [
            f"average ranks (1 = best, all equal: {fr.mean_rank:g}): {ranks}",
            f"Kendall's W = {self.kendall_w:.3f}",
            f"Friedman's chi-square = {fr.statistic:.2f}, df = {fr.df}, {format_p(fr.pvalue, alpha=self.alpha)}",
            f"Iman–Davenport F = (N - 1) chi-square / (N (k - 1) - chi-square) = {f_text}, "
            f"df = (k - 1, (k - 1)(N - 1)) = ({fr.f_df[0]}, {fr.f_df[1]}), {format_p(fr.f_pvalue, alpha=self.alpha)}",
        ]
        if self.sign_test:
            lines.append(f"exact sign test of the pair, tied data sets dropped (with 2 classifiers the exact law of "
                         f"Friedman's statistic given the ties): {format_p(self.exact_pvalue, exact=True, alpha=self.alpha)}")
        elif self.exact_pvalue is not None:
            lines.append(f"exact permutation test of Friedman's statistic{self.given_ties}"
                         + (" (each data set's own ranks, ties included, permuted across the classifiers)"
                            if self.tied else "") + f": {format_p(self.exact_pvalue, exact=True, alpha=self.alpha)}")
        elif self.monte_carlo_pvalue is not None:
            lines.append(f"Monte Carlo permutation test of Friedman's statistic{self.given_ties} (the exact law is "
                         f"too large to enumerate here): {self.monte_carlo_text}")
        if self.untied_statistic is not None:
            uf = "infinite" if math.isinf(self.untied_f) else f"{self.untied_f:.2f}"
            lines.append(f"without the tie correction (Demšar's eq. 3 and 4 as printed): "
                         f"chi-square = {self.untied_statistic:.2f}, F = {uf}")
        verdict = "rejects" if self.reject else "does not reject"
        by = ("the exact sign test" if self.sign_test else
              "the exact p-value" if self.decided_by == "exact" else
              "the Monte Carlo permutation p-value" if self.decided_by == "monte-carlo" else "the Iman–Davenport F")
        lines.append(f"verdict ({by}, alpha = {self.alpha:g}): {verdict} 'all classifiers perform alike'")
        return "\n".join(lines)


#: Random arrangements of the ranks behind the Monte Carlo permutation p-value of section 2.
MONTE_CARLO_DRAWS = 100_000
#: A Monte Carlo p-value this many standard errors or fewer from alpha is said to be within Monte Carlo
#: error of the level (another seed could give the other verdict).
MC_CLOSE_SE = 3


def _monte_carlo_friedman_p(results: Results, rng: Any) -> tuple[float, float]:
    """The Monte Carlo p-value of Friedman's statistic under the permutation law of each data set's
    own ranks (conditional on the ties), with its standard error: ``(p, sqrt(p (1 - p) / draws))``.

    One implementation: :func:`evallib.manydatasets.skillings_mack_test` with
    ``method="permutation"`` draws those arrangements, and on a complete table its statistic is
    ``12 / (N k (k + 1)) sum_j (S_j - N (k + 1)/2)^2`` (Skillings & Mack 1981), an increasing function
    of ``sum_j S_j^2`` as Friedman's tie-corrected statistic is (its denominator is the same for
    every arrangement), so both order the arrangements alike and give the same p-value."""
    res = skillings_mack_test(results.scores, higher_is_better=results.higher_is_better, method="permutation",
                              n_resamples=MONTE_CARLO_DRAWS, rng=rng)
    p = float(res.pvalue)
    return p, math.sqrt(p * (1.0 - p) / MONTE_CARLO_DRAWS)


def friedman_test(results: Results, *, alpha: float = 0.05, rng: Any = None) -> FriedmanSection:
    """Section 2: Friedman's test and Iman & Davenport's F, with Kendall's W as the effect size.

    The verdict uses the exact p-value when the table is small enough to enumerate the
    permutation law of the ranks (Demšar 2006: exact critical values for small ``N`` and
    ``k``), conditional on the ties when some data set has tied scores (each data set's own
    ranks, ties included, permuted across the classifiers), so that one tie does not switch
    the exact test off; when that law is too large to enumerate and ``N`` is at most
    :data:`CHI2_MIN_DATASETS`, the Monte Carlo p-value of the same law
    (:data:`MONTE_CARLO_DRAWS` draws, its standard error stated); otherwise Iman & Davenport's
    ``F``, which Demšar recommends over the chi-square approximation (conservative). The
    chi-square statistic and p-value are reported beside it; when scores tie, also Demšar's
    eq. (3) without the tie correction, the number papers print.

    Parameters
    ----------
    results : Results
    alpha : float
        Level in (0, 1).
    rng : None, int, SeedSequence or Generator
        Randomness of the Monte Carlo permutation p-value (used only when it is computed); pass
        an int so that every call on one table agrees (the report passes its ``seed``).

    Returns
    -------
    FriedmanSection

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *JMLR* 7, 1-30 (section 3.2.2, eqs. 3-4).
    .. [2] Iman, R. L. & Davenport, J. M. (1980). Approximations of the critical region of the
       Friedman statistic. *Communications in Statistics* A9, 571-595.
    .. [3] Kendall, M. G. & Babington Smith, B. (1939). The problem of m rankings. *Annals of
       Mathematical Statistics* 10(3), 275-287.
    """
    alpha = check_alpha(alpha)
    fr = friedman(results.scores, higher_is_better=results.higher_is_better)
    untied_stat = untied_f = None
    if _has_ties(fr.ranks):
        plain = friedman(results.scores, higher_is_better=results.higher_is_better, tie_correction=False)
        untied_stat, untied_f = float(plain.statistic), float(plain.iman_davenport)
    w = float(fr.statistic / (fr.n * (fr.k - 1)))
    two = fr.k == 2
    exact = _sign_test_p(results) if two else exact_friedman_p(fr)
    mc_p = mc_se = None
    if exact is None and fr.n <= CHI2_MIN_DATASETS:
        mc_p, mc_se = _monte_carlo_friedman_p(results, check_rng(rng))
    return FriedmanSection(result=fr, untied_statistic=untied_stat, untied_f=untied_f,
                           kendall_w=min(1.0, max(0.0, w)), exact_pvalue=exact, alpha=alpha, sign_test=two,
                           tied=_has_ties(fr.ranks), monte_carlo_pvalue=mc_p, monte_carlo_se=mc_se,
                           monte_carlo_draws=MONTE_CARLO_DRAWS if mc_p is not None else 0)


def smallest_sign_test_p(m: int) -> float:
    """The smallest two-sided p-value the exact sign test (or Wilcoxon's exact signed-rank test)
    can reach with ``m`` non-zero differences: ``2 * 0.5**m`` (every difference on one side),
    capped at 1; 1 for ``m = 0``. With ``m`` differences the two tests' null laws give the two
    all-one-sided sign patterns probability ``0.5**m`` each, and no outcome is more extreme."""
    m = int(m)
    if m < 0:
        raise ValueError(f"m must be a non-negative count, got {m}")
    return 1.0 if m == 0 else float(min(1.0, 2.0 * 0.5 ** m))


def smallest_friedman_exact_p(k: int, n: int, ranks: Any = None) -> float | None:
    """The smallest p-value the exact permutation test of Friedman's statistic can reach over ``n``
    data sets and ``k`` classifiers: the null probability of the statistic's largest value (without
    ties, every data set ranks the classifiers in one order); with ``ranks`` (the observed ranks,
    ties included), under the law conditional on those ties; None when the law is too large to
    enumerate (:func:`~evallib.report._exact.exact_friedman_p` then gives None too)."""
    try:
        null = friedman_null_distribution(k, n, ranks=ranks)
    except ValueError:
        return None
    values = null.index.to_numpy(dtype=float)
    return float(null.to_numpy()[values >= values.max() - 1e-9].sum())


def deciding_floor(results: Results, fs: FriedmanSection, *, too: bool = False) -> tuple[str, float] | None:
    """The smallest p-value the test that decides section 2 can reach on this table, with the
    sentence that says so when it exceeds the level: ``(sentence, smallest_p)``, or None when that
    test is Iman–Davenport's F (its p-value falls to 0 as W nears 1, so no floor is computed).
    ``too``: the sentence follows one that says the same of Wilcoxon's test.

    With 2 classifiers the deciding test is the exact sign test of the pair, whose smallest
    two-sided p-value with ``m`` non-zero differences is ``2 * 0.5**m``
    (:func:`smallest_sign_test_p`); with more, when the exact permutation test of Friedman's
    statistic decided, the null probability of its largest value (:func:`smallest_friedman_exact_p`,
    conditional on the ties when there are some). None too when the Monte Carlo permutation p-value
    decided: its law is the one too large to enumerate.
    """
    alpha = fs.alpha
    if fs.sign_test:
        oriented = results.oriented()
        a, b = results.classifiers[:2]
        wins, _, losses = _record(oriented[b].to_numpy(), oriented[a].to_numpy())
        m = wins + losses
        smallest = smallest_sign_test_p(m)
        how = ("every data set ties, so it has no non-zero difference and its p-value is 1" if m == 0 else
               f"with {plural(m, 'non-zero difference')} its smallest two-sided p-value, every difference on "
               f"one side, is min(1, 2 × 0.5^{m}) = {smallest:g}")
        test = "the exact sign test of the pair (which the pair's mean-rank verdict in section 3 takes too)"
    elif fs.decided_by == "exact":
        smallest = smallest_friedman_exact_p(results.n_classifiers, results.n_datasets,
                                             fs.result.ranks.to_numpy() if fs.tied else None)
        if smallest is None:
            return None
        where = ("the null probability of the largest statistic these tied ranks allow" if fs.tied
                 else "every data set ranking the classifiers in one order")
        how = (f"with {plural(results.n_datasets, 'data set')} and {results.n_classifiers} classifiers its "
               f"smallest p-value, {where}, is {format_p(smallest, exact=True, alpha=alpha)[4:]}")
        test = f"the exact permutation test of Friedman's statistic{fs.given_ties}"
    else:
        return None
    text = (f"The verdict of section 2 rests on {test}, and {how}, above alpha = {alpha:g}: its verdict is "
            f"'not shown to differ' by construction{' too' if too else ''}, whatever the scores.")
    return text, smallest


def _sign_test_p(results: Results) -> float:
    """With 2 classifiers, the exact two-sided sign test of the second column against the first,
    tied data sets dropped: the exact law of Friedman's statistic given the ties at k = 2, and the
    p-value the pair's verdict takes (:func:`posthoc_tests`); 1 when every data set ties."""
    oriented = results.oriented()
    a, b = results.classifiers[:2]
    d = oriented[b].to_numpy() - oriented[a].to_numpy()
    if not np.any(snap_ties(d) != 0):
        return 1.0
    return float(sign_test(d, ties="drop", method="exact").pvalue)


def published_note(results: Results, friedman_section: FriedmanSection | None = None) -> str | None:
    """Why the report's Friedman numbers differ from the printed ones, for a table a paper prints.

    For Demšar's (2006) Table 6 (:func:`evallib.studies.demsar_table_6`, the shipped example):
    the printed AUCs tie on *voting* (0.975 for C4.5+cf and C4.5+m+cf), where Demšar ranked the
    two 2 and 3 (presumably from the unrounded AUCs), and his eq. (3) has no tie correction.
    Returns the sentence with the report's and the paper's numbers, both computed, or None for
    any other table.

    Examples
    --------
    >>> from evallib.report._datasets_inputs import load_results
    >>> from evallib._resources import data_path
    >>> note = published_note(load_results(data_path("example_results.csv")))
    >>> "prints Friedman's chi-square as 9.28" in note, "without it" in note
    (True, True)
    """
    t6 = demsar_table_6()
    scores = results.scores
    if (not results.higher_is_better or sorted(map(str, scores.columns)) != sorted(t6.columns)
            or sorted(map(str, scores.index)) != sorted(t6.index)):
        return None
    mine = scores.rename(index=str, columns=str).loc[t6.index, t6.columns].to_numpy(dtype=float)
    if not np.allclose(mine, t6.to_numpy(), atol=5e-4):
        return None
    ours = friedman(t6)
    plain = friedman(t6, tie_correction=False)
    printed = friedman(demsar_table_6(ranks=True), higher_is_better=False, tie_correction=False)
    ranks = ", ".join(f"{c} {printed.avg_ranks[c]:.3f}" for c in t6.columns)
    mine_ranks = ", ".join(f"{c} {ours.avg_ranks[c]:.3f}" for c in t6.columns)
    return (f"This table is Demšar's (2006) Table 6, which prints Friedman's chi-square as {printed.statistic:.2f} "
            f"and the average ranks {ranks}. The report gives chi-square = {ours.statistic:.2f} with the tie "
            f"correction and {plain.statistic:.2f} without it (average ranks {mine_ranks}) because the printed "
            "AUCs tie on voting (0.975 for C4.5+cf and C4.5+m+cf), where Demšar ranked the two 2 and 3, "
            "presumably from unrounded AUCs; with his ranks and no tie correction (his eq. 3) the statistic is "
            f"{printed.statistic:.2f}. The paper's Iman–Davenport F = {_f_text(printed)} is the same formula on "
            f"that chi-square ({printed.f_df[0]} and {printed.f_df[1]} df); the report's F is {_f_text(ours)} from "
            f"the tie-corrected chi-square and {_f_text(plain)} from the uncorrected one, "
            f"{'larger' if ours.iman_davenport > printed.iman_davenport else 'smaller'} than the paper's "
            f"({format_p(ours.f_pvalue)} against {format_p(printed.f_pvalue)}){_verdict_clause(results, friedman_section)}.")


def _verdict_clause(results: Results, friedman_section: FriedmanSection | None = None) -> str:
    """How :func:`published_note` ends: which p-value section 2's verdict takes, from what decided it."""
    fs = friedman_section if friedman_section is not None else friedman_test(results)
    if fs.decided_by == "iman-davenport":
        return ", and the report's verdict uses that F"
    return (f"; the report's verdict uses neither F but {fs.deciding_test} "
            f"({format_p(fs.pvalue, exact=fs.decided_by == 'exact', alpha=fs.alpha)})")


def _f_text(fr: FriedmanResult) -> str:
    """Iman and Davenport's F as printed (two decimals; infinite when every data set agrees)."""
    return "infinite" if math.isinf(fr.iman_davenport) else f"{fr.iman_davenport:.2f}"


#: Demšar's (2006) section 3.2.4, Holm's procedure with C4.5 as the control on Table 6, as printed: (classifier, z,
#: p), his z from his average ranks rounded to three decimals.
DEMSAR_HOLM_PRINTED = (("C4.5+m+cf", 2.416, 0.016), ("C4.5+m", 2.342, 0.019), ("C4.5+cf", 0.512, 0.607))


def _demsar_holm_sentence(results: Results) -> str:
    """Demšar's printed Holm example against C4.5 beside the report's z and p for the same comparisons, and
    whether Holm's verdicts at his alpha = 0.05 agree (both computed: his from his printed ranks)."""
    his = posthoc_friedman(demsar_table_6(ranks=True), higher_is_better=False, adjust="holm", control="C4.5")
    ours = posthoc_friedman(results.scores, higher_is_better=results.higher_is_better, adjust="holm", control="C4.5")
    his_rej = {str(r.b) for r in his.itertuples() if r.reject}
    our_rej = {str(r.b) for r in ours.itertuples() if r.reject}
    by = {str(r.b): r for r in ours.itertuples()}
    names = [c for c, _, _ in DEMSAR_HOLM_PRINTED]
    printed_z = ", ".join(f"{z:.3f}" for _, z, _ in DEMSAR_HOLM_PRINTED)
    printed_p = ", ".join(f"{p:g}" for _, _, p in DEMSAR_HOLM_PRINTED)
    our_z = ", ".join(f"{abs(float(by[c].z)):.3f}" for c in names)
    our_p = ", ".join(format_p(float(by[c].pvalue))[4:] for c in names)
    same = (f"Holm's procedure at alpha = 0.05 rejects the same {plural(len(our_rej), 'comparison')} on both "
            f"({join_names(sorted(our_rej))})" if his_rej == our_rej else
            f"Holm's procedure at alpha = 0.05 rejects {join_names(sorted(his_rej)) or 'none'} on his ranks and "
            f"{join_names(sorted(our_rej)) or 'none'} here")
    return (f"His worked example tests this control with Holm's procedure and prints, for {join_names(names)}, "
            f"z = {printed_z} and unadjusted p = {printed_p}, from his average ranks; the shared rank of the printed "
            f"AUCs on voting (section 2) gives z = {our_z} and p = {our_p} here, and {same}.")


def example_control_note(results: Results, control: str | None) -> str | None:
    """Why the shipped example's control is C4.5, for Demšar's Table 6 with that control only, and his printed
    Holm example against it beside the report's z and p (:data:`DEMSAR_HOLM_PRINTED`).

    Returns None for any other table or control: the report cannot know why a user named theirs.

    Examples
    --------
    >>> from evallib.report._datasets_inputs import load_results
    >>> from evallib._resources import data_path
    >>> t6 = load_results(data_path("example_results.csv"))
    >>> example_control_note(t6, "C4.5+m") is None, "its variants" in example_control_note(t6, "C4.5")
    (True, True)
    """
    if control != "C4.5" or published_note(results) is None:
        return None
    ranks = friedman(results.scores, higher_is_better=results.higher_is_better).avg_ranks
    last = float(ranks.max()) == float(ranks["C4.5"])
    return ("In this example (Demšar's Table 6) C4.5 is the control because the three others are its variants, "
            "Demšar's choice in his worked example, made for that reason and not from the results"
            + (f"; it does rank last here (average rank {ranks['C4.5']:.3f}), which is not why it was chosen."
               if last else ".") + " " + _demsar_holm_sentence(results))


# ----------------------------------------------------------------------- section 3
@renamed_fields(method="adjust", control_method="control_adjust")
@dataclass(frozen=True, eq=False)
class PosthocSection:
    """Section 3: which classifiers differ?

    Attributes
    ----------
    pairs : pandas.DataFrame, one row per pair, largest rank difference first: ``a``, ``b``
        (``a`` the better ranked), ``rank_a``, ``rank_b``, ``rank_difference`` (``rank_b -
        rank_a``), ``wins``, ``ties``, ``losses`` (of ``a`` against ``b`` over the data sets),
        ``mean_advantage`` (mean of ``a``'s score minus ``b``'s, in the scores' units, positive
        when ``a`` is better), ``z``, ``pvalue`` and ``pvalue_adj`` of the mean-rank test
        with ``adjust``, ``reject``; ``wilcoxon_p`` (two-sided signed-rank p-value of the
        pair's own score differences), ``wilcoxon_pvalue_adj`` (Holm-adjusted over the pairs) and
        ``wilcoxon_reject``; ``wilcoxon_method`` (``"exact"`` or ``"normal"``, as
        :func:`evallib.wilcoxon_signed_rank` chose it: exact up to 200 non-zero differences; ``""``
        for a pair that never differs), ``wilcoxon_zeros`` (its zero differences, dropped) and
        ``wilcoxon_tied_ranks`` (tied absolute differences), read by :func:`wilcoxon_variant`;
        ``wilcoxon_normal_p`` and ``wilcoxon_normal_pvalue_adj``, the same with the normal
        approximation (zero differences dropped as above, ``zero_method="wilcox"``, no continuity
        correction; Demšar's large-sample z splits the zeros' ranks between the signs instead,
        ``zero_method="zsplit"``).
    adjust : the all-pairs multiple-testing procedure (0.1.0's ``method``, still readable).
    cd : the Nemenyi critical difference of the average ranks (drawn in the diagram).
    control : the control's name, or None.
    control_table : pandas.DataFrame or None, one row per other classifier ``b``: ``a`` (the
        control), ``b``, ``rank_a``, ``rank_b``, ``rank_difference`` (``rank_b - rank_a``,
        negative when ``b`` ranks better), ``wins``, ``ties``, ``losses`` and
        ``mean_advantage`` (of the control), ``z``, ``pvalue``, ``pvalue_adj``, ``reject``.
    control_adjust : the multiple-testing procedure against the control, or None (0.1.0's
        ``control_method``, still readable).
    cd_control : the Bonferroni–Dunn critical difference, or None without a control.
    avg_ranks : pandas.Series, the average ranks.
    friedman_rejects : whether section 2 rejected "all alike" (post-hoc tests are meant to
        follow a rejection, Demšar 2006, section 3.2.2).
    alpha : the family-wise level.
    verdict : the family whose rejections are the pairs' verdict (:data:`VERDICT_FAMILIES`),
        ``"mean-ranks"`` (``adjust``'s procedure) or ``"wilcoxon"`` (Wilcoxon–Holm); the other
        family is secondary.
    """

    pairs: pd.DataFrame
    adjust: str
    cd: CriticalDifference
    control: str | None
    control_table: pd.DataFrame | None
    control_adjust: str | None
    cd_control: CriticalDifference | None
    avg_ranks: pd.Series
    friedman_rejects: bool
    alpha: float
    verdict: str = "mean-ranks"

    @property
    def rejected_pairs(self) -> list[tuple[str, str]]:
        """The pairs the all-pairs procedure declares different, ``(better, worse)``."""
        return [(r.a, r.b) for r in self.pairs.itertuples() if r.reject]

    @property
    def verdict_reject(self) -> pd.Series:
        """Per pair (the rows of :attr:`pairs`): whether the verdict family declares it different."""
        return self.pairs["reject" if self.verdict == "mean-ranks" else "wilcoxon_reject"].astype(bool)

    @property
    def secondary_reject(self) -> pd.Series:
        """Per pair: whether the other, secondary family rejects (shown, never the verdict)."""
        return self.pairs["wilcoxon_reject" if self.verdict == "mean-ranks" else "reject"].astype(bool)

    @property
    def two(self) -> bool:
        """True with 2 classifiers: the exact sign test of the one pair decides the mean-rank family."""
        return self.pairs.attrs.get("exact_two") is not None

    @property
    def mean_rank_name(self) -> str:
        """What decides the mean-rank family: ``adjust``'s procedure (``"Nemenyi"``), or with 2
        classifiers :data:`SIGN_TEST_NAME`, whose exact p replaces the z test's normal approximation."""
        return SIGN_TEST_NAME if self.two else METHOD_NAMES[self.adjust]

    @property
    def two_title_name(self) -> str:
        """With 2 classifiers, the deciding test and its exact p for a diagram's title
        (``"the exact sign test, p = 0.0625"``)."""
        return f"{SIGN_TEST_NAME}, {format_p(self.pairs.attrs['exact_two'], exact=True, alpha=self.alpha)}"

    @property
    def verdict_name(self) -> str:
        """The verdict family's name, e.g. ``"Nemenyi"``, ``"Wilcoxon–Holm"`` or, with 2 classifiers
        and ``verdict="mean-ranks"``, ``"the exact sign test"``."""
        return self.mean_rank_name if self.verdict == "mean-ranks" else "Wilcoxon–Holm"

    @property
    def secondary_name(self) -> str:
        """The secondary family's name."""
        return "Wilcoxon–Holm" if self.verdict == "mean-ranks" else self.mean_rank_name

    def family_words(self, family: str) -> str:
        """A family in words, its test and its adjustment, without an article: ``"mean-rank z tests
        with Holm's adjustment"``, ``"Wilcoxon signed-rank tests with Holm's adjustment"`` or, with 2
        classifiers, ``"exact sign test of the one pair, no adjustment for one comparison"``. ``family`` is
        one of :data:`VERDICT_FAMILIES`. Both families can use Holm's adjustment, so a name alone
        (``"Holm"``) does not say which family is meant."""
        if family not in VERDICT_FAMILIES:
            raise ValueError(f"family must be one of {quote_list(VERDICT_FAMILIES)}, got {family!r}")
        if family == "wilcoxon":
            return "Wilcoxon signed-rank tests with Holm's adjustment"
        if self.two:
            return f"{SIGN_TEST_NAME.removeprefix('the ')} of the one pair, no adjustment for one comparison"
        return f"mean-rank z tests with {METHOD_NAMES[self.adjust]}'s adjustment"

    @property
    def verdict_words(self) -> str:
        """The verdict family's test and adjustment in words (:meth:`family_words`)."""
        return self.family_words(self.verdict)

    @property
    def secondary_words(self) -> str:
        """The secondary family's test and adjustment in words (:meth:`family_words`)."""
        return self.family_words("wilcoxon" if self.verdict == "mean-ranks" else "mean-ranks")

    @property
    def disagreements(self) -> list[tuple[str, bool, bool]]:
        """The pairs with the control on which the two families' verdicts differ, in the control
        table's order: ``(other, control_family_rejects, verdict_family_rejects)``, where the
        verdict family is the one of :attr:`verdict_reject` over all pairs. Empty without a control
        or when the two agree on every pair that includes the control."""
        if self.control is None:
            return []
        verdict = {frozenset((a, b)): bool(r) for a, b, r in zip(self.pairs["a"], self.pairs["b"],
                                                               self.verdict_reject)}
        out = []
        for b, r in zip(self.control_table["b"], self.control_table["reject"]):
            allpairs = verdict[frozenset((self.control, b))]
            if bool(r) != allpairs:
                out.append((str(b), bool(r), allpairs))
        return out

    def control_rank_text(self, name: Any = str) -> str:
        """With 3 or more classifiers and a control that has (or shares) the best or the worst average
        rank, the sentence that says so beside the "chosen before looking" caveat, computed: a control
        picked for that place is the case the caveat warns of. ``""`` otherwise. ``name`` prints a
        user-given name (the summary escapes it for Markdown)."""
        if self.control is None or self.two:
            return ""
        ranks = self.avg_ranks.astype(float).round(12)
        mine = float(ranks[self.control])
        place = ("best" if mine == float(ranks.min()) else "worst" if mine == float(ranks.max()) else None)
        if place is None:
            return ""
        shared = int((ranks == mine).sum())
        has = f"shares the {place} average rank" if shared > 1 else f"has the {place} average rank"
        return (f"{name(self.control)} {has} of the {len(ranks)} classifiers here ({mine:.3f}): if that is "
                "why it was named the control, its comparisons are the selected few this warns of")

    def disagreement_text(self, name: Any = str, explain: bool = True) -> str:
        """Where the comparisons with the control and the pairs' verdict disagree, which answers
        which question, and why the two can disagree; ``""`` without a control. ``name`` prints a
        user-given name (the summary escapes it for Markdown). ``explain=False`` (the summary) keeps
        the first sentence and refers to section 3 for the why, which is said there once."""
        if self.control is None:
            return ""
        k = len(self.avg_ranks)
        m = len(self.pairs)
        cname = METHOD_NAMES[self.control_adjust]
        vfamily = ("Wilcoxon's signed-rank test of each pair's own scores with Holm's adjustment"
                   if self.verdict == "wilcoxon" else "the exact sign test of the one pair" if self.two
                   else f"{self.verdict_name}'s procedure on the pairs' mean-rank z tests")
        ctrl = name(self.control)
        dis = self.disagreements
        if not dis:
            head = (f"the comparisons with the control ({SIGN_TEST_NAME if self.two else cname}) and the pairs' "
                    f"verdict ({self.verdict_name}) "
                    f"agree on every pair that includes {ctrl}")
        else:
            parts = []
            yes = [name(b) for b, c, _ in dis if c]
            no = [name(b) for b, c, _ in dis if not c]
            if yes:
                parts.append(f"{join_names(yes, limit=LISTED)} {'differs' if len(yes) == 1 else 'differ'} from "
                             f"{ctrl} by {cname}'s procedure against the control but {'is' if len(yes) == 1 else 'are'} "
                             f"not shown to differ from it by {self.verdict_name} over all pairs")
            if no:
                parts.append(f"{join_names(no, limit=LISTED)} {'is' if len(no) == 1 else 'are'} not shown to differ "
                             f"from {ctrl} by {cname}'s procedure against the control but "
                             f"{'differs' if len(no) == 1 else 'differ'} from it by {self.verdict_name} over all pairs")
            head = (f"the two families disagree on {plural(len(dis), 'pair')} with {ctrl}: " + "; ".join(parts))
        if not explain:
            return f"{head}; section 3 says why two families can disagree and which verdict answers which question"
        if m > k - 1:
            smaller = ("the smaller family can declare a pair different that the larger one does not, and different "
                       "procedures can disagree either way")
        elif self.verdict == "mean-ranks":
            smaller = ("both families are one comparison here, and with 2 classifiers both verdicts take the exact "
                       "sign test of the pair")
        else:
            smaller = ("both families are one comparison here, but two procedures decide it: the exact sign test "
                       "(which the comparison with the control takes with 2 classifiers) and Wilcoxon's signed-rank "
                       "test, and they can disagree because the sign test counts only the signs of the differences "
                       "while Wilcoxon's test also ranks their sizes")
        return (f"{head}. They are different families and procedures: {cname}'s procedure adjusts for the "
                f"k - 1 = {plural(k - 1, 'comparison')} with the control, {vfamily} for "
                f"{'all ' if m > 1 else ''}k(k - 1)/2 = {plural(m, 'pair')}: {smaller}. The comparisons with the control answer "
                f"'which classifiers differ from {ctrl}?' and "
                + (f"({CONTROL_TWO})" if self.two else f"hold only if {ctrl} was chosen before seeing the results")
                + "; the pairs' verdict answers 'which pairs differ?' and is the one to quote otherwise")

    @property
    def diagram_note(self) -> str:
        """With 2 classifiers, the note under the critical-difference diagram: the exact sign test, not
        the bar, decided whether the line joins the two (``""`` with more classifiers)."""
        exact = self.pairs.attrs.get("exact_two")
        if exact is None:
            return ""
        top = self.pairs.iloc[0]
        diff = float(top["rank_difference"])
        joined = not bool(top["reject"])
        side = "beyond" if diff > self.cd.cd else "within"
        return (f"note: with 2 classifiers the exact sign test (tied data sets dropped, "
                f"{format_p(exact, exact=True, alpha=self.alpha)}) decided "
                f"the pair, not the bar: their rank difference {diff:.3f} is {side} Nemenyi's critical "
                f"difference {self.cd.cd:.3f}, and the line {'joins' if joined else 'does not join'} them because "
                f"the sign test {'does not reject' if joined else 'rejects'} at alpha = {self.alpha:g}")

    def text(self) -> str:
        """The procedures and the critical differences as deterministic plain text."""
        name = METHOD_NAMES[self.adjust]
        mean_role, wilcoxon_role = (("the verdict family", "secondary") if self.verdict == "mean-ranks"
                                    else ("secondary", "the verdict family"))
        if self.two:
            top = self.pairs.iloc[0]
            first = (f"the 1 pair ({mean_role}): {SIGN_TEST_NAME} (tied data sets dropped), "
                     f"{format_p(self.pairs.attrs['exact_two'], exact=True, alpha=self.alpha)}, alpha = {self.alpha:g}; "
                     f"{_differ(len(self.rejected_pairs))}; {name}'s z test on the average ranks (z = rank difference / "
                     f"{self.pairs.attrs['se']:.4f}) gives {format_p(float(top['pvalue_adj']), alpha=self.alpha)}, its normal "
                     "approximation, not used with 2 classifiers")
        else:
            first = (f"all {plural(len(self.pairs), 'pair')} ({mean_role}): {name}'s procedure on the average ranks "
                     f"(z = rank difference / {self.pairs.attrs['se']:.4f}), family-wise alpha = {self.alpha:g}; "
                     f"{_differ(len(self.rejected_pairs))}")
        verdict_by = (f"{SIGN_TEST_NAME}, which with 2 classifiers decides the mean-rank family set by the report's "
                      f"option --verdict {self.verdict} before it ran" if self.two and self.verdict == "mean-ranks"
                      else f"{self.verdict_name}, the family set by the report's option --verdict {self.verdict} "
                      "before it ran")
        lines = [first,
                 f"Wilcoxon–Holm ({wilcoxon_role}): Wilcoxon signed-rank test per pair ({wilcoxon_variant(self.pairs)}), "
                 "Holm-adjusted: "
                 f"{_differ(int(self.pairs['wilcoxon_reject'].sum()))}",
                 f"Nemenyi critical difference: {self.cd.cd:.3f} (q = {self.cd.q_alpha:.3f})",
                 f"verdict: {verdict_by} ({self.verdict_words}); secondary, shown beside it: "
                 f"{self.secondary_name} ({self.secondary_words})"]
        if self.control is not None:
            n_rej = int(self.control_table["reject"].sum())
            cname = METHOD_NAMES[self.control_adjust]
            bd = (f"Bonferroni–Dunn critical difference {self.cd_control.cd:.3f} (q = {self.cd_control.q_alpha:.3f}), "
                  "the rule of this verdict" if self.control_adjust == "bonferroni-dunn" else
                  f"Bonferroni–Dunn's critical difference would be {self.cd_control.cd:.3f} (q = "
                  f"{self.cd_control.q_alpha:.3f}), which is not the rule {cname}'s verdict used ({cname}'s "
                  "procedure compares the adjusted p-values with alpha)")
            if self.two:
                lines.append(f"against the control {self.control}: {SIGN_TEST_NAME} (tied data sets dropped) decides with "
                             f"2 classifiers, {n_rej} of 1 differs; {cname}'s z test is its normal approximation, not "
                             f"used; {CONTROL_TWO}")
            else:
                lines.append(f"against the control {self.control}: {cname}'s procedure, "
                             f"{n_rej} of {len(self.control_table)} differ; {bd}; "
                             f"valid only if {CONTROL_CAVEAT}"
                             + (f"; {self.control_rank_text()}" if self.control_rank_text() else ""))
            lines.append(self.disagreement_text())
        if not self.friedman_rejects:
            lines.append("section 2's test (Friedman's, or the exact sign test with 2 classifiers) did not reject "
                         "'all alike': read these comparisons as descriptive (post-hoc tests are meant to follow "
                         "a rejection)")
        return "\n".join(lines)


def _differ(count: int) -> str:
    """``"0 pairs differ"``, ``"1 pair differs"``: the count with its noun and verb in agreement."""
    return f"{plural(count, 'pair')} {'differs' if count == 1 else 'differ'}"


def _with_effects(table: pd.DataFrame, oriented: pd.DataFrame) -> pd.DataFrame:
    """Add the rank difference, the win/tie/loss record and the mean advantage of ``a`` over ``b``."""
    out = table.copy()
    records = [_record(oriented[a].to_numpy(), oriented[b].to_numpy()) for a, b in zip(out["a"], out["b"])]
    out.insert(4, "rank_difference", out["rank_b"] - out["rank_a"])
    out.insert(5, "wins", [r[0] for r in records])
    out.insert(6, "ties", [r[1] for r in records])
    out.insert(7, "losses", [r[2] for r in records])
    out.insert(8, "mean_advantage",
               [float(np.mean(oriented[a].to_numpy() - oriented[b].to_numpy())) for a, b in zip(out["a"], out["b"])])
    return out


def _wilcoxon(a: np.ndarray, b: np.ndarray, method: str = "auto") -> WilcoxonResult | None:
    """Two-sided signed-rank test of ``a - b`` as the report runs it (zero differences dropped,
    :func:`evallib.wilcoxon_signed_rank`'s default ``zero_method="wilcox"``); None when the two
    never differ (their p-value is then 1)."""
    try:
        return wilcoxon_signed_rank(a - b, method=method)
    except ValueError:  # every difference is zero
        return None


def wilcoxon_variant(pairs: pd.DataFrame) -> str:
    """The version of Wilcoxon's signed-rank test that section 3 ran, in words, from what was run.

    Read off the columns :func:`posthoc_tests` keeps for every pair (``wilcoxon_method``,
    ``wilcoxon_zeros``, ``wilcoxon_tied_ranks``): which null law gave the p-values (the exact law
    of the signed ranks, or the normal approximation), how zero differences were handled and
    whether tied absolute differences shared a rank.

    Parameters
    ----------
    pairs : pandas.DataFrame
        :attr:`PosthocSection.pairs`.

    Returns
    -------
    str
        A clause, e.g. ``"two-sided; exact null law of the signed ranks; zero differences dropped
        before ranking (10 over the 6 pairs); ..."``.
    """
    methods = [m for m in pairs["wilcoxon_method"] if m]
    law = {("exact",): "exact null law of the signed ranks",
           ("normal",): "normal approximation of the rank sum without continuity correction"}.get(
        tuple(sorted(set(methods))),
        "exact null law of the signed ranks up to 200 non-zero differences, the normal approximation "
        "without continuity correction beyond")
    parts = ["two-sided", law]
    zeros = int(pairs["wilcoxon_zeros"].sum())
    never = int((pairs["wilcoxon_method"] == "").sum())
    # the count is over the pairs the test ran on: a pair that never differs has nothing to rank (p = 1 below)
    tested = len(pairs) - never
    over = (f"the {plural(tested, 'pair')} with a non-zero difference" if never
            else f"the {plural(len(pairs), 'pair')}")
    parts.append(f"zero differences dropped before ranking, {zeros} over {over}"
                 if zeros else "no zero differences")
    if pairs["wilcoxon_tied_ranks"].any():
        parts.append("tied absolute differences at their average rank"
                     + (", the exact law conditional on those ranks" if "exact" in methods else
                        ", the variance corrected for them"))
    if never:
        parts.append(f"p = 1 for {plural(never, 'pair')} that never {'differs' if never == 1 else 'differ'} "
                     "(no non-zero difference to rank)")
    return "; ".join(parts)


#: The test that decides the one pair (and the mean-rank family) with 2 classifiers.
SIGN_TEST_NAME = "the exact sign test"

#: What the comparisons with a control assume about how the control was chosen.
CONTROL_CAVEAT = ("the control was chosen before looking at the results (a baseline named in advance): one "
                  "picked because it ranks last or first turns its k - 1 comparisons into a selected few, and "
                  "their family-wise level no longer holds")
#: With 2 classifiers, what the control changes: nothing (the one pair's two-sided test).
CONTROL_TWO = ("with 2 classifiers the comparison with the control is the one pair, and its two-sided test gives "
               "the same p whichever of the two is the control, so how the control was chosen does not change it")


@renamed_keywords(method="adjust", control_method="control_adjust")
def posthoc_tests(
    results: Results, *, alpha: float = 0.05, adjust: str = "nemenyi", control: str | None = None,
    control_adjust: str = "holm", friedman_rejects: bool | None = None, verdict: str = "mean-ranks",
) -> PosthocSection:
    """Section 3: every pair, and every classifier against a control when one is named.

    All pairs: Demšar's ``z = (R_a - R_b) / sqrt(k (k + 1) / (6 N))`` with ``adjust``'s
    adjusted p-values (:func:`evallib.manydatasets.posthoc_friedman`; Nemenyi is
    the test behind the critical-difference diagram, Shaffer and Bergmann–Hommel are more
    powerful, García & Herrera 2008). Beside each pair, Wilcoxon's signed-rank test on the
    pair's own score differences with Holm's adjustment over the pairs: its verdict does not
    depend on which other classifiers are in the table, which the mean-rank tests' does
    (Benavoli, Corani & Mangili 2016). Against a control: the ``k - 1`` comparisons with
    ``control_adjust`` (Demšar's worked example uses Holm).

    Parameters
    ----------
    results : Results
    alpha : float
        Family-wise level in (0, 1).
    adjust : str
        The all-pairs multiple-testing procedure, ``posthoc=`` of :func:`check_options`
        (0.1.0's ``method=``).
    control : str, optional
        A classifier's name.
    control_adjust : str
        The multiple-testing procedure against the control (0.1.0's ``control_method=``).
    friedman_rejects : bool, optional
        Section 2's verdict; None computes it (:func:`friedman_test`).
    verdict : {"mean-ranks", "wilcoxon"}
        The family whose rejections are the pairs' verdict, chosen in advance (see
        :func:`check_options`); a pair gets one chance to be declared different, not two.

    Returns
    -------
    PosthocSection

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *JMLR* 7, 1-30 (section 3.2.2).
    .. [2] García, S. & Herrera, F. (2008). An extension on "Statistical comparisons of
       classifiers over multiple data sets" for all pairwise comparisons. *JMLR* 9, 2677-2694.
    .. [3] Benavoli, A., Corani, G. & Mangili, F. (2016). Should we really use post-hoc tests
       based on mean-ranks? *JMLR* 17(5), 1-10.
    """
    opts = check_options(results, alpha=alpha, posthoc=adjust, control=control, control_adjust=control_adjust,
                         verdict=verdict)
    alpha, control = opts["alpha"], opts["control"]
    if friedman_rejects is None:
        friedman_rejects = friedman_test(results, alpha=alpha).reject
    scores, hib = results.scores, results.higher_is_better
    oriented = results.oriented()
    pairs = _with_effects(posthoc_friedman(scores, adjust=adjust, alpha=alpha, higher_is_better=hib), oriented)
    runs = [_wilcoxon(oriented[a].to_numpy(), oriented[b].to_numpy()) for a, b in zip(pairs["a"], pairs["b"])]
    wp = np.array([1.0 if r is None else float(r.pvalue) for r in runs])
    pairs["wilcoxon_p"] = wp
    # what was run, so that the text names the version from the run itself
    pairs["wilcoxon_method"] = ["" if r is None else r.method for r in runs]
    pairs["wilcoxon_zeros"] = [0 if r is None else r.n_zero for r in runs]
    pairs["wilcoxon_tied_ranks"] = [False if r is None else r.ties for r in runs]
    pairs["wilcoxon_pvalue_adj"] = adjust_pvalues(wp, "holm")
    pairs["wilcoxon_reject"] = pairs["wilcoxon_pvalue_adj"] <= alpha
    # the normal approximation of the same statistic (zeros dropped) beside the exact p-value
    normal = [_wilcoxon(oriented[a].to_numpy(), oriented[b].to_numpy(), method="normal")
              for a, b in zip(pairs["a"], pairs["b"])]
    pairs["wilcoxon_normal_p"] = [1.0 if r is None else float(r.pvalue) for r in normal]
    pairs["wilcoxon_normal_pvalue_adj"] = adjust_pvalues(pairs["wilcoxon_normal_p"].to_numpy(), "holm")
    pairs = pairs.sort_values(["rank_difference", "pvalue"], ascending=[False, True], kind="stable")
    pairs = pairs.reset_index(drop=True)
    exact_two = None
    if results.n_classifiers == 2:
        # the one pair's mean-rank z test is the large-sample form of Friedman's test, whose exact
        # permutation law at k = 2 is the sign test's (ties dropped): the verdict takes the exact p
        exact_two = _sign_test_p(results)  # two-sided: the same whichever column comes first
        pairs["reject"] = exact_two <= alpha  # the exact test alone decides, not the z test as well
    se = math.sqrt(results.n_classifiers * (results.n_classifiers + 1) / (6.0 * results.n_datasets))
    pairs.attrs.update(adjust=adjust, alpha=alpha, control=None, k=results.n_classifiers,
                       n=results.n_datasets, se=se, decimals=score_decimals(scores), exact_two=exact_two)
    fr = friedman(scores, higher_is_better=hib)
    cd = critical_difference(fr.k, fr.n, alpha=alpha, test="nemenyi")
    control_table = cd_control = None
    if control is not None:
        raw = posthoc_friedman(scores, adjust=control_adjust, control=control, alpha=alpha, higher_is_better=hib)
        control_table = _with_effects(raw, oriented).reset_index(drop=True)
        if exact_two is not None:
            control_table["reject"] = exact_two <= alpha
        control_table.attrs.update(raw.attrs, decimals=score_decimals(scores))
        cd_control = critical_difference(fr.k, fr.n, alpha=alpha, test="bonferroni-dunn")
    return PosthocSection(pairs=pairs, adjust=adjust, cd=cd, control=control, control_table=control_table,
                          control_adjust=control_adjust if control is not None else None,
                          cd_control=cd_control, avg_ranks=fr.avg_ranks, friedman_rejects=bool(friedman_rejects),
                          alpha=alpha, verdict=opts["verdict"])




def plot_posthoc_diagram(posthoc: PosthocSection, *, against_control: bool = False, ax=None):
    """The critical-difference diagram of section 3 (Demšar 2006, Figures 1 and 2).

    All pairs: the average ranks on an axis from 1 (best) to ``k``, with the Nemenyi critical
    difference as a bar; thick lines join the classifiers that the all-pairs procedure does
    not declare different (for Nemenyi exactly those closer than the CD). Against the control
    (``against_control=True``): the control joined with every classifier its procedure does
    not declare different from it, and for Bonferroni–Dunn the bar of its critical difference.

    Parameters
    ----------
    posthoc : PosthocSection
    against_control : bool
        Draw the comparisons with the control (requires one).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *JMLR* 7, 1-30 (section 3.2.4, Figures 1-2).
    """
    level = f"alpha = {posthoc.alpha:g}"
    ranks = posthoc.avg_ranks.rename(index=plot_text)
    if against_control:
        if posthoc.control is None:
            raise ValueError("against_control needs a PosthocSection computed with a control")
        name = posthoc.two_title_name if posthoc.two else METHOD_NAMES[posthoc.control_adjust]
        cd = posthoc.cd_control if posthoc.control_adjust == "bonferroni-dunn" else None
        table = _escaped(posthoc.control_table)
        table.attrs["control"] = plot_text(posthoc.control)
        return plot_cd_diagram(ranks, cd, posthoc=table, alpha=posthoc.alpha, ax=ax,
                               title=f"Against the control ({name}, {level}): joined = not shown to differ")
    name = posthoc.two_title_name if posthoc.two else METHOD_NAMES[posthoc.adjust]
    return plot_cd_diagram(ranks, posthoc.cd, posthoc=_escaped(posthoc.pairs), alpha=posthoc.alpha, ax=ax,
                           title=f"Average ranks ({name}, {level}): joined = not shown to differ")


def _escaped(table: pd.DataFrame) -> pd.DataFrame:
    """The ``a``, ``b`` and ``reject`` columns of a post-hoc table, names escaped for matplotlib."""
    out = pd.DataFrame({"a": table["a"].map(plot_text), "b": table["b"].map(plot_text),
                        "reject": table["reject"]})
    out.attrs.update(table.attrs)
    return out


# ----------------------------------------------------------------------- digits
#: Most decimals a results table is taken to be written with; beyond, its scores are unrounded.
MAX_DECIMALS = 6


def score_decimals(scores: pd.DataFrame) -> int:
    """The decimals the report prints the scores with: those the table was written with.

    The fewest decimals (at most :data:`MAX_DECIMALS`) that reproduce every score as read, so
    that a table printed with three decimals, as Demšar's Table 6 is, reads ``1.000`` and
    ``0.590`` as printed, not ``1`` and ``0.59``; unrounded scores (means over folds) get six
    significant digits of the largest. Means, medians and mean differences of the scores are
    printed with one decimal more (:func:`derived_decimals`), the same in every row.

    Examples
    --------
    >>> score_decimals(pd.DataFrame({"a": [0.763, 1.0], "b": [0.59, 0.975]}))
    3
    >>> score_decimals(pd.DataFrame({"a": [81.25, 90.5]})), score_decimals(pd.DataFrame({"a": [2 / 3, 0.5]}))
    (2, 6)
    """
    values = np.abs(scores.to_numpy(dtype=float).ravel())
    values = values[np.isfinite(values)]
    for d in range(MAX_DECIMALS + 1):
        if np.all(np.abs(values - np.round(values, d)) <= 1e-9 * np.maximum(1.0, values)):
            return d
    largest = float(values.max()) if values.size else 1.0
    return max(0, MAX_DECIMALS - 1 - math.floor(math.log10(largest))) if largest > 0 else MAX_DECIMALS


def _zero_snapped(value: float, scores: np.ndarray) -> float:
    """``value`` (a mean or median of score differences), exactly 0 when it is zero up to the scores'
    rounding: within ``TIE_RTOL * max(1, max |score|)``, the tolerance that makes ties (:func:`snap_ties`)."""
    scale = max(1.0, float(np.max(np.abs(scores)))) if np.size(scores) else 1.0
    return 0.0 if abs(value) <= TIE_RTOL * scale else float(value)


def derived_decimals(decimals: int) -> int:
    """Decimals of a mean, median or mean difference of scores written with ``decimals``: one more."""
    return decimals + 1


# ----------------------------------------------------------------------- section 4
def default_rope(scores: pd.DataFrame) -> tuple[float | None, str]:
    """A region of practical equivalence of ±0.01 in the scores' own units for scores between 0 and 1.

    Parameters
    ----------
    scores : pandas.DataFrame
        The results table's scores.

    Returns
    -------
    (float or None, str)
        ``0.01`` for scores between 0 and 1 (accuracies, AUCs, error rates); None for any
        other scale, where only the user can say what difference matters (scores up to 100
        may be percentages, but also ranks or counts). The text says which and why.

    Examples
    --------
    >>> default_rope(pd.DataFrame({"a": [0.8, 0.9], "b": [0.7, 0.95]}))[0]
    0.01
    >>> default_rope(pd.DataFrame({"a": [80.0, 90.0], "b": [70.0, 95.0]}))[0] is None
    True
    """
    values = scores.to_numpy(dtype=float)
    lo, hi = float(values.min()), float(values.max())
    if lo >= 0 and hi <= 1:
        return 0.01, "0.01 in the scores' own units, the default for scores between 0 and 1 (such as accuracies or AUCs)"
    return None, (f"the scores run from {lo:g} to {hi:g}, outside [0, 1], so there is no default for the "
                  "smallest difference that matters (--rope takes it on the scores' own scale: if they are "
                  "percentages, --rope 1 is one percentage point)")


#: What picking the Bayesian test's pair from the data does to it (the leader's advantage is biased upward).
SELECTION_BIAS = ("the best was put first because it came out ahead in average rank on these data sets, so its "
                  "advantage over the second is biased upward, and the posterior probabilities do not account "
                  "for that selection")
#: What the Bayesian test's pair is: picked from the data, the leader's advantage biased upward.
PICKED_PAIR = ("the pair is the leading pair picked from the data (the two best average ranks on this table), not "
               f"a pair named in advance: {SELECTION_BIAS}")
#: When the two compared share the average rank, what put the first one first, and what that does (by
#: :attr:`TopTwoBayes.ordered_by`): the better mean score, which biases its mean advantage upward, or the
#: file's column order, which picks no direction at all.
SHARED_RANK_SELECTION = {
    "mean": ("the two share the average rank, and the first was put first because its mean score came out ahead "
             "on these data sets, so its mean advantage over the second is biased upward, and the posterior "
             "probabilities do not account for that selection"),
    "columns": ("the two share the average rank and their mean scores are equal, so which is put first comes from "
                "the file's column order and not from the data; the pair itself was picked as the best-ranked, and "
                "the posterior probabilities do not account for that selection"),
}


def round_up_text(value: float, digits: int = 2) -> str:
    """``value`` (> 0) rounded *up* to ``digits`` significant digits, as text: a bound stays a bound.

    >>> round_up_text(0.5 / 50_000 ** 0.5), round_up_text(0.002), round_up_text(0.0101)
    ('0.0023', '0.0020', '0.011')
    """
    if not value > 0:
        return f"{value:g}"
    e = math.floor(math.log10(value)) - (digits - 1)
    up = math.ceil(round(value / 10.0 ** e, 9)) * 10.0 ** e
    if up >= 10.0 ** (e + digits):  # 0.00999 -> 0.010: one digit more in front
        e += 1
    return f"{up:.{max(0, -e)}f}"


@dataclass(frozen=True)
class TopTwoBayes:
    """Section 4: the Bayesian signed-rank test of the two best-ranked classifiers.

    Attributes
    ----------
    best, second : the classifiers with the best and second-best average rank.
    result : :class:`evallib.manydatasets.SignedRankResult` with ``x = second`` and
        ``y = best`` (scores turned so that higher is better): ``p_right`` is the posterior
        probability that ``best`` is practically better.
    rope : the half-width of the region of practical equivalence, in the scores' units.
    rope_from : how the ROPE was chosen (one phrase).
    mean_advantage, median_advantage : mean and median over the data sets of ``best``'s score
        minus ``second``'s, in the scores' units, positive when ``best`` is better.
    wins, ties, losses : ``best``'s record against ``second``.
    notes : plain sentences (e.g. a ROPE too wide for the scale, a tie for first or second place).
    tie : the clause that says, when three or more classifiers tie for the best average rank or
        two or more for the second, who they are and how the two compared were picked; ``""``
        when the two best places are held by one classifier each.
    decimals : the decimals of the advantages (:func:`derived_decimals` of the table's).
    on_edge : how many of the test's pair means of two differences (each difference with itself
        included, and the prior's 0 with each difference) lie exactly on the ROPE's edge, ``±rope`` up
        to the test's rounding tolerance (:func:`evallib.bayesian_signed_rank`'s ``rtol``); 0 with
        ``rope = 0``.
    pair_means : how many such pair means there are, ``(n + 1)(n + 2) / 2``.
    edge_range : when ``on_edge > 0``, the probabilities ``(p_best, p_equivalent, p_second)``
        recomputed on the same posterior draws with the edge counted inside the ROPE and with it
        counted beyond it, in that order; ``()`` otherwise.
    picked : True when the pair was picked from more than two classifiers (the two best average
        ranks of ``k >= 3``), so that the leader's advantage is biased upward (:data:`PICKED_PAIR`); False
        with 2 classifiers, whose one pair is the only one.
    ordered_by : what put ``best`` before ``second`` (:func:`_order`): ``"rank"`` (a better average
        rank), ``"mean"`` (the same average rank, a better mean score) or ``"columns"`` (both equal: the
        file's column order).
    """

    best: str
    second: str
    result: SignedRankResult
    rope: float
    rope_from: str
    mean_advantage: float
    median_advantage: float
    wins: int
    ties: int
    losses: int
    notes: tuple[str, ...] = ()
    tie: str = ""
    decimals: int = 4
    on_edge: int = 0
    pair_means: int = 0
    edge_range: tuple[tuple[float, float, float], ...] = ()
    picked: bool = True
    ordered_by: str = "rank"

    @property
    def selection_text(self) -> str:
        """What picking the pair from the data does to it, true of how the two were ordered:
        :data:`SELECTION_BIAS` when the first ranks better, else :data:`SHARED_RANK_SELECTION`."""
        return SHARED_RANK_SELECTION.get(self.ordered_by, SELECTION_BIAS)

    @property
    def picked_text(self) -> str:
        """The note that the pair was picked (:data:`PICKED_PAIR`, with :attr:`selection_text`)."""
        return PICKED_PAIR.replace(SELECTION_BIAS, self.selection_text)

    @property
    def edge_text(self) -> str:
        """The sentence on the pair means exactly on the ROPE's edge and what they move (``""`` when none)."""
        if not self.on_edge:
            return ""
        (ib, ie, _), (sb, se, _) = self.edge_range
        verb = "lies" if self.on_edge == 1 else "lie"
        inside, beyond = (self._decision_of(p) for p in self.edge_range)
        if self.result.n < SMALL_N:   # the report's rule: a probability above the level only describes these data sets
            words = {"best": f"P({self.best} practically better) is above {DECISION_LEVEL:g}",
                     "equivalent": f"P(practically equivalent) is above {DECISION_LEVEL:g}",
                     "second": f"P({self.second} practically better) is above {DECISION_LEVEL:g}",
                     None: f"no probability is above {DECISION_LEVEL:g}"}
        else:
            words = {"best": f"{self.best} is practically better", "equivalent": "the two are practically equivalent",
                     "second": f"{self.second} is practically better", None: "the data do not decide"}
        what = "reading" if self.result.n < SMALL_N else "verdict"
        holds = (f"the {what} is the same at both ends ({words[inside]})" if inside == beyond else
                 f"the {what} depends on it: with the edge inside the ROPE {words[inside]}, with it beyond "
                 f"{words[beyond]}")
        if self.result.n < SMALL_N and {inside, beyond} != {None}:
            holds += (f" (with {self.result.n:,} data sets, fewer than {SMALL_N}, a probability above "
                      f"{DECISION_LEVEL:g} describes these data sets and is not a decision)")
        return (f"{self.on_edge} of the {self.pair_means} pair means (of two differences, each with itself "
                f"and with the prior's 0 included) {verb} exactly on the ROPE's edge, ±{self.rope:g} up to "
                f"rounding: recomputed on the same draws with the edge counted inside the ROPE or beyond it, "
                f"P({self.best} practically better) ranges from {self._share(min(ib, sb))} to "
                f"{self._share(max(ib, sb))} and P(practically equivalent) from {self._share(min(ie, se))} to "
                f"{self._share(max(ie, se))}; {holds}")

    @staticmethod
    def _decision_of(probs: tuple[float, float, float]) -> str | None:
        """:attr:`decision` for the probabilities ``(p_best, p_equivalent, p_second)``."""
        for name, p in zip(("best", "equivalent", "second"), probs):
            if p > DECISION_LEVEL:
                return name
        return None

    def _share(self, p: float) -> str:
        """A posterior share in a sentence's range, ``"0.023"``, ``"< 0.001"``: :meth:`prob_text` without ``"= "``."""
        return self.prob_text(p).removeprefix("= ")

    def prob_text(self, p: float) -> str:
        """A posterior share as printed, ``"= 0.123"``, ``"< 0.001"`` or ``"> 0.999"``: the library's
        rule for a share of draws (:func:`evallib._format.share_relation`), which the triangle's
        labels (:func:`evallib.manydatasets.plot_simplex`) print too."""
        return share_relation(p, self.result.n_resamples)

    @property
    def p_best(self) -> float:
        """Posterior probability that ``best`` is practically better than ``second``."""
        return self.result.p_right

    @property
    def p_equivalent(self) -> float:
        """Posterior probability that the two are practically equivalent (within the ROPE)."""
        return self.result.p_rope

    @property
    def p_second(self) -> float:
        """Posterior probability that ``second`` is practically better."""
        return self.result.p_left

    @property
    def decision(self) -> str | None:
        """``"best"``, ``"equivalent"`` or ``"second"`` when that probability exceeds 0.95, else None."""
        return self._decision_of((self.p_best, self.p_equivalent, self.p_second))

    @property
    def mc_bound_text(self) -> str:
        """The Monte Carlo standard error bound of each probability, ``0.5 / sqrt(n_resamples)``
        (the binomial standard error of a share of the draws at its largest), rounded up."""
        return round_up_text(0.5 / math.sqrt(self.result.n_resamples))

    @property
    def mc_bound_words(self) -> str:
        """What :attr:`mc_bound_text` is: a bound, not the standard error of each probability."""
        return (f"the bound 0.5/√{self.result.n_resamples:,} rounded up, which holds whatever the probability; "
                "the standard error of a probability P is √(P(1 - P)/draws), smaller away from 0.5")

    def text(self) -> str:
        """The test as deterministic plain text."""
        r = self.result
        lines = [
            f"{self.best} vs {self.second} over {r.n} data sets: {self.best} wins {self.wins}, ties "
            f"{self.ties}, loses {self.losses}; mean advantage {signed(self.mean_advantage, self.decimals)}, "
            f"median {signed(self.median_advantage, self.decimals)} (scores' units)",
            f"ROPE: ±{self.rope:g} ({self.rope_from}); a mean of two differences exactly at ±{self.rope:g} counts "
            "half inside and half beyond it",
            f"P({self.best} practically better) {self.prob_text(self.p_best)}",
            f"P(practically equivalent) {self.prob_text(self.p_equivalent)}",
            f"P({self.second} practically better) {self.prob_text(self.p_second)}",
            f"({r.n_resamples:,} posterior draws, prior weight {r.prior:g} at 0; Monte Carlo standard error of "
            f"each probability at most {self.mc_bound_text}: {self.mc_bound_words})",
        ] + ([f"same draws without the prior's pseudo-observation at 0: P({self.best} practically better) "
              f"{self.prob_text(r.without_prior[2])}, P(practically equivalent) {self.prob_text(r.without_prior[1])}, "
              f"P({self.second} practically better) {self.prob_text(r.without_prior[0])}"]
             if r.without_prior else []) + ([f"note: {self.edge_text}"] if self.on_edge else []) + [
            f"frequentist reading: Wilcoxon signed-rank unadjusted {format_p(r.pvalue, exact=True)} (ignores the ROPE)",
        ] + ([f"note: {self.picked_text}"] if self.picked else [])
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


@renamed_keywords(n_samples="n_resamples")
def bayesian_top_two(
    results: Results, *, rope: float | None = None, n_resamples: int = 50_000, rng: Any = None,
) -> TopTwoBayes | Skipped:
    """Section 4: is the best-ranked classifier practically better than the second?

    Benavoli et al.'s Bayesian signed-rank test (:func:`evallib.bayesian_signed_rank`) on the
    two classifiers with the best average ranks (ties: the better mean score, the higher or, for
    lower-is-better scores, the lower, then the earlier column): the posterior probabilities that the best is practically better, that the two are
    practically equivalent (their difference within ``±rope``), or that the second is better.
    Unlike a p-value, these can support equivalence.

    Parameters
    ----------
    results : Results
    rope : float, optional
        Half-width of the region of practical equivalence, in the scores' units, >= 0.
        None: :func:`default_rope` (0.01 in the scores' own units, for scores between 0 and 1).
    n_resamples : int
        Posterior draws (Monte Carlo error of each probability at most ``0.5/sqrt(n_resamples)``).
    rng : None, int, SeedSequence or Generator
        Randomness of the posterior draws (:func:`evallib._validate.check_rng`).

    Returns
    -------
    TopTwoBayes or Skipped
        Skipped when no ROPE is given and the scale has no default.

    References
    ----------
    .. [1] Benavoli, A., Mangili, F., Corani, G., Zaffalon, M. & Ruggeri, F. (2014). A Bayesian
       Wilcoxon signed-rank test based on the Dirichlet process. *ICML*, PMLR 32(2), 1026-1034.
    .. [2] Benavoli, A., Corani, G., Demšar, J. & Zaffalon, M. (2017). Time for a change: a
       tutorial for comparing multiple classifiers through Bayesian analysis. *JMLR* 18(77), 1-36.
    """
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    gen = check_rng(rng)
    given = check_options(results, rope=rope)["rope"]
    if given is None:
        value, why = default_rope(results.scores)
        if value is None:
            return Skipped(f"{why}; give the smallest difference that matters with --rope in "
                           "the scores' units.")
        rope_value, rope_from = value, why
    else:
        rope_value, rope_from = given, "given with --rope"
    fr = friedman(results.scores, higher_is_better=results.higher_is_better)
    order = _order(results, fr)
    best, second = order[:2]
    tie = _places_note(results, fr, order)
    oriented = results.oriented()
    means = oriented.mean(axis=0)
    ordered_by = ("rank" if round(float(fr.avg_ranks[best]), 12) != round(float(fr.avg_ranks[second]), 12) else
                  "mean" if round(float(means[best]), 12) != round(float(means[second]), 12) else "columns")
    x, y = oriented[second].to_numpy(), oriented[best].to_numpy()
    res = bayesian_signed_rank(x, y, rope=rope_value, n_resamples=n_resamples, rng=gen)
    wins, ties, losses = _record(y, x)
    on_edge, pair_means = res.on_edge, res.pair_means
    # (p_best, p_equivalent, p_second): y (the best) is the test's right
    edge_range = (tuple(c[::-1] for c in (res.edge_inside, res.edge_beyond)) if on_edge else ())
    notes = []
    values = results.scores.to_numpy()
    spread = float(values.max() - values.min())
    if spread > 0 and rope_value >= spread:
        notes.append(f"The ROPE (±{rope_value:g}) is at least as wide as the whole range of the scores "
                     f"({spread:g}), so every difference counts as practically irrelevant; give --rope in "
                     "the scores' units.")
    if tie:
        notes.append(f"On the two best places: {tie}.")  # the clause starts with a user's name: never capitalised
    return TopTwoBayes(best=str(best), second=str(second), result=res, rope=rope_value, rope_from=rope_from,
                       mean_advantage=_zero_snapped(np.mean(y - x), np.concatenate([x, y])),
                       median_advantage=_zero_snapped(np.median(y - x), np.concatenate([x, y])),
                       wins=wins, ties=ties, losses=losses, notes=tuple(notes), tie=tie,
                       decimals=derived_decimals(score_decimals(results.scores)), on_edge=on_edge,
                       pair_means=pair_means, edge_range=edge_range, picked=results.n_classifiers > 2,
                       ordered_by=ordered_by)


def _places_note(results: Results, fr: FriedmanResult, order: list[str]) -> str:
    """The tie clause of the two best places by average rank (``""`` when each is held by one),
    saying how :func:`_order` picked the compared two among the tied: by the better mean score (the
    higher, or the lower for lower-is-better scores: :func:`_order` sorts the oriented means), or,
    where the mean scores are equal too, in the file's column order."""
    groups = tie_groups([(c, float(fr.avg_ranks[c])) for c in order], higher_is_better=False)
    first_tied = len(groups[0]) >= 3
    if not (first_tied or (len(groups[0]) == 1 and len(groups) > 1 and len(groups[1]) >= 2)):
        return ""
    tied = groups[0] if first_tied else groups[1]
    k = 2 if first_tied else 1  # how many of the tied the comparison takes
    mean = results.oriented().mean(axis=0)
    by_mean = tie_groups([(c, float(mean[c])) for c in tied])  # _order took the tied by mean score
    taken = sum(len(g) for g in by_mean[:next(i for i in range(len(by_mean))
                                              if sum(len(g) for g in by_mean[:i + 1]) >= k) + 1])
    chosen = (("by the higher mean score" if results.higher_is_better else "by the better (lower) mean score")
              if taken == k
              else "in the file's column order (their mean scores are equal too)")
    return tie_note([list(g) for g in groups], by="average rank", value=lambda c: f"{fr.avg_ranks[c]:.3f}",
                    chosen=chosen, limit=LISTED)


# ----------------------------------------------------------------------- section 5
def _win_sizes(results: Results) -> str:
    """The clause of section 5 that says a small win counts as much as a large one, with the smallest and the
    largest non-zero difference between two classifiers on one data set, on the scores' own scale (no unit
    is assumed: the scores may be fractions, AUCs, percentages or losses)."""
    values = results.scores.to_numpy(dtype=float)
    k = values.shape[1]
    gaps = snap_ties(np.abs(np.concatenate([values[:, i] - values[:, j] for i in range(k) for j in range(i + 1, k)])))
    gaps = gaps[gaps > 0]
    if gaps.size == 0 or float(gaps.min()) == float(gaps.max()):
        return "a win by a small margin would count as much as a win by a large one"
    dec = score_decimals(results.scores)
    return (f"a win by {float(gaps.min()):.{dec}f} counts as much as a win by {float(gaps.max()):.{dec}f} (the smallest "
            "and the largest non-zero difference between two classifiers on one data set here, on the scores' own "
            "scale)")


#: Up to this many data sets, section 5 names the mean-rank z tests and Nemenyi's critical difference as
#: large-sample approximations: Demšar's (2006) rule of thumb asks for N > 10 before the large-sample law
#: of the rank statistic is used (:data:`CHI2_MIN_DATASETS`).
SMALL_N_MEAN_RANK = CHI2_MIN_DATASETS


def assumptions(results: Results, friedman_section: FriedmanSection | None = None, *,
                alpha: float = 0.05) -> tuple[str, ...]:
    """Section 5: what the tests assume, in sentences that name this table's numbers.

    The caveats of Demšar (2006): the data sets are the independent units; ranks compare
    across data sets and ignore the size of each difference; the chi-square approximation
    needs enough data sets and classifiers; with few data sets the exact signed-rank test cannot
    reach the level. From Benavoli, Corani & Mangili (2016): the mean-rank post-hoc verdict on a pair
    depends on the other classifiers in the table.

    Parameters
    ----------
    results : Results
    friedman_section : FriedmanSection, optional
        Section 2's result (names the p-value the verdict used); None computes it.
    alpha : float
        The level.

    Returns
    -------
    tuple of str

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *JMLR* 7, 1-30 (sections 2, 3.1.3 and 3.2.2).
    .. [2] Benavoli, A., Corani, G. & Mangili, F. (2016). Should we really use post-hoc tests
       based on mean-ranks? *JMLR* 17(5), 1-10.
    """
    alpha = check_alpha(alpha)
    fs = friedman_section if friedman_section is not None else friedman_test(results, alpha=alpha)
    n, k = results.n_datasets, results.n_classifiers
    out = [
        f"The {n} data sets are the units of these tests: they are taken to be independent draws from the "
        "problems the conclusions are meant for, and the verdicts reach no further than problems like them. "
        "Data sets cut from one source (subsets or binary tasks of one data set, its folds or repeats) are "
        "not independent: they count as separate evidence what is partly the same evidence, so the tests "
        "behave as if there were more data sets than there are, and their p-values tend to be too small and "
        "their verdicts too eager, by an amount no computation on this table can tell.",
        "Ranks make scores comparable across data sets: in Friedman's test and the mean-rank tests each data "
        "set contributes only the order of the classifiers, so data sets of different difficulty count alike, "
        f"and {_win_sizes(results)}. The mean scores and the mean advantages in the tables show "
        "the sizes; the scores must be measured the same way on every data set.",
    ]
    if not (n > CHI2_MIN_DATASETS and k > CHI2_MIN_CLASSIFIERS):
        by = ("the exact sign test of the pair (tied data sets dropped)" if fs.sign_test else
              f"the exact permutation p-value{fs.given_ties}" if fs.decided_by == "exact"
              else f"the Monte Carlo permutation p-value{fs.given_ties} ({fs.monte_carlo_draws:,} draws)"
              if fs.decided_by == "monte-carlo"
              else "the Iman–Davenport F, which Demšar recommends over the conservative chi-square")
        short = [f"N = {n} data sets is not more than {CHI2_MIN_DATASETS}" if n <= CHI2_MIN_DATASETS else "",
                 f"k = {k} classifiers is not more than {CHI2_MIN_CLASSIFIERS}" if k <= CHI2_MIN_CLASSIFIERS else ""]
        out.append(f"Demšar's rule of thumb for the chi-square approximation to Friedman's statistic asks for "
                   f"N > {CHI2_MIN_DATASETS} data sets and k > {CHI2_MIN_CLASSIFIERS} classifiers; here "
                   f"{join_names([s for s in short if s])}. The report's verdict never rests on the chi-square "
                   f"approximation, whatever N and k: here it uses {by}.")
    oriented = results.oriented()
    nonzero = [sum(_record(oriented[a].to_numpy(), oriented[b].to_numpy())[::2])
               for i, a in enumerate(results.classifiers) for b in results.classifiers[i + 1:]]
    most = max(nonzero)  # the signed-rank test drops zero differences: a pair's n is its non-zero count
    if most == 0:  # every pair ties on every data set: nothing to rank, p = 1 for each
        who, where = (("the two classifiers have", "the pair") if len(nonzero) == 1 else
                      ("every pair of classifiers has", "any pair"))
        out.append(f"On all {n} data sets {who} the same score, so Wilcoxon's signed-rank test of section 3 has no "
                   f"non-zero difference to rank in {where} and gives p = 1: its verdicts are 'not shown to differ' "
                   "by construction.")
        wilcoxon_note = True
    elif wilcoxon_critical_value(most, alpha=alpha) is None:
        where = (f"the pair has {plural(most, 'non-zero difference')}" if len(nonzero) == 1 else
                 f"no pair has more than {plural(most, 'non-zero difference')}")
        smallest = smallest_sign_test_p(most)  # every non-zero difference on one side
        out.append(f"Of the {n} data sets, {where} (the signed-rank test drops the zero ones), and with so few "
                   f"the exact signed-rank test of section 3 cannot reach p <= {alpha:g}, whatever the scores: its "
                   f"smallest two-sided p-value, every non-zero difference on one side, is min(1, 2 × 0.5^{most}) = "
                   f"{smallest:g}, and tied absolute differences do not change it (the exact law is taken given "
                   "the tied ranks). Wilcoxon's verdicts in section 3 are 'not shown to differ' by construction.")
        wilcoxon_note = True
    else:
        wilcoxon_note = False
    floor = deciding_floor(results, fs, too=wilcoxon_note)
    if floor is not None and floor[1] > alpha:
        out.append(floor[0])
    if n <= SMALL_N_MEAN_RANK and k >= 3:
        cd = critical_difference(k, n, alpha=alpha, test="nemenyi")
        out.append(f"The mean-rank tests of section 3 rest on the large-sample law of the average ranks, and N = {n} "
                   f"data sets is not more than {SMALL_N_MEAN_RANK} (the N that Demšar's 2006 rule of thumb for the "
                   "large-sample approximation to Friedman's rank statistic asks to exceed), so they are approximate "
                   "here: their z tests refer each difference of average ranks to the normal law, and Nemenyi's "
                   f"critical difference ({cd.cd:.3f} = q √(k(k + 1)/(6N)), drawn in the diagram) takes q = "
                   f"{cd.q_alpha:.3f} from the asymptotic studentized range (k = {k} means, infinitely many degrees of "
                   f"freedom, divided by √2), not from the exact law of the ranks of {n} data sets, so its family-wise "
                   f"level is alpha = {alpha:g} only approximately. Wilcoxon's signed-rank test of section 3 takes "
                   "its exact law.")
    if k >= 3:
        out.append("The mean-rank post-hoc tests compare average ranks, and a pair's average ranks depend on "
                   "the other classifiers in the table: adding or removing one can change the verdict on a "
                   "pair. Wilcoxon's signed-rank test beside them uses only the pair's own scores.")
    out.append("A p-value says whether a difference is detectable, not whether it matters; the Bayesian test "
               "of section 4 weighs the difference against the smallest one that matters (the ROPE).")
    return tuple(out)


#: Escapers of 0.1.0 that live in :mod:`evallib.report._prose` now (DeprecationWarning until 0.3.0).
__getattr__ = moved_names(__name__, {"mpl_escape": "evallib.report._prose:plot_text"})
