"""`python -m evallib report` chooses the report from the input: a results table (a data-set column
found by name, no label column) runs the many-data-sets report, a file given --item-column or harness
logs run the per-item report, anything else the predictions report. Contradictory options stop with
one sentence and exit status 1, before anything is written."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT, dispatch_report as _dispatch, run_main

from evallib.report import GATE_EXIT_CODES


def _run(*args, cwd):
    return run_main(["report", *args], cwd=cwd)


@pytest.mark.slow  # three interpreter starts, a report and a gate run end to end: `make test` only
def test_the_command_line_in_a_fresh_interpreter(tmp_path):
    """The one test of ``python -m evallib`` as a process (every other case calls ``main(argv)``
    in process; the Ctrl-C test in tests/test_report_findings.py sends the process a signal):
    the exit status reaches the shell -- 1 for a bad file, 2 for a bad option (argparse), the
    gate's verdict code 3 for "worse" with its JSON file written -- with no traceback, and neither
    failure writes anything. ``--help`` (exit 0) runs in process, as every other case does."""
    def run(*args):
        return subprocess.run([sys.executable, "-m", "evallib", *map(str, args)], capture_output=True, text=True,
                              cwd=tmp_path, timeout=120, env=dict(os.environ, MPLBACKEND="Agg"))

    helped = run_main(["--help"], cwd=tmp_path)
    assert helped.returncode == 0 and all(c in helped.stdout for c in ("report", "gate", "critical-values",
                                                                       "textsim-grid"))
    bad = tmp_path / "bad.csv"
    bad.write_text("label,pred_a,pred_b\n0,1,0\n1,,1\n")
    out = tmp_path / "out" / "r.html"
    failed = run("report", bad, "-o", out)
    last = failed.stderr.strip().splitlines()[-1]
    assert failed.returncode == 1 and "Traceback" not in failed.stderr
    assert last.startswith("error: ") and "'pred_a' has 1 missing value" in last and last.endswith("No report was written.")
    usage = run("report", ROOT / "data" / "example_predictions.csv", "--alpha", "1.5", "-o", out)
    assert usage.returncode == 2 and "usage:" in usage.stderr and "Traceback" not in usage.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.csv"]
    target = tmp_path / "verdict.json"
    gate = run("gate", ROOT / "data" / "example_predictions.csv", "--baseline-model", "dlda30",
               "--candidate-model", "coin", "--margin", "0.05", "--json", target)
    assert gate.returncode == GATE_EXIT_CODES["worse"] == 3 and "Traceback" not in gate.stderr
    assert json.loads(target.read_text())["verdict"] == "worse"
    assert gate.stdout.startswith("The candidate 'coin' is worse than the baseline 'dlda30' by more than 0.05")


@pytest.mark.parametrize("args, words", [
    (["--lm-eval", "gpt"], "--lm-eval takes MODEL=FILE, got 'gpt'."),
    (["--item-column", "item"], "--item-column needs the per-item file as the file argument."),
    ([], "give the file to report on"),
])
def test_contradictory_options_stop_with_one_sentence(tmp_path, args, words):
    out = _run(*args, "-o", str(tmp_path / "out" / "r.html"), cwd=tmp_path)
    assert out.returncode == 1 and words in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_a_results_table_goes_to_the_many_data_sets_report(monkeypatch, tmp_path):
    status, seen = _dispatch(monkeypatch, [str(ROOT / "data" / "example_results.csv"), "-o", str(tmp_path / "t.html"),
                                           "--control", "C4.5", "--rope", "0.02", "--lower-is-better"])
    assert status == 0 and seen["report"] == "datasets"
    assert seen["control"] == "C4.5" and seen["rope"] == 0.02 and seen["higher_is_better"] is False


def test_a_per_item_file_and_harness_logs_go_to_the_per_item_report(monkeypatch, tmp_path):
    status, seen = _dispatch(monkeypatch, [str(ROOT / "data" / "example_items.csv"), "--item-column", "item",
                                           "--adjust", "bh", "-o", str(tmp_path / "i.html")])
    assert status == 0 and seen["report"] == "items" and seen["source_format"] == "table"
    assert seen["item_column"] == "item" and seen["adjust"] == "bh"
    status, seen = _dispatch(monkeypatch, [str(ROOT / "data" / "example_items.csv"), "--item-column", "item",
                                           "--adjust", "by", "-o", str(tmp_path / "i.html")])
    assert status == 0 and seen["report"] == "items" and seen["adjust"] == "by"  # the one menu: BY too
    status, seen = _dispatch(monkeypatch, ["--lm-eval", "a=x.jsonl", "--lm-eval", "a=y.jsonl", "--lm-eval", "b=z.jsonl",
                                           "--metric", "acc", "-o", str(tmp_path / "l.html")])
    assert status == 0 and seen["source_format"] == "lm-eval"
    assert seen["source"] == {"a": ["x.jsonl", "y.jsonl"], "b": ["z.jsonl"]} and seen["metric"] == "acc"


def test_a_predictions_file_goes_to_the_predictions_report(monkeypatch, tmp_path):
    status, seen = _dispatch(monkeypatch, [str(ROOT / "data" / "example_predictions.csv"), "--pos-label", "ER-",
                                           "-o", str(tmp_path / "p.html")])
    assert status == 0 and seen["report"] == "predictions" and seen["score_prefix"] == "score_"
    assert seen["pos_label"] == "ER-"


def test_the_old_positive_label_flag_still_works_and_says_so_once(monkeypatch, tmp_path, capsys):
    """--positive-label (0.1.0) is an alias of --pos-label until 0.3.0, with one sentence on stderr."""
    status, seen = _dispatch(monkeypatch, [str(ROOT / "data" / "example_predictions.csv"), "--positive-label", "ER-",
                                           "-o", str(tmp_path / "p.html")])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 0 and seen["report"] == "predictions" and seen["pos_label"] == "ER-"
    assert err == ["note: --positive-label is deprecated and will be removed in evallib 0.3.0; use --pos-label "
                   "instead."]
    from evallib.__main__ import build_parser

    assert "--positive-label" not in build_parser().format_help()
    from evallib.__main__ import main

    with pytest.raises(SystemExit) as done:
        main(["report", "--help"])
    helps = capsys.readouterr().out
    assert done.value.code == 0
    assert "--pos-label" in helps and "--positive-label" not in helps


def test_the_positive_label_flag_does_not_apply_to_a_results_table(monkeypatch, tmp_path, capsys):
    status, _ = _dispatch(monkeypatch, [str(ROOT / "data" / "example_results.csv"), "--pos-label", "x",
                                        "-o", str(tmp_path / "out" / "r.html")])
    assert status == 1 and "--pos-label does not apply to the many-data-sets report" in capsys.readouterr().err


@pytest.mark.parametrize("args, words", [
    ([str(ROOT / "data" / "example_results.csv"), "--interval", "wald"],
     "--interval does not apply to the many-data-sets report, which this input gets (a results table"),
    ([str(ROOT / "data" / "example_results.csv"), "--adjust", "bh", "--fold-column", "f"],
     "--adjust, --fold-column do not apply to the many-data-sets report"),
    ([str(ROOT / "data" / "example_predictions.csv"), "--rope", "0.01", "--bootstrap-reps", "10"],
     "--bootstrap-reps, --rope do not apply to the predictions report, which this input gets (a file with a "
     "label column, not a results table); they are read by the many-data-sets and per-item reports"),
    ([str(ROOT / "data" / "example_items.csv"), "--item-column", "item", "--interval", "wald"],
     "--interval does not apply to the per-item report, which this input gets (a per-item file, given "
     "--item-column); it is read by the predictions report"),
    (["--lm-eval", "a=x.jsonl", "--posthoc", "holm"],
     "--posthoc does not apply to the per-item report, which this input gets (harness logs)"),
])
def test_an_option_the_chosen_report_does_not_read_stops_the_run(monkeypatch, tmp_path, capsys, args, words):
    """Silently ignoring it would let the analyst believe it shaped the report."""
    status, seen = _dispatch(monkeypatch, [*args, "-o", str(tmp_path / "out" / "r.html")])
    err = capsys.readouterr().err
    assert status == 1 and not seen and words in err and err.strip().endswith("No report was written.")
    assert not (tmp_path / "out").exists()


def test_options_every_report_reads_and_its_own_options_pass(monkeypatch, tmp_path):
    common = ["--alpha", "0.1", "--title", "T", "--seed", "3", "--timeout", "60", "-o", str(tmp_path / "r.html")]
    for args, report in [
        ([str(ROOT / "data" / "example_results.csv"), "--posthoc", "holm", "--control", "C4.5"], "datasets"),
        ([str(ROOT / "data" / "example_items.csv"), "--item-column", "item", "--adjust", "bonferroni",
          "--bootstrap-reps", "50"], "items"),
        ([str(ROOT / "data" / "example_predictions.csv"), "--interval", "wald", "--adjust", "none"], "predictions"),
    ]:
        status, seen = _dispatch(monkeypatch, [*args, *common])
        assert status == 0 and seen["report"] == report and seen["alpha"] == 0.1


@pytest.mark.parametrize("args, verdict", [([], "mean-ranks"), (["--verdict", "wilcoxon"], "wilcoxon"),
                                           (["--verdict", "mean-ranks"], "mean-ranks")])
def test_verdict_reaches_the_many_data_sets_report(monkeypatch, tmp_path, args, verdict):
    """--verdict {mean-ranks,wilcoxon} (issue 33): the family of the pairs' verdict, passed to
    run_datasets_report as verdict=; the default is the report's own default."""
    status, seen = _dispatch(monkeypatch, [str(ROOT / "data" / "example_results.csv"), *args,
                                           "-o", str(tmp_path / "t.html")])
    assert status == 0 and seen["report"] == "datasets" and seen["verdict"] == verdict


def test_verdict_is_documented_refused_elsewhere_and_checked(monkeypatch, tmp_path, capsys):
    from evallib.__main__ import build_parser

    helps = " ".join(build_parser()._subparsers._group_actions[0].choices["report"].format_help().split())
    assert "--verdict {mean-ranks,wilcoxon}" in helps and "secondary" in helps
    assert "`--verdict mean-ranks|wilcoxon`" in (ROOT / "docs" / "report" / "datasets.md").read_text(encoding="utf-8")
    status, seen = _dispatch(monkeypatch, [str(ROOT / "data" / "example_predictions.csv"), "--verdict", "wilcoxon",
                                           "-o", str(tmp_path / "out" / "p.html")])
    err = capsys.readouterr().err
    assert status == 1 and not seen and "--verdict does not apply to the predictions report" in err
    bad = _run(str(ROOT / "data" / "example_results.csv"), "--verdict", "either", "-o", str(tmp_path / "x.html"),
               cwd=tmp_path)
    assert bad.returncode == 2 and "invalid choice: 'either'" in bad.stderr


def test_rope_on_a_results_table_whose_data_set_column_was_not_found_names_the_right_fix(monkeypatch, tmp_path,
                                                                                         capsys):
    """D3: a results table whose data-set column has a name the reader does not know ('name') is read as
    a predictions file; the message on --rope must not call it 'a file with a label column' (it has
    none) and must name --dataset-column, the argument that makes it a results table."""
    table = (ROOT / "data" / "example_results.csv").read_text(encoding="utf-8").replace("data set,", "name,", 1)
    path = tmp_path / "results.csv"
    path.write_text(table, encoding="utf-8")
    status, seen = _dispatch(monkeypatch, [str(path), "--rope", "0.01", "-o", str(tmp_path / "out" / "r.html")])
    err = capsys.readouterr().err
    assert status == 1 and not seen
    assert "a file with a label column" not in err
    assert "no label column 'label'" in err and "--dataset-column" in err
    status, seen = _dispatch(monkeypatch, [str(path), "--rope", "0.01", "--dataset-column", "name",
                                           "-o", str(tmp_path / "out" / "r.html")])
    assert status == 0 and seen["report"] == "datasets" and seen["rope"] == 0.01


@pytest.mark.parametrize("rope", ["-0.5", "nan", "inf"])
def test_a_bad_rope_names_the_argument_the_results_table_and_the_range(tmp_path, rope):
    """D3: the --rope message names the argument, the file it is measured in and the allowed range."""
    from evallib.report._datasets_inputs import load_results
    from evallib.report._datasets_sections import check_options
    from evallib.report._inputs import ReportInputError

    res = load_results(ROOT / "data" / "example_results.csv")
    with pytest.raises(ReportInputError) as err:
        check_options(res, rope=float(rope))
    text = str(err.value)
    assert "--rope" in text and "results table" in text and "finite number >= 0" in text
    assert "predictions file" not in text
