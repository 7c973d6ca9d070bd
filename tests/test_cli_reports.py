"""`python -m evallib report` chooses the report from the input: a results table (a data-set column
found by name, no label column) runs the many-data-sets report, a file given --item-column or harness
logs run the per-item report, anything else the predictions report. Contradictory options stop with
one sentence and exit status 1, before anything is written."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT


def _run(*args, cwd):
    return subprocess.run([sys.executable, "-m", "evallib", "report", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.parametrize("args, words", [
    (["--lm-eval", "gpt"], "--lm-eval takes MODEL=FILE, got 'gpt'."),
    (["--item-column", "item"], "--item-column needs the per-item file as the file argument."),
    ([str(ROOT / "data" / "example_predictions.csv"), "--positive-label", "ER-", "--adjust", "bh"],
     "the predictions report adjusts with holm, bonferroni or none, got 'bh'."),
    ([], "give the file to report on"),
])
def test_contradictory_options_stop_with_one_sentence(tmp_path, args, words):
    out = _run(*args, "-o", str(tmp_path / "out" / "r.html"), cwd=tmp_path)
    assert out.returncode == 1 and words in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_results_table_runs_the_many_data_sets_report(tmp_path):
    out = _run(str(ROOT / "data" / "example_results.csv"), "-o", str(tmp_path / "t6.html"), "--control", "C4.5",
               "-q", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    import pandas as pd
    from scipy import stats

    page = (tmp_path / "t6.html").read_text(encoding="utf-8")
    table = pd.read_csv(ROOT / "data" / "example_results.csv", index_col=0)
    chi2 = stats.friedmanchisquare(*(table[c] for c in table.columns)).statistic   # tie-corrected, as printed AUCs tie
    assert f"Friedman's chi-square = {chi2:.2f}" in page and "Iman" in page
    assert (tmp_path / "t6.ipynb").exists()


@pytest.mark.slow
def test_a_per_item_file_runs_the_per_item_report(tmp_path):
    out = _run(str(ROOT / "data" / "example_items.csv"), "--item-column", "item", "-o", str(tmp_path / "i.html"),
               "--adjust", "bh", "-q", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    page = (tmp_path / "i.html").read_text(encoding="utf-8")
    assert "tie group" in page.lower() and "cluster" in page.lower()
