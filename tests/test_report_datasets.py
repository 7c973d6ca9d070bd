"""Tests of the many-data-sets report (issue 24, item 5): a results table in, Demšar's analysis out.

Files are written in each test from real data: Demšar's Table 6 (``evallib.studies.demsar_table_6``,
the AUCs and the printed ranks) and the accuracies of five scikit-learn learners on ten data
sets (``evallib.studies.offline_benchmark_scores``, averaged over the folds). Reference values come
from Demšar (2006) as printed (chi2 = 9.28, F_F = 3.69, the average ranks, Nemenyi's q and CD,
the z and p of his control comparisons and Holm's verdicts), scipy (``friedmanchisquare``,
``wilcoxon``, the chi-square and F laws), scikit-posthocs (Nemenyi, Siegel–Castellan with
Holm), statsmodels (``multipletests``), baycomp (``SignedRankTest``) and brute-force
enumeration. The two end-to-end runs are marked slow.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from evallib.studies import demsar_table_6, offline_benchmark_scores
from evallib.report import ReportExecutionError, ReportInputError
from evallib.report import _datasets_runner as drun
from evallib.report._datasets_inputs import find_dataset_column, is_results_table, load_results
from evallib.report._datasets_sections import (
    TopTwoBayes,
    assumptions,
    bayesian_top_two,
    check_options,
    describe_results,
    friedman_test,
    plot_posthoc_diagram,
    posthoc_tests,
    published_note,
)
from evallib.report._prose import escape, format_p
from evallib.report._datasets_text import format_pairs, format_scores, results_summary
from evallib.report._sections import Skipped

ROOT = Path(__file__).resolve().parents[1]
DEMSAR_NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
#: Demšar (2006), section 3.2.4: the average ranks of Table 6, Friedman's chi2 and F_F.
DEMSAR_AVG_RANKS = {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}
DEMSAR_CHI2, DEMSAR_FF = 9.28, 3.69


# ------------------------------------------------------------------ files from real data
def _write(frame: pd.DataFrame, path: Path, *, index: bool = True) -> Path:
    """Write ``frame`` in the format its suffix names."""
    if path.suffix == ".xlsx":
        frame.to_excel(path, index=index)
    elif path.suffix == ".parquet":
        frame.reset_index().to_parquet(path, index=False) if index else frame.to_parquet(path, index=False)
    elif path.suffix == ".tsv":
        frame.to_csv(path, sep="\t", index=index)
    else:
        frame.to_csv(path, index=index)
    return path


def demsar_aucs() -> pd.DataFrame:
    return demsar_table_6()


def demsar_ranks() -> pd.DataFrame:
    return demsar_table_6(ranks=True)


def benchmark() -> pd.DataFrame:
    """Mean accuracy over the ten folds of five scikit-learn learners on ten data sets."""
    scores = offline_benchmark_scores()
    return scores.pivot_table(index="data set", columns="learner", values="accuracy", aggfunc="mean")


def _one_sentence(message: str) -> None:
    assert "\n" not in message and message.endswith(".") and "Traceback" not in message
    assert not re.search(r"[.!?] [A-Z]", message), message  # one sentence


# ------------------------------------------------------------------------ the reader
@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".xlsx", ".parquet"])
def test_reads_demsars_table_in_every_format(tmp_path, suffix):
    path = _write(demsar_aucs(), tmp_path / f"table6{suffix}")
    res = load_results(path)
    assert res.classifiers == tuple(DEMSAR_NAMES) and res.dataset_column == "data set"
    assert res.datasets == tuple(demsar_aucs().index)
    np.testing.assert_array_equal(res.scores.to_numpy(), demsar_aucs().to_numpy())
    assert res.higher_is_better and res.n_datasets == 14 and res.n_classifiers == 4


def test_decimal_commas_and_semicolons_are_read(tmp_path):
    path = tmp_path / "table6.csv"
    demsar_aucs().to_csv(path, sep=";", decimal=",")
    res = load_results(path)
    np.testing.assert_array_equal(res.scores.to_numpy(), demsar_aucs().to_numpy())
    assert "semicolons" in res.read_note and "decimal comma" in res.read_note


@pytest.mark.parametrize("name", ["dataset", "Data Set", "data_set", "DataSet", "TASK", "task_name"])
def test_the_dataset_column_is_found_by_name(tmp_path, name):
    frame = demsar_aucs().rename_axis(name)
    res = load_results(_write(frame, tmp_path / "t.csv"))
    assert res.dataset_column == name and res.dataset_from == "found by its name"
    assert res.datasets[0] == "adult (sample)"


def test_an_unnamed_first_column_or_a_named_one(tmp_path):
    res = load_results(_write(demsar_aucs().rename_axis(None), tmp_path / "t.csv"))
    assert res.dataset_from == "the file's unnamed first column" and res.n_datasets == 14
    frame = demsar_aucs().rename_axis("source").reset_index()
    res = load_results(_write(frame, tmp_path / "u.csv", index=False), dataset_column="source")
    assert res.dataset_from == "given" and res.classifiers == tuple(DEMSAR_NAMES)
    res = load_results(demsar_aucs().rename_axis(None))  # a DataFrame indexed by unnamed names
    assert res.dataset_column == "data set" and res.datasets[-1] == "wine"
    assert find_dataset_column(["origin", "C4.5"]) is None
    with pytest.raises(ReportInputError, match="'data set' and 'Task' could each be the data-set column"):
        find_dataset_column(["data set", "Task", "C4.5"])


def test_results_tables_are_told_from_predictions_files(tmp_path):
    """The command line's rule: no label column and a data-set column by name. The shipped
    predictions example and Demšar's table, both read from disk, fall on the right sides."""
    from evallib.report import EXAMPLE_PATH

    predictions = pd.read_csv(EXAMPLE_PATH)
    assert not is_results_table(predictions.columns)
    assert not is_results_table(predictions.assign(dataset="gse4335").columns)  # a label column decides
    table6 = pd.read_csv(_write(demsar_aucs(), tmp_path / "t6.csv"))
    assert is_results_table(table6.columns)
    assert is_results_table(table6.assign(task="x").columns)  # ambiguous: load_results asks which
    assert not is_results_table(table6.rename(columns={"data set": "origin"}).columns)


def _bad_tables() -> dict[str, tuple[pd.DataFrame, dict, tuple[str, ...]]]:
    t6 = demsar_aucs().reset_index()
    twice = pd.concat([t6, t6.iloc[[5]]], ignore_index=True)
    upper = t6.copy()
    upper.loc[13, "data set"] = " IRIS"
    missing = t6.copy()
    missing.loc[3, "C4.5+m"] = np.nan
    text = t6.astype({"C4.5": object})
    text.loc[2, "C4.5"] = "0.954*"  # a footnote mark, as tables in papers carry
    infinite = t6.copy()
    infinite.loc[7, "C4.5+cf"] = np.inf
    no_name = t6.copy()
    no_name.loc[4, "data set"] = None
    return {
        "duplicated data set": (twice, {}, ("'data set'", "more than once", "'iris'", "data rows 6 and 15")),
        "same name in other case": (upper, {}, ("'iris'", "also written 'IRIS'", "data rows 6 and 14")),
        "missing score": (missing, {}, ("'C4.5+m'", "1 missing value", "data set 'cmc'", "data row 4")),
        "non-numeric score": (text, {}, ("'C4.5'", "not numeric", "data set 'breast cancer wisconsin'", "'0.954*'")),
        "booleans": (t6.assign(**{"C4.5": t6["C4.5"] > 0.8}), {}, ("'C4.5'", "True/False")),
        "infinite score": (infinite, {}, ("'C4.5+cf'", "infinite", "data set 'lung cancer'")),
        "one classifier": (t6[["data set", "C4.5"]], {}, ("1 classifier column", "'C4.5'", "at least two")),
        "one data set": (t6.iloc[:1], {}, ("only one data set", "'adult (sample)'", "at least two")),
        "no dataset column": (t6.rename(columns={"data set": "origin"}), {},
                              ("No data-set column", "'origin'", "--dataset-column")),
        "two dataset columns": (t6.assign(task="x"), {}, ("'data set' and 'task'", "--dataset-column")),
        "given column absent": (t6, {"dataset_column": "benchmark"}, ("'benchmark'", "is not in", "--dataset-column")),
        "missing data-set name": (no_name, {}, ("'data set'", "1 missing name", "data row 5")),
        "empty table": (t6.iloc[:0], {}, ("no rows",)),
        "lower_is_better not a bool": (t6, {"higher_is_better": "no"}, ("higher_is_better", "True or False")),
    }


BAD = _bad_tables()


@pytest.mark.parametrize("case", list(BAD))
def test_bad_tables_are_refused_with_one_sentence(tmp_path, case):
    frame, kwargs, fragments = BAD[case]
    path = _write(frame, tmp_path / "bad.csv", index=False)
    with pytest.raises(ReportInputError) as info:
        load_results(path, **kwargs)
    message = str(info.value)
    _one_sentence(message)
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_a_missing_file_and_an_unnamed_classifier_column(tmp_path):
    with pytest.raises(ReportInputError, match=r"^The results table '.*nope\.csv' does not exist\.$"):
        load_results(tmp_path / "nope.csv")
    path = tmp_path / "t.csv"
    text = _write(demsar_aucs(), path).read_text().replace("C4.5+cf", "", 1)
    path.write_text(text)
    with pytest.raises(ReportInputError, match="Column 4 of .* has no name"):
        load_results(path)


BAD_OPTIONS = {
    "unknown control": ({"control": "c4.5"}, ("'c4.5'", "not one of the classifiers", "did you mean 'C4.5'")),
    "unknown all-pairs procedure": ({"posthoc": "tukey"}, ("--posthoc", "'nemenyi'", "'tukey'")),
    "control-only procedure for all pairs": ({"posthoc": "finner"}, ("--posthoc", "'finner'")),
    "unknown control procedure": ({"control_adjust": "shaffer", "control": "C4.5"}, ("--control-method", "'li'")),
    "negative rope": ({"rope": -0.01}, ("--rope", ">= 0", "-0.01")),
    "alpha out of range": ({"alpha": 1.5}, ("--alpha", "between 0 and 1")),
}


@pytest.mark.parametrize("case", [*BAD, *BAD_OPTIONS])
def test_bad_input_writes_nothing(tmp_path, monkeypatch, case):
    """Bad tables and options stop run_datasets_report with one sentence before any kernel starts."""
    import papermill

    def no_kernel(*args, **kwargs):
        raise AssertionError("the notebook must not run on bad input")

    monkeypatch.setattr(papermill, "execute_notebook", no_kernel)
    if case in BAD:
        frame, kwargs, fragments = BAD[case]
        path = _write(frame, tmp_path / "bad.csv", index=False)
    else:
        kwargs, fragments = BAD_OPTIONS[case]
        path = _write(demsar_aucs(), tmp_path / "good.csv")
    out = tmp_path / "out" / "report.html"
    with pytest.raises(ReportInputError) as info:
        drun.run_datasets_report(path, out, progress=False, **kwargs)
    _one_sentence(str(info.value))
    assert all(f in str(info.value) for f in fragments), str(info.value)
    assert not out.parent.exists()


def test_bergmann_is_refused_beyond_ten_classifiers(tmp_path):
    wide = pd.concat([benchmark().add_suffix(f" #{i}") for i in (1, 2, 3)], axis=1)  # 15 real columns
    with pytest.raises(ReportInputError, match="at most 10 of them; this table has 15"):
        drun.run_datasets_report(_write(wide, tmp_path / "wide.csv"), tmp_path / "o" / "r.html",
                                 posthoc="bergmann", progress=False)
    assert not (tmp_path / "o").exists()


# ------------------------------------------------------------------ section 1 and 2
def test_ranks_and_friedman_reproduce_demsars_printed_values(tmp_path):
    """Table 6 through the printed ranks (lower is better): Demšar's average ranks, chi2 = 9.28 and
    F_F = 3.69 (his eq. 3-4, no tie correction), and scipy's tie-corrected statistic beside them."""
    res = load_results(_write(demsar_ranks(), tmp_path / "ranks.xlsx"), higher_is_better=False)
    overview = describe_results(res)
    for name, printed in DEMSAR_AVG_RANKS.items():
        assert round(overview.table.loc[name, "average rank"], 3) == printed
    assert list(overview.table.index) == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    fs = friedman_test(res)
    assert round(fs.untied_statistic, 2) == DEMSAR_CHI2 and round(fs.untied_f, 2) == DEMSAR_FF
    ref = stats.friedmanchisquare(*demsar_ranks().to_numpy().T)
    n, k = 14, 4
    f_ref = (n - 1) * ref.statistic / (n * (k - 1) - ref.statistic)
    assert fs.result.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert fs.result.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert fs.result.iman_davenport == pytest.approx(f_ref, rel=1e-12)
    assert fs.result.f_pvalue == pytest.approx(stats.f.sf(f_ref, k - 1, (k - 1) * (n - 1)), rel=1e-10)
    assert fs.kendall_w == pytest.approx(ref.statistic / (n * (k - 1)), rel=1e-12)
    # the table has ties (Demšar's 2.5s): the exact law is the one conditional on them, not switched off
    assert fs.tied and fs.decided_by == "exact"
    mc, se = _conditional_permutation_p(demsar_ranks().to_numpy(), 40_000, rng=3)
    assert abs(fs.exact_pvalue - mc) < 4 * se
    assert fs.reject  # Demšar: "we can reject the null-hypothesis"
    # the scores as printed, each with its rank on that data set, as Demšar's Table 6 shows them
    shown = format_scores(res, overview)
    # every score with the decimals the table was written with (one, for ranks such as 2.5): "2.0", not "2"
    assert shown.loc["voting", "C4.5+cf"] == "2.0 (2)" and shown.loc["average rank", "C4.5"] == "(3.143)"


def test_friedman_on_real_learners_against_scipy(tmp_path):
    table = benchmark()
    res = load_results(_write(table, tmp_path / "bench.parquet"))
    fs = friedman_test(res)
    ref = stats.friedmanchisquare(*table.to_numpy().T)
    n, k = table.shape
    f_ref = (n - 1) * ref.statistic / (n * (k - 1) - ref.statistic)
    assert fs.result.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert fs.result.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert fs.result.f_pvalue == pytest.approx(stats.f.sf(f_ref, k - 1, (k - 1) * (n - 1)), rel=1e-10)
    assert fs.kendall_w == pytest.approx(ref.statistic / (n * (k - 1)), rel=1e-12)
    # the mean-score table against pandas on the raw file
    overview = describe_results(res)
    for name in table.columns:
        assert overview.table.loc[name, "mean"] == pytest.approx(table[name].mean(), rel=1e-12)
    best = table.rank(axis=1, ascending=False, method="min").eq(1).sum()
    assert overview.table["best on"].to_dict() == best.to_dict()


def _tie_corrected_chi2(tables: np.ndarray) -> np.ndarray:
    """Friedman's tie-corrected statistic of each (n, k) rank table of ``tables`` (..., n, k):
    ``(k - 1) sum_j (S_j - n (k + 1)/2)^2 / sum_ij (r_ij - (k + 1)/2)^2`` (Conover 1999, 5.8)."""
    n, k = tables.shape[-2:]
    sums = tables.sum(axis=-2)
    spread = ((tables - (k + 1) / 2.0) ** 2).sum(axis=(-2, -1))
    return (k - 1) * ((sums - n * (k + 1) / 2.0) ** 2).sum(axis=-1) / spread


def _conditional_permutation_p(ranks: np.ndarray, reps: int, rng: int) -> tuple[float, float]:
    """Monte Carlo tail probability of Friedman's statistic when each row of ``ranks`` (ties at their
    average rank) is shuffled independently: ``(share of draws >= observed, its standard error)``."""
    gen = np.random.default_rng(rng)
    ranks = np.asarray(ranks, dtype=float)
    observed = float(_tie_corrected_chi2(ranks))
    assert observed == pytest.approx(stats.friedmanchisquare(*ranks.T).statistic, rel=1e-12)
    order = np.argsort(gen.random((reps,) + ranks.shape), axis=-1)
    shuffled = np.take_along_axis(np.broadcast_to(ranks, order.shape), order, axis=-1)
    p = float(np.mean(_tie_corrected_chi2(shuffled) >= observed - 1e-9))
    return p, float(np.sqrt(p * (1 - p) / reps))


def test_exact_friedman_p_value_by_brute_force(tmp_path):
    """A small real table without ties: the p-value from enumerating all 6^5 rank patterns."""
    table = benchmark().loc[["breast cancer", "diabetes > median", "digits", "digits 4/9", "wine 1/2"],
                            ["LDA", "5-NN", "naive Bayes"]]
    assert (table.rank(axis=1).round(6) % 1 == 0).all().all()  # no ties
    res = load_results(_write(table, tmp_path / "small.csv"))
    fs = friedman_test(res)
    n, k = table.shape

    def chi2(rank_rows) -> float:
        sums = np.sum(rank_rows, axis=0)
        return 12.0 / (n * k * (k + 1)) * float(np.sum(sums ** 2)) - 3.0 * n * (k + 1)

    observed = chi2(table.rank(axis=1, ascending=False).to_numpy())
    perms = list(itertools.permutations(range(1, k + 1)))
    hits = sum(chi2(np.array(rows)) >= observed - 1e-9 for rows in itertools.product(perms, repeat=n))
    assert fs.decided_by == "exact"
    assert fs.exact_pvalue == pytest.approx(hits / len(perms) ** n, rel=1e-12)


# ---------------------------------------------------------------------- section 3
def test_all_pairs_against_scikit_posthocs_scipy_and_statsmodels(tmp_path):
    sp = pytest.importorskip("scikit_posthocs")
    from statsmodels.stats.multitest import multipletests

    table = benchmark()
    names = list(table.columns)
    res = load_results(_write(table, tmp_path / "bench.csv"))
    nemenyi = posthoc_tests(res, adjust="nemenyi")
    holm = posthoc_tests(res, adjust="holm")
    ref_nem = sp.posthoc_nemenyi_friedman(table.to_numpy())
    ref_holm = sp.posthoc_siegel_friedman(table.to_numpy(), p_adjust="holm")
    assert len(nemenyi.pairs) == 10 and len(format_pairs(nemenyi)) == 10  # every pair, none hidden
    for row in nemenyi.pairs.itertuples():
        i, j = names.index(row.a), names.index(row.b)
        assert row.pvalue_adj == pytest.approx(ref_nem.iloc[i, j], abs=1e-6)
        assert row.rank_a <= row.rank_b
        d = table[row.a].to_numpy() - table[row.b].to_numpy()
        wins, ties = int(np.sum(d > 1e-12)), int(np.sum(np.abs(d) <= 1e-12))
        assert (row.wins, row.ties, row.losses) == (wins, ties, n_loss := 10 - wins - ties) and n_loss >= 0
        assert row.mean_advantage == pytest.approx(d.mean(), rel=1e-12)
    for row in holm.pairs.itertuples():
        assert row.pvalue_adj == pytest.approx(ref_holm.iloc[names.index(row.a), names.index(row.b)],
                                                    rel=1e-9)
    # Wilcoxon per pair (scipy, exact permutation law; differences below 1e-12 are zeros), Holm by statsmodels
    pairs = nemenyi.pairs
    ref_w = [stats.wilcoxon(np.round(table[a].to_numpy() - table[b].to_numpy(), 12),
                            method=stats.PermutationMethod(n_resamples=np.inf)).pvalue
             for a, b in zip(pairs["a"], pairs["b"])]
    np.testing.assert_allclose(pairs["wilcoxon_p"], ref_w, rtol=1e-9)
    np.testing.assert_allclose(pairs["wilcoxon_pvalue_adj"], multipletests(ref_w, method="holm")[1], rtol=1e-9)


def test_the_0_1_0_keywords_and_fields_still_work_with_a_warning(tmp_path):
    """posthoc_tests(method=, control_method=), check_options(control_method=),
    run_datasets_report(control_method=) and PosthocSection.method/.control_method are 0.1.0's
    spellings of adjust=/control_adjust= (docs/conventions.md); each warns, naming the new one,
    and gives what the new spelling gives."""
    res = load_results(_write(demsar_ranks(), tmp_path / "ranks.csv"), higher_is_better=False)
    new = posthoc_tests(res, adjust="holm", control="C4.5", control_adjust="bonferroni-dunn")
    with pytest.warns(DeprecationWarning) as record:
        old = posthoc_tests(res, method="holm", control="C4.5", control_method="bonferroni-dunn")
    messages = sorted(str(w.message) for w in record)
    assert len(messages) == 2 and "use adjust= instead" in messages[1] and "use control_adjust=" in messages[0]
    pd.testing.assert_frame_equal(old.pairs, new.pairs)
    pd.testing.assert_frame_equal(old.control_table, new.control_table)
    assert (new.adjust, new.control_adjust) == ("holm", "bonferroni-dunn")
    with pytest.warns(DeprecationWarning, match=r"PosthocSection\.method .*use \.adjust"):
        assert new.method == "holm"
    with pytest.warns(DeprecationWarning, match=r"PosthocSection\.control_method .*use \.control_adjust"):
        assert new.control_method == "bonferroni-dunn"
    with pytest.warns(DeprecationWarning, match="use control_adjust="):
        opts = check_options(res, control="C4.5", control_method="li")
    assert opts["control_adjust"] == "li"
    with pytest.raises(TypeError, match="pass only adjust="):
        posthoc_tests(res, method="holm", adjust="holm")
    with pytest.warns(DeprecationWarning, match=r"run_datasets_report\(control_method=\.\.\.\).*use control_adjust="), \
            pytest.raises(ReportInputError, match="control_adjust="):
        drun.run_datasets_report(tmp_path / "ranks.csv", tmp_path / "r.html", control="C4.5", control_method="shaffer",
                                 higher_is_better=False, progress=False)
    assert not (tmp_path / "r.html").exists()


def test_control_comparisons_reproduce_demsars_worked_example(tmp_path):
    """Demšar, section 3.2.4: with C4.5 as the control, z = 2.416, 2.342, 0.512 and p = 0.016,
    0.019, 0.607 (from ranks rounded to three decimals); Holm rejects the first two. Nemenyi's
    q = 2.569 and CD = 1.25: no pair of the four reaches it."""
    res = load_results(_write(demsar_ranks(), tmp_path / "ranks.csv"), higher_is_better=False)
    ph = posthoc_tests(res, control="C4.5", control_adjust="holm")
    t = ph.control_table.set_index("b")
    for name, z, p in (("C4.5+m+cf", 2.416, 0.016), ("C4.5+m", 2.342, 0.019), ("C4.5+cf", 0.512, 0.607)):
        assert abs(t.loc[name, "z"]) == pytest.approx(z, abs=2e-3)
        assert t.loc[name, "pvalue"] == pytest.approx(p, abs=1.5e-3)
    assert t["reject"].to_dict() == {"C4.5+m+cf": True, "C4.5+m": True, "C4.5+cf": False}
    assert round(ph.cd.q_alpha, 3) == 2.569 and round(ph.cd.cd, 2) == 1.25
    assert not ph.pairs["reject"].any()
    # the rank-based record of the control as Table 6's printed ranks give it
    ranks = demsar_ranks()
    assert t.loc["C4.5+m", "wins"] == int((ranks["C4.5"] < ranks["C4.5+m"]).sum())


def _thick_groups(ax, avg_ranks: pd.Series) -> list[set[str]]:
    """The classifiers under each thick line of a CD diagram (the groups it draws)."""
    groups = []
    for line in ax.get_lines():
        if line.get_linewidth() == pytest.approx(3.5):
            lo, hi = sorted(line.get_xdata())
            groups.append({n for n, r in avg_ranks.items() if lo <= r <= hi})
    return groups


def test_the_cd_diagram_joins_exactly_the_pairs_nemenyi_does_not_separate(tmp_path):
    sp = pytest.importorskip("scikit_posthocs")
    table = benchmark()
    names = list(table.columns)
    ph = posthoc_tests(load_results(_write(table, tmp_path / "b.csv")), adjust="nemenyi")
    ax = plot_posthoc_diagram(ph)
    groups = _thick_groups(ax, ph.avg_ranks)
    ref = sp.posthoc_nemenyi_friedman(table.to_numpy())
    joined = {frozenset(p) for g in groups for p in itertools.combinations(sorted(g), 2)}
    not_separated = {frozenset((a, b)) for a, b in itertools.combinations(names, 2)
                     if ref.iloc[names.index(a), names.index(b)] > 0.05}
    assert groups and joined == not_separated
    matplotlib.pyplot.close("all")


def test_diagrams_draw_names_that_look_like_formulas(tmp_path):
    """Matplotlib reads $...$ as TeX; a classifier named so must be drawn as written."""
    frame = demsar_aucs().rename(columns={"C4.5": r"cost $\foo{ $", "C4.5+m": "$m$"})
    res = load_results(_write(frame, tmp_path / "t.csv"))
    ph = posthoc_tests(res, control=r"cost $\foo{ $", control_adjust="bonferroni-dunn")
    for against in (False, True):
        ax = plot_posthoc_diagram(ph, against_control=against)
        ax.figure.savefig(tmp_path / "cd.png")  # drawing parses every text
        labels = [t.get_text() for t in ax.texts]
        assert any(r"cost \$\foo{ \$" in t for t in labels) and any(r"\$m\$" in t for t in labels)
    matplotlib.pyplot.close("all")


# ---------------------------------------------------------------------- section 4
def test_bayesian_top_two_against_baycomp(tmp_path):
    baycomp = pytest.importorskip("baycomp")
    table = benchmark()
    ranks = pd.DataFrame(stats.rankdata(-table.to_numpy(), axis=1), columns=table.columns).mean()
    best, second = ranks.sort_values().index[:2]
    # baycomp compares in binary floating point; one Walsh sum here is 2 x (0.96 - 0.95), on the ROPE's
    # edge in decimal but 1e-17 above it in binary. Its differences rounded to 12 decimals put that sum
    # exactly on 0.02, as evallib's edge rule does (issue 33).
    diff = np.round(table[best].to_numpy() - table[second].to_numpy(), 12)
    ref = baycomp.SignedRankTest.probs(np.zeros(diff.size), diff, rope=0.01, nsamples=50_000, random_state=1)
    res = load_results(_write(table, tmp_path / "b.csv"))
    ours = bayesian_top_two(res, rng=0)
    assert isinstance(ours, TopTwoBayes) and (ours.best, ours.second) == (best, second)
    assert ours.rope == 0.01
    got = (ours.p_second, ours.p_equivalent, ours.p_best)
    np.testing.assert_allclose(got, ref, atol=0.015)  # Monte Carlo error of each: below 0.0023
    # error rates, lower is better: the same two, the same posterior
    errors = load_results(_write(1.0 - table, tmp_path / "err.csv"), higher_is_better=False)
    turned = bayesian_top_two(errors, rng=0)
    assert (turned.best, turned.second) == (best, second)
    np.testing.assert_allclose((turned.p_second, turned.p_equivalent, turned.p_best), ref, atol=0.015)
    assert turned.mean_advantage == pytest.approx(float(np.mean(table[best] - table[second])), rel=1e-9)


def test_percentages_need_a_rope_and_take_it_in_their_units(tmp_path):
    baycomp = pytest.importorskip("baycomp")
    table = 100.0 * benchmark()
    res = load_results(_write(table, tmp_path / "pct.csv"))
    skipped = bayesian_top_two(res, rng=0)
    assert isinstance(skipped, Skipped) and "--rope" in skipped.reason and "outside [0, 1]" in skipped.reason
    ours = bayesian_top_two(res, rope=1.0, rng=3)
    ref = baycomp.SignedRankTest.probs(table[ours.second].to_numpy(), table[ours.best].to_numpy(), rope=1.0,
                                       nsamples=50_000, random_state=4)
    np.testing.assert_allclose((ours.p_second, ours.p_equivalent, ours.p_best), ref, atol=0.015)
    assert ours.rope_from.startswith("given")


# ------------------------------------------------------------- summary and caveats
def test_summary_states_effects_before_p_values_and_escapes_names(tmp_path):
    frame = demsar_ranks().rename(columns={"C4.5": "<script>alert(1)</script>", "C4.5+m": "*m*_$x$"})
    res = load_results(_write(frame, tmp_path / "r.csv"), higher_is_better=False)
    overview, fs = describe_results(res), friedman_test(res)
    ph = posthoc_tests(res, control="<script>alert(1)</script>", friedman_rejects=fs.reject)
    text = results_summary(res, overview=overview, friedman=fs, posthoc=ph, bayes=bayesian_top_two(res, rope=0.5,
                                                                                                rng=0))
    bullets = text.splitlines()
    assert "<script" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "\\*m\\*\\_\\$x\\$" in text
    assert escape("*m*_$x$") in text and "*m*_$x$" not in text
    ranking, friedman_line = bullets[0], bullets[1]
    assert "1.964" in ranking and "3.143" in ranking  # Demšar's printed average ranks
    ref = stats.friedmanchisquare(*demsar_ranks().to_numpy().T)
    assert f"Kendall's W, the concordance of the data sets' rankings, is {ref.statistic / 42:.3f}" in friedman_line and f"= {ref.statistic:.2f}" in friedman_line
    assert friedman_line.index("Kendall's W") < friedman_line.index("p = ")  # the effect comes first
    assert len(bullets) == 6 and len(set(bullets)) == 6  # ranking, Friedman, pairs, control, Bayes, caveat


def test_a_shared_best_rank_is_said_as_such(tmp_path):
    """On iris and mushroom, C4.5+m and C4.5+m+cf have equal AUCs (Table 6): they share rank 1.5."""
    table = demsar_aucs().loc[["iris", "mushroom"], ["C4.5+m", "C4.5+m+cf"]]
    res = load_results(_write(table, tmp_path / "tie.csv"))
    overview, fs = describe_results(res), friedman_test(res)
    text = results_summary(res, overview=overview, friedman=fs, posthoc=posthoc_tests(res), bayes=None)
    mean = f"{table['C4.5+m'].mean():.4g}"
    assert "**C4.5+m** and **C4.5+m+cf** share the best average rank, 1.500" in text
    assert f"Their mean scores are {mean} and {mean}" in text and "Its mean" not in text
    assert fs.kendall_w == 0.0 and fs.pvalue == 1.0


def test_assumptions_name_the_table_and_its_limits(tmp_path):
    table = benchmark().iloc[:5]
    res = load_results(_write(table, tmp_path / "five.csv"))
    text = " ".join(assumptions(res))
    assert "The 5 data sets are the units" in text and "independent" in text
    # with five data sets the smallest two-sided signed-rank p-value is 2/32 (scipy's exact law) > 0.05
    smallest = stats.wilcoxon([1.0, 2.0, 3.0, 4.0, 5.0], method="exact").pvalue
    assert smallest > 0.05 and "the exact signed-rank test of section 3 cannot reach" in text
    assert "for the chi-square approximation to Friedman's statistic asks for N > 10 data sets and k > 5 classifiers; here N = 5 data sets is not more than 10 and k = 5 classifiers is not more than 5" in text
    big = " ".join(assumptions(load_results(_write(benchmark(), tmp_path / "ten.csv"))))
    assert "no two-sided signed-rank test" not in big  # ten data sets can reach 0.05 (min p 2/1024)


# -------------------------------------------------------------------------- runner
class _Interrupted(KeyboardInterrupt):
    pass


@pytest.mark.parametrize("failure", ["notebook error", "interrupt"])
def test_a_failed_or_interrupted_run_leaves_nothing(tmp_path, monkeypatch, failure):
    import papermill

    seen = {}

    def half_run(notebook, output, *, parameters, **kwargs):
        seen.update(parameters)
        Path(output).write_text("{}")  # a partial notebook in the temporary folder
        if failure == "interrupt":
            raise _Interrupted
        raise papermill.PapermillExecutionError(3, 1, "", "ValueError", "boom", [])

    monkeypatch.setattr(papermill, "execute_notebook", half_run)
    out = tmp_path / "new" / "deeper" / "report.html"
    expected = ReportExecutionError if failure == "notebook error" else _Interrupted
    with pytest.raises(expected):
        drun.run_datasets_report(_write(demsar_aucs(), tmp_path / "t.csv"), out, control="C4.5", rope=0.02,
                                 rng=np.random.default_rng(5), progress=False)
    assert not (tmp_path / "new").exists()
    assert list(tmp_path.iterdir()) == [tmp_path / "t.csv"]
    twin = int(np.random.default_rng(5).integers(2**31 - 1))
    assert seen["seed"] == twin and type(seen["seed"]) is int
    assert (seen["control"], seen["rope"], seen["posthoc"], seen["dataset_column"]) == ("C4.5", 0.02, "nemenyi", None)


def _ran(html_path: Path) -> tuple[str, dict]:
    html = html_path.read_text(encoding="utf-8")
    nb = json.loads(html_path.with_suffix(".ipynb").read_text(encoding="utf-8"))
    assert sorted(p.name for p in html_path.parent.iterdir()) == sorted([html_path.name,
                                                                        html_path.with_suffix(".ipynb").name])
    return html, nb


@pytest.mark.slow
def test_report_on_demsars_table_with_a_control(tmp_path):
    baycomp = pytest.importorskip("baycomp")
    sp = pytest.importorskip("scikit_posthocs")
    frame = demsar_aucs().rename(columns={"C4.5": "<script>alert(1)</script>"})
    frame.index = frame.index.str.replace("iris", "<b>iris</b>")
    out = tmp_path / "report" / "t6.html"
    drun.run_datasets_report(_write(frame, tmp_path / "t6.xlsx"), out, control="<script>alert(1)</script>",
                             title="<script>alert(2)</script> Table 6", progress=False, rng=0)
    html, nb = _ran(out)
    assert "<script" not in html and "&lt;script&gt;alert(2)&lt;/script&gt; Table 6" in html
    assert "&lt;b&gt;iris&lt;/b&gt;" in html
    assert "load_results(" not in html and "What you will learn" not in html  # no code, no intro
    assert not re.search(r'(src|href)="https?:', html)  # self-contained
    assert html.count("<img ") == 3  # the CD diagram, the control's diagram, the simplex
    ref = stats.friedmanchisquare(*frame.to_numpy().T)
    n, k = frame.shape
    f_ref = (n - 1) * ref.statistic / (n * (k - 1) - ref.statistic)
    assert f"Friedman's chi-square = {ref.statistic:.2f}" in html and f"chi-square) = {f_ref:.2f}, df = (k - 1, (k - 1)(N - 1)) = ({k - 1}, {(k - 1) * (n - 1)})" in html
    assert f"Kendall's W = {ref.statistic / (n * (k - 1)):.3f}" in html
    nem = sp.posthoc_nemenyi_friedman(frame.to_numpy())
    assert f"<td>{nem.iloc[0, 3]:#.2g}</td>" in html  # C4.5 vs C4.5+m+cf, the largest rank difference
    for name in frame.index:  # every data set is a row of the scores table
        assert f"<th>{name.replace('<', '&lt;').replace('>', '&gt;')}</th>" in html
    found = re.search(r"P\(C4\.5\+m\+cf practically better\) = (0\.\d+)", html)
    # the AUCs have three decimals: in thousandths they are exact integers, so baycomp's comparison of the
    # Walsh sums with the ROPE's edge (5 of them lie on it) is exact there (issue 33)
    ref_p = baycomp.SignedRankTest.probs(np.rint(frame["C4.5+m"].to_numpy() * 1000),
                                         np.rint(frame["C4.5+m+cf"].to_numpy() * 1000), rope=10,
                                         nsamples=50_000, random_state=0)
    assert found and float(found.group(1)) == pytest.approx(ref_p[2], abs=0.015)
    assert nb["metadata"]["papermill"]["parameters"]["control"] == "<script>alert(1)</script>"


@pytest.mark.slow
def test_report_on_real_learners_in_percent_without_a_rope(tmp_path):
    sp = pytest.importorskip("scikit_posthocs")
    table = (100 * benchmark()).rename_axis("task")
    out = tmp_path / "out" / "r.html"
    drun.run_datasets_report(_write(table, tmp_path / "bench.parquet"), out, posthoc="holm", alpha=0.1,
                             progress=False, rng=0)
    html, _ = _ran(out)
    assert "Skipped: the scores run from" in html and "--rope" in html
    assert html.count("<img ") == 1  # the CD diagram only: no control, no Bayesian section
    names = list(table.columns)
    ref = sp.posthoc_siegel_friedman(table.to_numpy(), p_adjust="holm")
    top = (names.index("LDA"), names.index("decision tree"))
    assert f"<td>{ref.iloc[top]:#.2g}</td>" in html
    assert "family-wise alpha = 0.1" in html and "adjusted p (Holm; mean-rank z test)" in html
    ref = stats.friedmanchisquare(*table.to_numpy().T)
    assert f"Friedman's chi-square = {ref.statistic:.2f}" in html


@pytest.mark.parametrize("table", ["benchmark", "demsar"])
def test_bayesian_top_two_does_not_depend_on_the_units(tmp_path, table):
    """Scores in [0, 1] with rope 0.01 and the same scores x 100 with rope 1: the same probabilities (issue 33).

    Both tables have Walsh sums on the ROPE's edge in decimal (Demšar's Table 6: 5 of the 225 of
    C4.5+m vs C4.5+m+cf), which binary rounding used to put on either side depending on the units.
    """
    frame = benchmark() if table == "benchmark" else demsar_aucs()
    fractions = bayesian_top_two(load_results(_write(frame, tmp_path / "f.csv")), rope=0.01, rng=5)
    points = bayesian_top_two(load_results(_write(100 * frame, tmp_path / "p.csv")), rope=1, rng=5)
    assert (fractions.best, fractions.second) == (points.best, points.second)
    assert (fractions.p_second, fractions.p_equivalent, fractions.p_best) == pytest.approx(
        (points.p_second, points.p_equivalent, points.p_best), abs=1e-12)


# ------------------------------------------------------------------ issue 33: one verdict family, caveats
def test_pair_verdict_comes_from_one_family_chosen_in_advance(tmp_path):
    """C4.5+m vs C4.5: Wilcoxon–Holm rejects (exact), Nemenyi does not; the pair gets one chance."""
    from statsmodels.stats.multitest import multipletests

    res = load_results(_write(demsar_aucs(), tmp_path / "t6.csv"))
    t6 = demsar_aucs()
    pairs = list(itertools.combinations(t6.columns, 2))
    def enumerated(d):  # the exact signed-rank p-value by brute force over all 2^n sign patterns
        d = np.round(d, 9)
        d = d[d != 0]
        r = stats.rankdata(np.abs(d))
        signs = np.array(list(itertools.product([0, 1], repeat=d.size)))
        t_all = signs @ r
        t_obs = r[d > 0].sum()
        centre = r.sum() / 2
        return min(1.0, float(np.mean(np.abs(t_all - centre) >= abs(t_obs - centre) - 1e-9)))

    exact = [enumerated((t6[a] - t6[b]).to_numpy()) for a, b in pairs]
    holm = dict(zip(pairs, multipletests(exact, method="holm")[1]))
    ph = posthoc_tests(res)  # default: the mean-rank family
    row = ph.pairs.set_index(["a", "b"]).loc[("C4.5+m", "C4.5")]
    assert row["wilcoxon_pvalue_adj"] == pytest.approx(holm.get(("C4.5", "C4.5+m"), holm.get(("C4.5+m", "C4.5"))))
    assert row["wilcoxon_reject"] and not row["reject"]
    table = format_pairs(ph)
    assert table.loc["C4.5+m vs C4.5", "verdict (mean-rank z tests with Nemenyi's adjustment)"] == "not shown to differ"
    assert table.loc["C4.5+m vs C4.5", "secondary (Wilcoxon signed-rank tests with Holm's adjustment)"] == "differ"
    assert (table["verdict (mean-rank z tests with Nemenyi's adjustment)"] == "differ").sum() == 0
    wil = posthoc_tests(res, verdict="wilcoxon")
    assert format_pairs(wil).loc["C4.5+m vs C4.5", "verdict (Wilcoxon signed-rank tests with Holm's adjustment)"] == "differ"
    overview, fs = describe_results(res), friedman_test(res)
    text = results_summary(res, overview=overview, friedman=fs, posthoc=ph)
    assert "The pairs' verdict comes from Nemenyi (the mean-rank z tests with Nemenyi's adjustment), the family set by the report's option --verdict mean-ranks (the default) before it ran" in text
    assert ("Secondary, shown beside it and not a second chance to differ: Wilcoxon–Holm (the Wilcoxon signed-rank "
            "tests with Holm's adjustment)") in text
    # the normal approximation (zeros dropped, no continuity correction) moves the one Wilcoxon rejection above 0.05
    normal = []
    for a, b in pairs:
        d = np.round((t6[a] - t6[b]).to_numpy(), 9)
        d = d[d != 0]
        r = stats.rankdata(np.abs(d))
        t_plus = r[d > 0].sum()
        n = d.size
        _, counts = np.unique(r, return_counts=True)
        var = n * (n + 1) * (2 * n + 1) / 24 - np.sum(counts**3 - counts) / 48
        normal.append(2 * stats.norm.sf(abs(t_plus - n * (n + 1) / 4) / np.sqrt(var)))
    normal_holm = dict(zip(pairs, multipletests(normal, method="holm")[1]))
    p_norm = normal_holm.get(("C4.5", "C4.5+m"), normal_holm.get(("C4.5+m", "C4.5")))
    assert p_norm > 0.05 and (f"adjusted p {format_p(p_norm)[2:]} (Holm) with the normal approximation of the same "
                              "statistic. The normal approximation drops zero differences") in text
    with pytest.raises(ReportInputError, match="verdict"):
        check_options(res, verdict="either")


def test_control_caveat_and_what_dependent_data_sets_do(tmp_path):
    res = load_results(_write(demsar_aucs(), tmp_path / "t6.csv"))
    ph = posthoc_tests(res, control="C4.5")
    text = results_summary(res, overview=describe_results(res), friedman=friedman_test(res), posthoc=ph)
    assert "chosen before looking at the results" in text and "chosen before looking at the results" in ph.text()
    caveats = " ".join(assumptions(res))
    assert "make every p-value too small" not in caveats and "tend to be too small" in caveats


def test_published_numbers_not_reproduced_are_explained(tmp_path):
    res = load_results(_write(demsar_aucs(), tmp_path / "t6.csv"))
    note = published_note(res)
    corrected = stats.friedmanchisquare(*demsar_aucs().to_numpy().T).statistic
    assert f"prints Friedman's chi-square as {DEMSAR_CHI2:.2f}" in note  # Demšar (2006), as printed
    assert f"chi-square = {corrected:.2f} with the tie correction" in note and "voting" in note
    other = load_results(_write(benchmark(), tmp_path / "b.csv"))
    assert published_note(other) is None


def test_the_normal_approximation_is_described_as_run_not_as_demsars(tmp_path):
    """The normal approximation beside a Wilcoxon rejection drops zero differences (as the exact test
    does); Demšar's large-sample z splits them, which gives another p-value (0.0110 vs 0.0108 on
    C4.5+m vs C4.5, by scipy), so the text must not call it Demšar's form (issue 33)."""
    from statsmodels.stats.multitest import multipletests

    res = load_results(_write(demsar_aucs(), tmp_path / "t6.csv"))
    t6 = demsar_aucs()
    ph = posthoc_tests(res)
    text = results_summary(res, overview=describe_results(res), friedman=friedman_test(res), posthoc=ph)
    pairs = list(zip(ph.pairs["a"], ph.pairs["b"]))

    def scipy_normal(a, b, zero_method):
        d = np.round((t6[a] - t6[b]).to_numpy(), 9)
        return stats.wilcoxon(d, zero_method=zero_method, correction=False, method="approx").pvalue

    dropped = multipletests([scipy_normal(a, b, "wilcox") for a, b in pairs], method="holm")[1]
    split = scipy_normal("C4.5+m", "C4.5", "zsplit")
    assert f"{split:.4f}" == "0.0110" and f"{scipy_normal('C4.5+m', 'C4.5', 'wilcox'):.4f}" == "0.0108"
    i = pairs.index(("C4.5+m", "C4.5"))
    assert (f"{format_p(dropped[i])[2:]} (Holm) with the normal approximation of the same statistic. "
            "The normal approximation drops zero differences, as the exact test does, takes the variance "
            "from the ranks as given (tie-corrected) and uses no continuity correction; Demšar's 2006 large-sample z instead splits each zero difference's rank between the "
            "two signs") in text
    assert "Demšar's paper gives" not in text


def test_one_spelling_of_chi_square_counts_dashes_and_p_headers_in_both_reports(tmp_path):
    """Issue 33: "chi-square" in words (``"chi2"`` is only an option string, docs/conventions.md),
    counts with their noun in agreement ("1 pair differs", never "pair(s)"), two authors' names joined by an
    en dash as evallib's ADJUSTMENT_NAMES spell them (Bonett–Price, Wilcoxon–Holm) in the templates'
    prose too, and an unadjusted p-value column headed as the per-item report heads it,
    ``p (unadjusted; <test>)``."""
    from evallib._format import adjusted_p_header
    from evallib.report import EXAMPLE_PATH as PREDICTIONS
    from evallib.report import chance_check, classifier_measures, load_predictions
    from evallib.report._datasets_text import format_control

    res = load_results(_write(demsar_aucs(), tmp_path / "t6.csv"))
    ph = posthoc_tests(res, control="C4.5")
    texts = [friedman_test(res).text(), ph.text(), " ".join(describe_results(res).notes),
             results_summary(res, overview=describe_results(res), friedman=friedman_test(res), posthoc=ph)]
    joined = "\n".join(texts)
    assert "chi2" not in joined and "(s)" not in joined
    assert "Friedman's chi-square = " in texts[0]
    n_mean, n_wil = len(ph.rejected_pairs), int(ph.pairs["wilcoxon_reject"].sum())
    for n in (n_mean, n_wil):
        assert f"{n} pair{'' if n == 1 else 's'} differ{'s' if n == 1 else ''}" in texts[1]
    assert adjusted_p_header(None, "mean-rank z test") == "p (unadjusted; mean-rank z test)"
    assert "p (unadjusted; mean-rank z test)" in format_control(ph).columns
    data = load_predictions(PREDICTIONS, pos_label="ER-")
    chance = chance_check(data, classifier_measures(data))
    assert list(chance.formatted().columns).count("p-value") == 0
    assert f"p (against the best of C = {chance.C} random classifiers)" in chance.formatted().columns
    root = Path(__file__).resolve().parents[1] / "notebooks"
    for name in ("report.ipynb", "report_datasets.ipynb"):
        prose = " ".join("".join(c["source"]) for c in json.loads((root / name).read_text())["cells"]
                         if c["cell_type"] == "markdown")
        assert not re.search(r"\b(Bonett|Benjamini|Bonferroni|Bergmann|Wilcoxon|Iman)-[A-Z]", prose), name  # two names: an en dash


def _pair_means_on_edge(d, rope):
    """By hand: the unordered pairs i <= j of the atoms 0, d_1, ..., d_n (each with itself, and the
    prior's 0 with each) whose mean (z_i + z_j) / 2 is ±rope to 1e-12."""
    z = np.concatenate([[0.0], np.asarray(d, dtype=float)])
    return sum(1 for i in range(z.size) for j in range(i, z.size)
               if abs(abs(z[i] + z[j]) / 2 - rope) <= 1e-12), (z.size * (z.size + 1)) // 2


def test_bayes_summary_counts_pair_means_on_the_edge_and_their_range(tmp_path):
    """The edge count is of the test's pair means, not of single differences: on Demšar's Table 6
    one difference is 0.01 (0.898 - 0.888 on ionosphere) but 3 pair means are; counted by hand.
    The range comes from the test rerun with the edge inside and beyond the ROPE on the same draws."""
    res = load_results(_write(demsar_aucs(), tmp_path / "t6.csv"))
    bayes = bayesian_top_two(res, n_resamples=2000, rng=0)
    t6 = demsar_aucs()
    d = (t6[bayes.best] - t6[bayes.second]).to_numpy()
    assert int(np.sum(np.isclose(np.abs(d), 0.01, rtol=0, atol=1e-12))) == 1
    by_hand, total = _pair_means_on_edge(d, 0.01)
    assert by_hand == 3 and bayes.on_edge == by_hand and bayes.pair_means == total == 120
    text = results_summary(res, overview=describe_results(res), friedman=friedman_test(res),
                           posthoc=posthoc_tests(res), bayes=bayes)
    assert "exactly at ±0.01 as half inside the ROPE and half beyond it" in text
    assert ("3 of the 120 pair means (of two differences, each with itself and with the prior's 0 included) "
            "lie exactly on the ROPE's edge") in text
    (ib, ie, _), (sb, se, _) = bayes.edge_range
    # the edge inside the ROPE can only raise P(equivalent) on the same draws; H = 1/2 lies between
    assert ie >= se and sb >= ib
    assert min(ib, sb) <= bayes.p_best <= max(ib, sb) and min(ie, se) <= bayes.p_equivalent <= max(ie, se)
    assert f"ranges from {min(ib, sb):.3f} to {max(ib, sb):.3f}" in text
    assert "note: 3 of the 120 pair means" in bayes.text()
    # the edge moved off by a shift of one classifier: the count follows the by-hand enumeration
    shifted = load_results(_write(t6.assign(**{bayes.best: t6[bayes.best] + 0.0003}), tmp_path / "s.csv"))
    off = bayesian_top_two(shifted, rope=0.01, n_resamples=200, rng=0)
    d_off = (shifted.scores[off.best] - shifted.scores[off.second]).to_numpy()
    assert _pair_means_on_edge(d_off, 0.01)[0] == off.on_edge
    if off.on_edge == 0:
        assert off.edge_range == () and "exactly on the ROPE's edge" not in off.text()


def test_bayes_edge_counts_pair_means_when_no_single_difference_is_on_it(tmp_path):
    """Differences 0.005 and 0.015 (none at ±0.01) have pair mean 0.01; 0.02 with the prior's 0 too."""
    frame = pd.DataFrame({"A": [0.5] * 6, "B": [0.505, 0.515, 0.52, 0.53, 0.54, 0.55]},
                         index=[f"d{i}" for i in range(6)])
    res = load_results(_write(frame, tmp_path / "e.csv"))
    bayes = bayesian_top_two(res, rope=0.01, n_resamples=500, rng=1)
    d = (frame["B"] - frame["A"]).to_numpy()
    assert not np.any(np.isclose(np.abs(d), 0.01, rtol=0, atol=1e-12))
    by_hand, total = _pair_means_on_edge(d, 0.01)
    assert by_hand == 2 and bayes.on_edge == by_hand and bayes.pair_means == total
    assert len(bayes.edge_range) == 2


def test_two_classifiers_pair_verdict_takes_the_exact_sign_test(tmp_path):
    """k = 2, one classifier winning on all 5 data sets: the normal approximation's p is below 0.05
    but the exact law (the sign test's, scipy's binomtest) is 0.0625: no "differs" in table or text."""
    from scipy.stats import binomtest
    frame = pd.DataFrame({"A": [0.8, 0.7, 0.9, 0.6, 0.75], "B": [0.7, 0.6, 0.8, 0.5, 0.7]},
                         index=[f"d{i}" for i in range(5)])
    res = load_results(_write(frame, tmp_path / "two.csv"))
    ph = posthoc_tests(res)
    exact = binomtest(5, 5, 0.5).pvalue
    assert abs(ph.pairs.attrs["exact_two"] - exact) < 1e-12 and exact > 0.05
    assert float(ph.pairs["pvalue_adj"].iloc[0]) < 0.05  # the approximation alone would reject
    assert not ph.pairs["reject"].any()
    text = results_summary(res, overview=describe_results(res), friedman=friedman_test(res), posthoc=ph)
    assert "finds none that differs" not in text and "finds 1 that differs" not in text
    assert f"p = {exact:g}, so A and B are not shown to differ" in text


def test_assumptions_name_mean_rank_z_tests_large_sample_with_few_data_sets(tmp_path):
    """At most 10 data sets (and k >= 3): section 5 names the mean-rank tests as large-sample;
    with Demšar's 14 it does not. The chi-square sentence says the verdict never uses the chi-square."""
    t6 = demsar_aucs()
    few = assumptions(load_results(_write(t6.iloc[:6], tmp_path / "few.csv")))
    many = assumptions(load_results(_write(t6, tmp_path / "all.csv")))
    note = "rest on the large-sample law of the average ranks, and N = 6 data sets is not more than 10"
    assert any(note in s for s in few) and not any("large-sample law of the average ranks" in s for s in many)
    assert any("never rests on the chi-square approximation, whatever N and k" in s for s in many)


def test_bayes_share_of_no_draw_reads_below_0_001_only_when_the_draws_bound_it(tmp_path):
    """No draw favours the second (every difference is positive): "< 0.001" with 5,000 draws (rule of
    three: 3 / 5000 = 0.0006), but "= 0.000" with 500 (3 / 500 = 0.006 does not bound it)."""
    frame = pd.DataFrame({"A": [0.5] * 8, "B": [0.56, 0.57, 0.58, 0.6, 0.61, 0.63, 0.65, 0.7]},
                         index=[f"d{i}" for i in range(8)])
    res = load_results(_write(frame, tmp_path / "dom.csv"))
    many = bayesian_top_two(res, rope=0.01, n_resamples=5000, rng=0)
    few = bayesian_top_two(res, rope=0.01, n_resamples=500, rng=0)
    assert many.p_second == 0.0 and few.p_second == 0.0
    assert "P(A practically better) < 0.001" in many.text()
    assert "P(A practically better) = 0.000" in few.text()


def test_one_tie_at_k6_n5_is_decided_by_the_monte_carlo_permutation_law_not_the_f(tmp_path):
    """The cold reader's case: 6 classifiers, 5 data sets, one tied cell. The exact law given the tie
    is too large to enumerate (720^4 x 360 tables), so with N <= 10 the Monte Carlo permutation p
    decides, its draws and standard error stated; it agrees with an independent Monte Carlo (numpy,
    another seed) and is about four times the Iman–Davenport p, which no longer decides."""
    scores = np.array([[5, 4, 6, 3, 2, 1], [6, 4, 3, 5, 2, 1], [6, 5, 3, 1, 1, 2],
                       [6, 4, 5, 2, 3, 1], [5, 6, 4, 2, 3, 1]]) / 10 + 0.2
    table = pd.DataFrame(scores, columns=list("ABCDEF"), index=pd.Index([f"d{i}" for i in range(1, 6)], name="data set"))
    res = load_results(_write(table, tmp_path / "reader.csv"))
    fs = friedman_test(res, rng=0)
    assert fs.tied and fs.exact_pvalue is None and fs.decided_by == "monte-carlo"
    assert fs.monte_carlo_draws == 100_000
    ref, ref_se = _conditional_permutation_p(stats.rankdata(-scores, axis=1), 200_000, rng=7)
    assert abs(fs.pvalue - ref) < 4 * math.hypot(fs.monte_carlo_se, ref_se)
    assert fs.monte_carlo_se == pytest.approx(math.sqrt(fs.pvalue * (1 - fs.pvalue) / 100_000), rel=1e-12)
    chi2 = stats.friedmanchisquare(*scores.T).statistic
    f = 4 * chi2 / (5 * 5 - chi2)
    assert stats.f.sf(f, 5, 20) < ref / 2  # the F's p is far smaller than the permutation law's
    text = results_summary(res, overview=describe_results(res), friedman=fs,
                           posthoc=posthoc_tests(res, friedman_rejects=fs.reject))
    assert (f"Monte Carlo permutation test of Friedman's statistic given the ties gives {format_p(fs.pvalue)} "
            f"from 100,000 random arrangements") in text
    assert f"Monte Carlo standard error {fs.monte_carlo_se:#.2g}" in text
    assert fs.pvalue == friedman_test(res, rng=0).pvalue  # seeded: every call on one table agrees


def test_the_control_tables_rank_difference_says_its_sign(tmp_path):
    """Demšar's Table 6 against C4.5 (average rank 3.143, the worst): every other classifier ranks better,
    so each difference (its rank minus the control's, by pandas) is negative, as the column's name says."""
    from evallib.report._datasets_text import format_control
    t6 = demsar_table_6()
    res = load_results(t6)
    ranks = t6.rank(axis=1, ascending=False).mean()
    table = format_control(posthoc_tests(res, control="C4.5"))
    column = "rank difference (its rank minus the control's; negative: it ranks better)"
    assert column in table.columns and "rank difference" not in table.columns
    for other in table.index:
        assert table.loc[other, column] == f"{ranks[other] - ranks['C4.5']:+.3f}"
        assert ranks[other] < ranks["C4.5"] and table.loc[other, column].startswith("-")


def test_the_template_does_not_call_holm_or_bonferroni_more_powerful_than_nemenyi():
    """Cold read r12: Nemenyi's first step needs the smaller z (the studentized range over sqrt 2, scipy) than
    Bonferroni's (and Holm's first step is Bonferroni's), so only Shaffer's and Bergmann-Hommel's are more powerful
    than Holm's; the template says so with the two critical values for four classifiers."""
    from scipy import stats

    nb = json.loads((ROOT / "notebooks" / "report_datasets.ipynb").read_text(encoding="utf-8"))
    text = " ".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown").replace("\n", " ")
    assert "which are more powerful for the same family" not in text
    nemenyi = stats.studentized_range.ppf(0.95, 4, np.inf) / math.sqrt(2)
    bonferroni = stats.norm.isf(0.05 / 2 / 6)
    assert nemenyi < bonferroni
    assert f"whose first step needs the smaller z ({nemenyi:.3f} against Bonferroni's {bonferroni:.3f}" in text
