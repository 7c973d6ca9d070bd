"""Issue 33, "say only what the data show": a cold reader's faults in the predictions report and the
many-data-sets report, each checked where the report writes the sentence or the table.

1. joint intervals carry their level; 2. the balanced-accuracy p-values name their test; 3. the
version of Wilcoxon's signed-rank test that ran is named; 4. classifiers tied for first or second
place are named as tied, never ordered by the file's columns; 5. an adjusted p-value has one
spelling, *adjusted p*; 6. no Python keyword syntax in the prose; 7. Demšar's Table 6 is printed
with the decimals it is printed with.

References: scipy (``wilcoxon``, ``rankdata``, the t law), statsmodels' ``multipletests``, counts
and means taken with numpy from the files written here, and the text of the shipped
``data/example_results.csv`` for the printed digits. The two end-to-end runs (one per report,
through ``python -m evallib report`` in process) are marked slow.
"""

from __future__ import annotations

import csv
import itertools
import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from conftest import ROOT, run_cli, write_csv
from scipy import stats
from statsmodels.stats.multitest import multipletests

from evallib.onetestset import format_auc_pairwise, format_loss_pairwise
from evallib.report import (
    balanced_accuracy_comparison,
    chance_check,
    classifier_measures,
    fold_analysis,
    format_balanced_pairs,
    format_pairwise,
    load_predictions,
    omnibus_test,
    pairwise_comparison,
    plot_pair_intervals,
    score_comparison,
    summary_text,
    top_two_bootstrap,
)
from evallib.report._datasets_inputs import load_results
from evallib.report._datasets_sections import (
    bayesian_top_two,
    describe_results,
    friedman_test,
    posthoc_tests,
)
from evallib.report._datasets_text import (
    format_control,
    format_overview,
    format_pairs,
    format_scores,
    results_summary,
)
from evallib.report._text import pairwise_method_line
from evallib.studies import demsar_table_6

EXAMPLE_PREDICTIONS = ROOT / "data" / "example_predictions.csv"
EXAMPLE_RESULTS = ROOT / "data" / "example_results.csv"
NOTEBOOKS = ROOT / "notebooks"

#: Spellings of an adjusted p-value other than the one, "adjusted p" (docs/conventions.md: the
#: concept is the adjusted p-value, ``pvalue_adj``).
OTHER_SPELLINGS = re.compile(
    r"\b(?:Holm|Bonferroni|Nemenyi|Shaffer|Hochberg|Finner|Li|Bergmann–Hommel|Bonferroni–Dunn|BH|BY|"
    r"Benjamini–Hochberg|Benjamini–Yekutieli|Wilcoxon|unadjusted)(?:-adjusted)? p\b(?! =)"
    r"|\b[\w-]+-adjusted(?: \([^)]*\))? p\b|(?<!adjusted )\bp \((?:adj|Holm)|\(FDR\) p\b|\bp_adj\b|\bpvalue_adj\b|\badj\. p\b|\bp_holm\b"
    r"|\b(?:Holm|Bonferroni) p = ")
#: Python syntax in prose: a keyword argument or assignment (``adjust = "bh"``, ``rope=``,
#: ``verdict='wilcoxon'``) or a parameter's identifier in code quotes (``(`min_difference`)``).
PYTHON_SYNTAX = re.compile(r"\b[a-z]+(?:_[a-z]+)* ?= ?[\"']|\b[a-z]+(?:_[a-z]+)*=(?:[)\s,;]|$)"
                           r"|`[a-z]+_[a-z_]+`|\(`[a-z]+`[,)]")


def _spellings(text: str) -> list[str]:
    return sorted({m.group(0) for m in OTHER_SPELLINGS.finditer(text)})


def _python_syntax(text: str) -> list[str]:
    return sorted({m.group(0) for m in PYTHON_SYNTAX.finditer(text)})


def _predictions_texts(data, *, alpha: float = 0.05, adjust: str = "holm", n_resamples: int = 300) -> dict:
    """Every sentence and table header the predictions report prints, by section, without papermill."""
    measures = classifier_measures(data, alpha=alpha)
    pairs = pairwise_comparison(data, alpha=alpha, adjust=adjust)
    balanced = balanced_accuracy_comparison(data, alpha=alpha, adjust=adjust)
    scores = score_comparison(data, alpha=alpha, adjust=adjust)
    chance = chance_check(data, measures, alpha=alpha)
    f1 = top_two_bootstrap(data, measures, n_resamples=n_resamples, alpha=alpha, rng=0)
    folds = fold_analysis(data, alpha=alpha)
    omnibus = omnibus_test(data, alpha=alpha)
    out = {"summary": summary_text(data, measures=measures, pairwise=pairs, chance=chance, bootstrap=f1,
                                   folds=folds, scores=scores, omnibus=omnibus, balanced=balanced, alpha=alpha),
           "method line": pairwise_method_line(pairs),
           "pairs": " | ".join(format_pairwise(pairs).columns)}
    if hasattr(balanced, "attrs"):
        out["balanced"] = " | ".join(format_balanced_pairs(balanced).columns)
    if getattr(scores, "auc_pairs", None) is not None:
        out["auc pairs"] = " | ".join(format_auc_pairwise(scores.auc_pairs).columns)
    if getattr(scores, "loss_pairs", None) is not None:
        out["loss pairs"] = " | ".join(format_loss_pairwise(scores.loss_pairs).columns)
    out["chance"] = (chance.headline() + " " + chance.summary() + " | " + " | ".join(chance.formatted().columns)
                     if hasattr(chance, "formatted") else str(chance))
    for name, part in (("bootstrap", f1), ("folds", folds)):
        out[name] = part.text() if hasattr(part, "text") else str(part)
    return out


def _datasets_texts(results, *, control=None, verdict="mean-ranks") -> dict:
    overview, fs = describe_results(results), friedman_test(results)
    ph = posthoc_tests(results, control=control, friedman_rejects=fs.reject, verdict=verdict)
    bayes = bayesian_top_two(results, n_resamples=2000, rng=0)
    out = {"summary": results_summary(results, overview=overview, friedman=fs, posthoc=ph, bayes=bayes),
           "pairs text": ph.text(), "pairs": " | ".join(format_pairs(ph).columns),
           "overview": " | ".join(format_overview(overview).columns), "bayes": str(getattr(bayes, "text", lambda: bayes)())}
    if control is not None:
        out["control"] = " | ".join(format_control(ph).columns)
    return out


# ------------------------------------------------------------------ files where classifiers tie
def tied_predictions() -> pd.DataFrame:
    """60 cases (30 positive), five folds; A wrong on 5 cases, B, C and D each on 8 others (4 of
    each class), so that B, C and D have the same error rate, F1, AUC (in second place; their scores are
    their labels) and mean accuracy over the folds, on different cases."""
    y = np.array([1] * 30 + [0] * 30)
    errors = {"A": [0, 1, 2, 30, 31], "B": [5, 6, 7, 8, 35, 36, 37, 38], "C": [10, 11, 12, 13, 40, 41, 42, 43],
              "D": [15, 16, 17, 18, 45, 46, 47, 48]}
    frame = pd.DataFrame({"label": y, "fold": np.arange(60) % 5})
    for name, wrong in errors.items():
        pred = y.copy()
        pred[wrong] = 1 - pred[wrong]
        frame[f"pred_{name}"] = pred
        frame[f"score_{name}"] = pred.astype(float)
    return frame


def tied_results(first: bool = False) -> pd.DataFrame:
    """Six data sets: B, C and D take the same three scores in turn (equal average ranks and equal
    mean scores); A is above them (``first``: below, so that B, C and D tie for first), E below."""
    turns = [(0.8, 0.7, 0.6), (0.6, 0.8, 0.7), (0.7, 0.6, 0.8)]
    rows = []
    for i in range(6):
        b, c, d = turns[i % 3]
        rows.append({"dataset": f"set {i}", "A": 0.4 if first else 0.9 + 0.01 * i, "B": b, "C": c, "D": d, "E": 0.5})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------ 1. joint intervals carry their level
@pytest.mark.parametrize("alpha, level", [(0.05, "95%"), (0.1, "90%"), (0.01, "99%")])
def test_joint_intervals_are_printed_with_their_level(alpha, level):
    data = load_predictions(EXAMPLE_PREDICTIONS, pos_label="ER-")
    pairs = pairwise_comparison(data, alpha=alpha)
    joint = f"{level} joint interval (Bonferroni)"
    assert joint in format_pairwise(pairs).columns
    assert joint in format_balanced_pairs(balanced_accuracy_comparison(data, alpha=alpha)).columns
    assert joint in format_auc_pairwise(score_comparison(data, alpha=alpha).auc_pairs).columns
    ax = plot_pair_intervals(pairs)
    assert joint in ax.get_legend_handles_labels()[1]
    plt.close(ax.figure)
    # the level is the family's: Bonferroni's alpha / m per pair, so every pair's joint interval is wider
    m = len(pairs)
    z_single, z_joint = stats.norm.isf(alpha / 2), stats.norm.isf(alpha / (2 * m))
    assert z_joint > z_single and (pairs["adj_high"] - pairs["adj_low"] >= pairs["diff_high"] - pairs["diff_low"]).all()


# ------------------------------------------------------------------ 2. the balanced-accuracy test is named
def skewed_predictions(seed: int = 4, n: int = 300) -> pd.DataFrame:
    """One positive in ten; three classifiers that find the rare class with graded success."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(int)
    frame = pd.DataFrame({"label": y})
    for name, (miss, false_alarm) in {"sharp": (0.2, 0.05), "middling": (0.45, 0.04), "blunt": (0.8, 0.01)}.items():
        wrong = np.where(y == 1, rng.random(n) < miss, rng.random(n) < false_alarm)
        frame[f"pred_{name}"] = np.where(wrong, 1 - y, y)
    return frame


def _stratified_p(correct_a: np.ndarray, correct_b: np.ndarray, y: np.ndarray) -> float:
    """The stratified paired t-test of the balanced-accuracy difference, written out: class means of
    the per-case differences, variance sum_k s_k^2 / (n_k K^2), Welch–Satterthwaite df."""
    d = correct_a.astype(float) - correct_b.astype(float)
    parts, dfs, means = [], [], []
    for c in (0, 1):
        v = d[y == c]
        means.append(v.mean())
        parts.append(v.var(ddof=1) / v.size / 4)
        dfs.append(v.size - 1)
    var = sum(parts)
    df = var ** 2 / sum(p ** 2 / f for p, f in zip(parts, dfs))
    return float(2 * stats.t.sf(abs(np.mean(means)) / np.sqrt(var), df))


def test_the_balanced_accuracy_p_values_name_their_test():
    frame = skewed_predictions()
    data = load_predictions(frame)
    y = frame["label"].to_numpy()
    balanced = balanced_accuracy_comparison(data)
    table = format_balanced_pairs(balanced)
    assert "adjusted p (Holm; stratified paired t-test)" in table.columns
    raw = [_stratified_p(frame[f"pred_{a}"].to_numpy() == y, frame[f"pred_{b}"].to_numpy() == y, y)
           for a, b in zip(balanced["a"], balanced["b"])]
    holm = multipletests(raw, method="holm")[1]
    assert list(table["adjusted p (Holm; stratified paired t-test)"]) == [f"{p:#.2g}" for p in holm]
    # the summary's balanced-accuracy sentence names the same test beside its adjusted p
    text = _predictions_texts(data)["summary"]
    ba = {n: np.mean([np.mean(frame[f"pred_{n}"].to_numpy()[y == c] == c) for c in (0, 1)])
          for n in ("sharp", "middling", "blunt")}
    a, b = sorted(ba, key=ba.get, reverse=True)[:2]
    row = next(i for i, (x, z) in enumerate(zip(balanced["a"], balanced["b"])) if {x, z} == {a, b})
    assert f"stratified paired t-test, adjusted p = {holm[row]:#.2g} (Holm)" in text


# ------------------------------------------------------------------ 3. the Wilcoxon variant is named
def test_the_zero_count_is_over_the_pairs_it_counts():
    """k = 5 (10 pairs), D a copy of C: the pair C, D has no non-zero difference and is not ranked, so
    the count of dropped zeros is over the 9 other pairs, and the sentence says so (not "the 10 pairs")."""
    t = pd.DataFrame({"A": [0.9, 0.8, 0.7, 0.85, 0.6, 0.75], "B": [0.9, 0.7, 0.7, 0.8, 0.65, 0.7],
                      "C": [0.6, 0.75, 0.72, 0.7, 0.55, 0.8], "E": [0.5, 0.6, 0.65, 0.6, 0.6, 0.7]},
                     index=pd.Index([f"d{i}" for i in range(6)], name="data set"))
    t.insert(3, "D", t["C"])
    diffs = {(a, b): (t[a] - t[b]).to_numpy() for a, b in itertools.combinations(t.columns, 2)}
    ranked = {p: d for p, d in diffs.items() if np.any(d != 0)}
    zeros = sum(int(np.sum(d == 0)) for d in ranked.values())
    assert len(diffs) == 10 and len(ranked) == 9 and zeros == 4
    text = posthoc_tests(load_results(t)).text()
    assert (f"zero differences dropped before ranking, {zeros} over the {len(ranked)} pairs with a non-zero "
            "difference;") in text
    assert "p = 1 for 1 pair that never differs (no non-zero difference to rank)" in text


def test_the_wilcoxon_test_that_ran_is_named_and_is_what_ran(tmp_path):
    """Demšar's Table 6 (14 data sets, zero differences on mushroom and others): the exact law, zeros
    dropped; scipy's exact test agrees on a pair without zeros or ties. A table of 210 data sets runs the
    normal approximation without continuity correction, as scipy's ``method="approx"`` does."""
    res = load_results(demsar_table_6())
    ph = posthoc_tests(res)
    t6 = demsar_table_6()
    zeros = sum(int(np.sum(np.isclose(t6[a], t6[b], rtol=0, atol=1e-9))) for a, b in zip(ph.pairs["a"], ph.pairs["b"]))
    text = ph.text()
    assert ("Wilcoxon signed-rank test per pair (two-sided; exact null law of the signed ranks; zero differences "
            f"dropped before ranking, {zeros} over the 6 pairs; tied absolute differences at their average rank"
            in text)
    assert "exact null law of the signed ranks" in results_summary(res, overview=describe_results(res),
                                                                   friedman=friedman_test(res), posthoc=ph)
    rng = np.random.default_rng(8)
    big = pd.DataFrame({"dataset": [f"d{i}" for i in range(210)], "x": rng.uniform(0.6, 0.9, 210).round(6)})
    big["y"] = (big["x"] + rng.normal(0.004, 0.02, 210)).round(6)
    big["z"] = (big["x"] + rng.normal(0.0, 0.02, 210)).round(6)
    res = load_results(write_csv(big, tmp_path / "big.csv"))
    ph = posthoc_tests(res)
    assert "normal approximation of the rank sum without continuity correction" in ph.text()
    assert "exact null law" not in ph.text() and "no zero differences" in ph.text()
    for r in ph.pairs.itertuples():
        ref = stats.wilcoxon(big[r.a] - big[r.b], method="approx", correction=False, zero_method="wilcox")
        assert r.wilcoxon_p == pytest.approx(ref.pvalue, rel=1e-9)


def test_the_exact_wilcoxon_p_value_is_scipys_exact_one():
    """Six data sets without zero or tied differences: the exact law is scipy's exact test."""
    frame = pd.DataFrame({"dataset": list("abcdef"), "x": [0.81, 0.74, 0.93, 0.66, 0.88, 0.71],
                          "y": [0.79, 0.70, 0.90, 0.67, 0.83, 0.64]})
    ph = posthoc_tests(load_results(frame))
    assert ph.pairs["wilcoxon_method"].tolist() == ["exact"]
    assert ph.pairs["wilcoxon_p"].iloc[0] == pytest.approx(stats.wilcoxon(frame["x"] - frame["y"],
                                                                          method="exact").pvalue, rel=1e-12)
    assert "no zero differences" in ph.text() and "tied absolute" not in ph.text()


# ------------------------------------------------------------------ 4. ties are said, never ordered silently
def test_three_classifiers_tied_for_second_are_named_in_the_predictions_summary():
    frame = tied_predictions()
    y = frame["label"].to_numpy()
    wrong = {n: int(np.sum(frame[f"pred_{n}"].to_numpy() != y)) for n in "ABCD"}
    assert wrong == {"A": 5, "B": 8, "C": 8, "D": 8}  # the file: B, C and D tie for second
    texts = _predictions_texts(load_predictions(frame, pos_label=1))
    summary = texts["summary"]
    rate = f"{100 * wrong['B'] / len(y):.1f}%"
    assert (f"B, C and D have the same error rate ({rate}), in second place, so the comparison is of A with B, the first "
            "of them in the file's column order") in summary
    auc = {n: float(np.mean([(s > t) + 0.5 * (s == t) for s in frame.loc[y == 1, f"score_{n}"]
                             for t in frame.loc[y == 0, f"score_{n}"]])) for n in "ABCD"}
    assert auc["B"] == auc["C"] == auc["D"] < auc["A"]
    assert f"B, C and D have the same AUC ({auc['B']:.3f}), in second place" in summary
    assert "B, C and D have the same F1" in summary and "B, C and D have the same F1" in texts["bootstrap"]
    assert "B, C and D have the same mean accuracy over the folds" in summary
    assert "The two classifiers with the fewest errors" not in summary and "the leaders are A" not in summary


def test_a_tie_for_first_is_named_in_the_chance_check():
    """The shipped example: dlda30 and dlda10 reach the same best-threshold accuracy (an ROC read
    with numpy); the check names both, not the first column alone."""
    frame = pd.read_csv(EXAMPLE_PREDICTIONS)
    y = (frame["label"] == "ER-").to_numpy()

    def best_accuracy(s):
        return max(np.mean((s >= t) == y) for t in np.append(np.unique(s), np.inf))

    best = {n: best_accuracy(frame[f"score_{n}"].to_numpy()) for n in ("dlda30", "dlda10", "dlda30_swapped")}
    assert best["dlda30"] == best["dlda10"] > best["dlda30_swapped"]
    data = load_predictions(EXAMPLE_PREDICTIONS, pos_label="ER-")
    chance = chance_check(data, classifier_measures(data))
    assert chance.formatted().loc["best accuracy", "winner"] == "dlda30 (equal to dlda10)"
    assert "the best accuracy, dlda30's, equal to dlda10's at the best threshold of their scores" in chance.headline()


@pytest.mark.parametrize("first", [False, True])
def test_three_classifiers_tied_on_rank_are_named_in_the_datasets_summary(first):
    frame = tied_results(first=first)
    ranks = pd.DataFrame(stats.rankdata(-frame[list("ABCDE")].to_numpy(), axis=1), columns=list("ABCDE")).mean()
    means = frame[list("ABCDE")].mean()
    assert ranks["B"] == ranks["C"] == ranks["D"] and means["B"] == pytest.approx(means["D"], abs=1e-12)
    texts = _datasets_texts(load_results(frame))
    summary = texts["summary"]
    place = "first" if first else "second"
    compared = "of B and C, the first two of them" if first else "of A with B, the first of them"
    assert (f"B, C and D have the same average rank ({ranks['B']:.3f}), in {place} place, so the comparison is {compared} "
            "in the file's column order (their mean scores are equal too)") in summary
    assert "B, C and D have the same average rank" in texts["bayes"]
    if first:
        assert f"**B**, **C** and **D** share the best average rank, {ranks['B']:.3f}" in summary
    else:
        assert f"; then B, C and D share the average rank {ranks['B']:.3f}; then E {ranks['E']:.3f}" in summary


def test_a_tie_on_rank_broken_by_the_mean_score_says_so():
    frame = tied_results()
    frame["C"] = frame["C"] + 0.001 * (frame.index % 3 == 0)  # C's mean score the highest of the three, ranks unchanged
    res = load_results(frame)
    ranks = pd.DataFrame(stats.rankdata(-frame[list("ABCDE")].to_numpy(), axis=1), columns=list("ABCDE")).mean()
    assert ranks["B"] == ranks["C"] == ranks["D"]
    bayes = bayesian_top_two(res, n_resamples=500, rng=0)
    assert bayes.second == "C"
    # the tied are listed in the order that broke the tie, and the sentence says what broke it
    assert bayes.tie == ("C, B and D have the same average rank (3.000), in second place, so the comparison is of A with C, "
                         "the first of them by the higher mean score")


# ------------------------------------------------------------------ 5. one spelling of an adjusted p-value
@pytest.mark.parametrize("adjust", ["holm", "bonferroni", "bh", "by", "none"])
def test_the_predictions_report_spells_adjusted_p_one_way(adjust):
    for frame, pos in ((pd.read_csv(EXAMPLE_PREDICTIONS), "ER-"), (tied_predictions(), 1)):
        texts = _predictions_texts(load_predictions(frame, pos_label=pos), adjust=adjust)
        for name, text in texts.items():
            assert _spellings(text) == [], (name, _spellings(text))
        if adjust != "none":
            assert "adjusted p (" in texts["pairs"] and "adjusted p = " in texts["summary"]


@pytest.mark.parametrize("control, verdict", [(None, "mean-ranks"), ("C4.5", "wilcoxon")])
def test_the_datasets_report_spells_adjusted_p_one_way(control, verdict):
    texts = _datasets_texts(load_results(EXAMPLE_RESULTS), control=control, verdict=verdict)
    for name, text in texts.items():
        assert _spellings(text) == [], (name, _spellings(text))
    assert "adjusted p (Nemenyi; mean-rank z test)" in texts["pairs"]
    assert "adjusted p (Holm; Wilcoxon signed-rank test)" in texts["pairs"]
    assert "adjusted p = " in texts["summary"]


def test_the_spelling_check_catches_the_old_spellings():
    for wrong in ("Holm p (mid-p test)", "Nemenyi p", "Wilcoxon p (Holm)", "Holm-adjusted p", "BH (FDR) p",
                  "(Holm p = 0.044", "p (adj.)", "p_adj", "BH-adjusted (FDR) p",
                  "Benjamini–Hochberg-adjusted (false discovery rate) p = 0.03"):
        assert _spellings(wrong), wrong
    assert _spellings("adjusted p (Holm; McNemar's mid-p test) | adjusted p = 0.044 (Holm) | Holm-adjusted.") == []


# ------------------------------------------------------------------ 6. no Python syntax in the prose
def _shown_markdown(path: Path) -> str:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"]
                     if c["cell_type"] == "markdown" and "report-hide" not in c["metadata"].get("tags", []))


@pytest.mark.parametrize("name", ["report.ipynb", "report_datasets.ipynb"])
def test_the_templates_prose_names_command_line_options_not_python(name):
    text = _shown_markdown(NOTEBOOKS / name)
    assert _python_syntax(text) == []
    assert "`--adjust" in text or "`--verdict" in text


def test_the_reports_computed_text_has_no_python_syntax(tmp_path):
    texts = _predictions_texts(load_predictions(EXAMPLE_PREDICTIONS, pos_label="ER-"), adjust="bh")
    texts.update(_datasets_texts(load_results(EXAMPLE_RESULTS), control="C4.5"))
    percent = load_results(write_csv((100 * demsar_table_6()).reset_index(), tmp_path / "pct.csv"))
    texts["skipped"] = str(bayesian_top_two(percent))
    texts["given rope"] = bayesian_top_two(load_results(EXAMPLE_RESULTS), rope=0.02, n_resamples=200).text()
    for key, text in texts.items():
        assert _python_syntax(text) == [], (key, _python_syntax(text))
    assert "option --verdict mean-ranks" in texts["pairs text"] and "--rope" in texts["skipped"]


def test_the_syntax_check_catches_python():
    for wrong in ('`adjust = "bh"`', "(--rope, rope=)", "(verdict='mean-ranks')", "(`min_difference`)",
                  "(`rope`, `--rope`)", "set `classifiers_tried`"):
        assert _python_syntax(wrong), wrong
    assert _python_syntax("`--adjust bh`, `score_<name>_<class>`, n_test/n_train = 0.25, p = 0.03") == []


# ------------------------------------------------------------------ 7. Table 6 as printed
def test_demsars_table_6_is_printed_with_its_printed_decimals():
    """Each score of the scores table is the shipped file's text (Table 6 as printed, three decimals:
    ``1.000``, ``0.590``), and every mean, median and mean advantage has four decimals."""
    with EXAMPLE_RESULTS.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    res = load_results(EXAMPLE_RESULTS)
    overview = describe_results(res)
    shown = format_scores(res, overview)
    for row in body:
        for name, printed in zip(header[1:], row[1:]):
            assert shown.loc[row[0], name].split(" (")[0] == printed, (row[0], name)
    assert shown.loc["mushroom", "C4.5"] == "1.000 (2.5)" and shown.loc["breast cancer", "C4.5+cf"] == "0.590 (3)"
    table = format_overview(overview)
    values = pd.DataFrame([[float(v) for v in r[1:]] for r in body], columns=header[1:])
    for name in header[1:]:
        assert table.loc[name, "mean score"] == f"{values[name].mean():.4f}"
        assert table.loc[name, "median score"] == f"{values[name].median():.4f}"
    advantages = format_pairs(posthoc_tests(res))["mean advantage"]
    assert all(re.fullmatch(r"-?\d\.\d{4}", v) for v in advantages)
    # a table written with two decimals is printed with two, its derived numbers with three
    two = load_results(demsar_table_6().round(2))
    assert format_scores(two, describe_results(two)).loc["breast cancer", "C4.5+cf"].startswith("0.59 (")
    assert format_scores(two, describe_results(two)).loc["mushroom", "C4.5"] == "1.00 (2.5)"
    assert re.fullmatch(r"\d\.\d{3}", format_overview(describe_results(two)).iloc[0]["mean score"])


# ------------------------------------------------------------------ end to end: the rendered pages
def _page_text(html: str) -> str:
    import html as html_lib

    body = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.DOTALL)
    body = re.sub(r"<img[^>]*>", " ", body)
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", body)))


@pytest.mark.slow
def test_the_rendered_predictions_report_on_a_three_way_tie(tmp_path):
    html, _ = run_cli(tmp_path, write_csv(tied_predictions(), tmp_path / "tie.csv"), "--pos-label", "1",
                      "--alpha", "0.1")
    text = _page_text(html)
    assert "B, C and D have the same error rate" in text  # 4
    assert "90% joint interval (Bonferroni)" in text  # 1
    assert "adjusted p (Holm; McNemar's mid-p test)" in text  # 2, 5
    assert _spellings(text) == [] and _python_syntax(text) == []  # 5, 6


@pytest.mark.slow
def test_the_rendered_datasets_report_on_a_three_way_tie(tmp_path):
    from conftest import run_main

    table = write_csv(tied_results(), tmp_path / "tie.csv")
    out = tmp_path / "report" / "tie.html"
    done = run_main(["report", str(table), "-o", str(out), "--verdict", "wilcoxon", "-q"])
    assert done.returncode == 0, done.stderr
    text = _page_text(out.read_text(encoding="utf-8"))
    assert "B, C and D have the same average rank" in text and "; then B, C and D share the average rank" in text  # 4
    assert "verdict (Wilcoxon signed-rank tests with Holm's adjustment)" in text and "the family set by the report's option --verdict wilcoxon before it ran" in text  # 8
    assert "exact null law of the signed ranks" in text  # 3
    assert _spellings(text) == [] and _python_syntax(text) == []  # 5, 6


@pytest.mark.parametrize("lower_mean", ["B", "C"])
def test_a_tie_on_rank_of_error_rates_is_broken_by_the_lower_mean_and_says_so(lower_mean):
    """Lower is better (error rates): of two classifiers with the same average rank, the one with the
    lower mean error is picked, and the clause says "the better (lower) mean score", not "the higher"."""
    frame = pd.DataFrame({"dataset": ["d1", "d2", "d3", "d4"], "A": [0.05] * 4,
                          "B": [0.10, 0.30, 0.10, 0.30], "C": [0.20, 0.12, 0.20, 0.12]})
    if lower_mean == "B":  # the other way round: B's mean error the lower, C's the higher
        frame["B"], frame["C"] = [0.10, 0.20, 0.10, 0.20], [0.30, 0.12, 0.30, 0.12]
    errors = frame[["A", "B", "C"]]
    ranks = pd.DataFrame(stats.rankdata(errors.to_numpy(), axis=1), columns=list("ABC")).mean()
    assert ranks["B"] == ranks["C"] == 2.5 and ranks["A"] == 1.0
    assert errors[["B", "C"]].mean().idxmin() == lower_mean  # pandas on the raw file: the lower mean error
    other = "C" if lower_mean == "B" else "B"
    bayes = bayesian_top_two(load_results(frame, higher_is_better=False), n_resamples=500, rng=0)
    assert (bayes.best, bayes.second) == ("A", lower_mean)
    assert bayes.tie == (f"{lower_mean} and {other} have the same average rank (2.500), in second place, so the "
                         f"comparison is of A with {lower_mean}, the first of them by the better (lower) mean score")
