"""Input of the report: file formats as real files come, and the bad inputs of issue 14, section 5.

Reference: the same table written by pandas as a plain UTF-8 CSV and read back with
explicit settings; every format must give the same checked predictions.
"""

from __future__ import annotations

from conftest import run_main

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evallib.report import ReportInputError, load_predictions

ROOT = Path(__file__).resolve().parents[1]


def frame(n: int = 40, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.4, "spam", "ham")
    out = pd.DataFrame({"label": y, "fold": np.tile([1, 2], n // 2)})
    for name, noise in (("a", 0.2), ("b", 0.3)):
        out[f"pred_{name}"] = np.where(rng.random(n) < noise, np.where(y == "spam", "ham", "spam"), y)
        out[f"score_{name}"] = np.round(rng.normal(size=n) + (y == "spam"), 3)
    return out


def same(data, reference) -> None:
    assert data.classifiers == reference.classifiers
    np.testing.assert_array_equal(data.y, reference.y)
    for name in reference.labels:
        np.testing.assert_array_equal(data.labels[name], reference.labels[name])
    for name in reference.scores:
        np.testing.assert_allclose(data.scores[name], reference.scores[name], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(data.folds, reference.folds)


@pytest.fixture
def reference(tmp_path):
    f = frame()
    path = tmp_path / "plain.csv"
    f.to_csv(path, index=False)
    data = load_predictions(path, pos_label="spam")
    assert data.read_note == ""
    return f, data


def test_semicolon_decimal_comma_windows_1252(tmp_path, reference):
    f, ref = reference
    umlaut = {"spam": "späm", "ham": "ham"}
    g = f.assign(label=f["label"].map(umlaut), pred_a=f["pred_a"].map(umlaut), pred_b=f["pred_b"].map(umlaut))
    path = tmp_path / "excel_export.csv"
    path.write_bytes(g.to_csv(index=False, sep=";", decimal=",").encode("cp1252"))
    data = load_predictions(path, pos_label="späm")
    same(data, ref)
    assert "semicolons" in data.read_note and "decimal comma" in data.read_note
    assert "Windows-1252" in data.read_note


def test_bom_and_tsv(tmp_path, reference):
    f, ref = reference
    bom = tmp_path / "bom.csv"
    bom.write_bytes(f.to_csv(index=False).encode("utf-8-sig"))
    data = load_predictions(bom, pos_label="spam")  # without BOM handling: no 'label' column
    same(data, ref)
    assert "byte-order mark" in data.read_note
    for name in ("t.tsv", "t.txt"):
        path = tmp_path / name
        f.to_csv(path, index=False, sep="\t")
        data = load_predictions(path, pos_label="spam")
        same(data, ref)
        assert "tabs" in data.read_note


def test_excel_with_sheet(tmp_path, reference):
    f, ref = reference
    path = tmp_path / "book.xlsx"
    with pd.ExcelWriter(path) as xl:
        pd.DataFrame({"notes": ["nothing here"]}).to_excel(xl, sheet_name="readme", index=False)
        f.to_excel(xl, sheet_name="predictions", index=False)
    data = load_predictions(path, pos_label="spam", sheet="predictions")
    same(data, ref)
    assert "sheet 'predictions'" in data.read_note and "2 sheets" in data.read_note
    with pytest.raises(ReportInputError, match="no sheet 'other'.*'readme' and 'predictions'"):
        load_predictions(path, pos_label="spam", sheet="other")
    with pytest.raises(ReportInputError, match="applies to Excel workbooks only"):
        load_predictions(ROOT / "data" / "example_predictions.csv", pos_label="ER-", sheet="x")


def test_parquet(tmp_path, reference):
    f, ref = reference
    path = tmp_path / "p.parquet"
    f.to_parquet(path)
    data = load_predictions(path, pos_label="spam")
    same(data, ref)
    assert data.read_note == "Read a Parquet file."


def test_positive_class_is_never_chosen_by_counting():
    f = frame()
    with pytest.raises(ReportInputError) as info:
        load_predictions(f)
    msg = str(info.value)
    assert "--pos-label" in msg and "'ham' and 'spam'" in msg and "\n" not in msg
    data = load_predictions(f.assign(label=(f["label"] == "spam").astype(int),
                                     pred_a=(f["pred_a"] == "spam").astype(int),
                                     pred_b=(f["pred_b"] == "spam").astype(int)))
    assert data.positive == "1" and "0 and 1" in data.positive_from
    named = load_predictions(f, pos_label="spam")  # the note names the flag the CLI documents
    assert named.positive == "spam" and named.positive_from == "named with --pos-label"


def test_a_file_of_one_classifier_is_read_when_the_caller_asks_for_one(tmp_path):
    """min_models: the report asks for two classifiers (the default), the release gate for one (a
    baseline's or candidate's own file); the one classifier read is the file's columns as written."""
    f = frame()
    path = tmp_path / "one.csv"
    f[["label", "fold", "pred_a", "score_a"]].to_csv(path, index=False)
    with pytest.raises(ReportInputError) as info:
        load_predictions(path, pos_label="spam")
    msg = str(info.value)
    assert msg == ("Only one classifier ('a') was found; the report compares at least two classifiers, each given "
                   "as a pred_<name> or score_<name> column.")
    one = load_predictions(path, pos_label="spam", min_models=1)
    assert one.classifiers == ("a",) and one.n == 40
    np.testing.assert_array_equal(one.labels["a"], f["pred_a"].to_numpy() == "spam")
    np.testing.assert_array_equal(one.scores["a"], f["score_a"].to_numpy())
    np.testing.assert_array_equal(one.y, f["label"].to_numpy() == "spam")
    with pytest.raises(ReportInputError) as info:
        load_predictions(f, pos_label="spam", min_models=3)
    assert str(info.value) == ("Only 2 classifiers ('a' and 'b') were found; at least 3 classifiers are needed here "
                               "(min_models=3), each given as a pred_<name> or score_<name> column.")
    with pytest.raises(ReportInputError, match="No classifier columns were found"):
        load_predictions(f[["label", "fold"]], pos_label="spam", min_models=1)
    for bad, error in ((0, ValueError), (1.5, ValueError), (True, TypeError), ("1", TypeError)):
        with pytest.raises(error, match="min_models must be a whole number >= 1"):
            load_predictions(f, pos_label="spam", min_models=bad)


# (content of a CSV, options, fragment of the one sentence)
BAD = {
    "duplicate column": ("label,pred_a,pred_a\nx,x,y\ny,y,y\n", {"pos_label": "x"},
                         "column name 'pred_a' occurs twice"),
    "duplicate after spaces": ("label,pred_a, pred_a\nx,x,y\ny,y,y\n", {"pos_label": "x"},
                               "column name 'pred_a' occurs twice"),
    "fold is label": ("label,pred_a,pred_b\nx,x,y\ny,y,y\n",
                      {"pos_label": "x", "fold_column": "label"}, "fold column 'label' is also the label column"),
    "case labels": ("label,pred_a,pred_b\nSpam,Spam,ham\nspam,ham,ham\nham,ham,ham\n", {"pos_label": "spam"},
                    "'Spam' and 'spam', which differ only in letter case"),
    "space labels": ("label,pred_a,pred_b\nspam,spam,ham\n\"spam \",ham,ham\nham,ham,ham\n",
                     {"pos_label": "spam"}, "differ only in letter case or surrounding space"),
    "case prediction": ("label,pred_a,pred_b\nspam,SPAM,ham\nham,ham,ham\n", {"pos_label": "spam"},
                        "differs from 'spam' only in letter case"),
    "no positive": ("label,pred_a,pred_b\nlow,low,high\nhigh,high,high\n", {}, "--pos-label (pos_label=)"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_inputs_one_sentence(tmp_path, case):
    content, options, fragment = BAD[case]
    path = tmp_path / "bad.csv"
    path.write_text(content)
    with pytest.raises(ReportInputError) as info:
        load_predictions(path, **options)
    msg = str(info.value)
    assert fragment in msg and "\n" not in msg and msg.endswith((".", ")."))


@pytest.mark.parametrize("case", ["duplicate column", "fold is label", "case labels", "no positive"])
def test_cli_bad_inputs_exit_1_and_leave_nothing(tmp_path, case):
    content, options, fragment = BAD[case]
    path = tmp_path / "bad.csv"
    path.write_text(content)
    args = []
    for key, value in options.items():
        args += ["--" + key.replace("_", "-"), value]
    out = tmp_path / "out" / "r.html"
    proc = run_main(["report", str(path), "-o", str(out), *args], cwd=ROOT)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2 and fragment in lines[-1]  # the step line, then the sentence
    assert not out.parent.exists() or list(out.parent.iterdir()) == []


def test_the_old_positive_label_keyword_still_works():
    """0.1.0's positive_label= of load_predictions and run_report is pos_label= (scikit-learn's name)."""
    import inspect

    from evallib import run_report

    expected = load_predictions(frame(), pos_label="spam")
    with pytest.warns(DeprecationWarning, match=r"load_predictions\(positive_label=...\) is deprecated .*pos_label="):
        got = load_predictions(frame(), positive_label="spam")
    assert (got.positive, got.negative, got.positive_from) == (expected.positive, expected.negative,
                                                               expected.positive_from)
    assert (got.positive, got.negative) == ("spam", "ham")
    assert "pos_label" in inspect.signature(run_report).parameters
    assert run_report.__deprecated_keywords__ == {"positive_label": "pos_label"}
