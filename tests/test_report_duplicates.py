"""Duplicated cases are refused (issue 24, item 2): a verdict must not change with how many
times a case was written down.

The file is one 10-fold cross-validation of three scikit-learn models on the breast-cancer
data (569 cases), with a ``case_id`` column. Writing every row twice (a merge mistake)
makes statsmodels' Cochran's Q on the rows drop by orders of magnitude; the report refuses
such a file in one sentence that names how many ids recur and the first of them (found
here with pandas), and writes nothing.
"""

from __future__ import annotations

from conftest import run_main

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evallib.report import ReportInputError, load_predictions, omnibus_test

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("logreg", "knn", "svm")


@pytest.fixture(scope="module")
def cv10() -> pd.DataFrame:
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    X, target = load_breast_cancer(return_X_y=True)
    y = np.array(["malignant", "benign"])[target]
    cv = StratifiedKFold(10, shuffle=True, random_state=0)
    frame = pd.DataFrame({"case_id": [f"c{i:03d}" for i in range(len(y))], "label": y})
    models = {"logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
              "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(5)),
              "svm": make_pipeline(StandardScaler(), SVC())}
    for name, model in models.items():
        frame[f"pred_{name}"] = cross_val_predict(model, X, y, cv=cv)
    frame["score_logreg"] = cross_val_predict(models["logreg"], X, y, cv=cv, method="predict_proba")[:, 1]
    return frame


def _one_sentence(message: str) -> None:
    assert "\n" not in message and message.endswith(".")


def test_recurring_case_ids_are_refused_naming_the_count_and_the_first(cv10):
    extra = cv10.sample(12, random_state=3)
    doubled = pd.concat([cv10, extra], ignore_index=True)
    with pytest.raises(ReportInputError) as info:
        load_predictions(doubled, pos_label="malignant")
    message = str(info.value)
    _one_sentence(message)
    ids = doubled["case_id"]
    recurring = ids[ids.duplicated(keep=False)].unique()
    second = int(np.flatnonzero(ids.duplicated(keep="first").to_numpy())[0])
    first = int(np.flatnonzero((ids == ids.iloc[second]).to_numpy())[0])
    n = len(recurring)
    assert f"holds {n:,} id{'' if n == 1 else 's'} that occur{'s' if n == 1 else ''} more than once" in message
    assert f"the first {ids.iloc[second]!r} in data rows {first + 1} and {second + 1}" in message
    assert "--repeat-column" in message


def test_every_row_written_twice_is_refused(cv10):
    """Concatenated, interleaved or shuffled: a table written twice is not twice the evidence."""
    from statsmodels.stats.contingency_tables import cochrans_q

    plain = cv10.drop(columns="case_id")
    single = omnibus_test(load_predictions(plain, pos_label="malignant"))
    correct = np.column_stack([plain[f"pred_{n}"] == plain["label"] for n in NAMES]).astype(int)
    twice = cochrans_q(np.vstack([correct, correct]))
    assert single.pvalue == pytest.approx(cochrans_q(correct).pvalue)
    assert twice.pvalue < single.pvalue / 3  # what rows-as-cases would conclude from the copy
    copies = {
        "concatenated": pd.concat([plain, plain], ignore_index=True),
        "interleaved": plain.loc[np.repeat(plain.index, 2)].reset_index(drop=True),
        "shuffled": pd.concat([plain, plain], ignore_index=True).sample(frac=1, random_state=0)
                      .reset_index(drop=True),
    }
    for how, frame in copies.items():
        with pytest.raises(ReportInputError, match="occurs an even number of times") as info:
            load_predictions(frame, pos_label="malignant")
        _one_sentence(str(info.value))
    # with the case ids kept, the copy is caught as recurring ids
    with pytest.raises(ReportInputError, match="569 id"):
        load_predictions(pd.concat([cv10, cv10], ignore_index=True), pos_label="malignant")


def test_a_labels_only_file_with_recurring_patterns_is_accepted(cv10):
    """Rows of labels only repeat naturally (three 0/1 predictions and a label have 16
    patterns): that alone is no copy."""
    labels = cv10[["label", *[f"pred_{n}" for n in NAMES]]]
    assert labels.duplicated().sum() > 500
    data = load_predictions(labels, pos_label="malignant")
    assert data.n == 569 and not data.repeated


def test_a_case_twice_in_one_repeat_and_a_case_with_two_classes(cv10):
    two = pd.concat([cv10.assign(repeat=1), cv10.assign(repeat=2)], ignore_index=True)
    assert load_predictions(two, pos_label="malignant").n_repeats == 2
    bad = two.copy()
    bad.loc[len(cv10) + 5, "repeat"] = 1  # row 575 claims repeat 1, where its case already is
    with pytest.raises(ReportInputError) as info:
        load_predictions(bad, pos_label="malignant")
    _one_sentence(str(info.value))
    assert "1 case occurs twice within one repeat" in str(info.value)
    assert f"the first {cv10['case_id'][5]!r} in data rows 6 and {len(cv10) + 6}" in str(info.value)
    clash = two.copy()
    clash.loc[len(cv10), "label"] = "benign" if clash.loc[0, "label"] == "malignant" else "malignant"
    with pytest.raises(ReportInputError, match=f"data row 1 but .* in data row {len(cv10) + 1}"):
        load_predictions(clash, pos_label="malignant")


def test_cli_refuses_a_doubled_file_and_writes_nothing(cv10, tmp_path):
    path = tmp_path / "merged.csv"
    pd.concat([cv10, cv10], ignore_index=True).to_csv(path, index=False)
    out = tmp_path / "out" / "r.html"
    proc = run_main(["report", str(path), "-o", str(out),
                           "--pos-label", "malignant"], cwd=ROOT)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert "occur more than once" in last and last.endswith("No report was written.")
    assert not out.parent.exists()
