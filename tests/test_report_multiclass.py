"""A multi-class file in the report (issue 14, section 2): the wine data, three classes,
10-fold cross-validated predictions of three scikit-learn models.

References: scikit-learn's accuracy, balanced accuracy and macro-F1, statsmodels'
``cochrans_q``, counting the discordant cases directly.
"""

from __future__ import annotations

from conftest import run_main

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, balanced_accuracy_score, f1_score

from evallib.report import (
    Skipped,
    chance_check,
    classifier_measures,
    fold_analysis,
    format_measures,
    load_predictions,
    omnibus_test,
    pairwise_comparison,
    per_class_tables,
    score_comparison,
    summarise_data,
    summary_text,
    top_two_bootstrap,
)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wine() -> pd.DataFrame:
    from sklearn.datasets import load_wine
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_wine(return_X_y=True)
    names = np.array(["barolo", "grignolino", "barbera"])[y]
    cv = StratifiedKFold(10, shuffle=True, random_state=0)
    frame = pd.DataFrame({"label": names, "fold": np.zeros(len(y), int)})
    for k, (_, test) in enumerate(cv.split(X, y)):
        frame.loc[test, "fold"] = k + 1
    models = {"logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=500)),
              "bayes": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=2, random_state=0)}
    for name, model in models.items():
        frame[f"pred_{name}"] = cross_val_predict(model, X, names, cv=cv)
    frame["score_tree"] = np.linspace(0, 1, len(y))  # cannot say which class: not used
    return frame


def test_multiclass_measures_against_sklearn(wine):
    data = load_predictions(wine)
    assert data.multiclass and data.classes == ("barbera", "barolo", "grignolino")
    assert "not used" in data.read_note and "score_tree" in data.read_note
    m = classifier_measures(data)
    y = wine["label"]
    for name in ("logreg", "bayes", "tree"):
        assert m.loc[name, "accuracy"] == pytest.approx(accuracy_score(y, wine[f"pred_{name}"]))
        assert m.loc[name, "avg_recall"] == pytest.approx(balanced_accuracy_score(y, wine[f"pred_{name}"]))
        assert m.loc[name, "F1"] == pytest.approx(f1_score(y, wine[f"pred_{name}"], average="macro"))
    assert m.attrs["baseline"]["accuracy"] == pytest.approx(y.value_counts().max() / len(y))
    text = format_measures(m)
    assert list(text.columns[-2:]) == ["balanced accuracy", "macro-F1"]
    assert text.index[-1] == "baseline: majority class 'grignolino'"
    per = per_class_tables(data)["tree"]
    np.testing.assert_allclose(per["f1"], f1_score(y, wine["pred_tree"], average=None,
                                                   labels=["barbera", "barolo", "grignolino"]))
    s = summarise_data(data).text()
    assert "classes: 3" in s and "class 'barolo': 59" in s


def test_multiclass_pairs_cochran_and_skipped_sections(wine):
    from statsmodels.stats.contingency_tables import cochrans_q

    data = load_predictions(wine)
    pw = pairwise_comparison(data)
    y = wine["label"].to_numpy()
    for row in pw.itertuples():
        wi, wj = wine[f"pred_{row.pair[0]}"].to_numpy() != y, wine[f"pred_{row.pair[1]}"].to_numpy() != y
        assert (row.b, row.c) == (int(np.sum(wi & ~wj)), int(np.sum(~wi & wj)))
    q = omnibus_test(data)
    correct = np.column_stack([wine[f"pred_{n}"].to_numpy() == y for n in ("logreg", "bayes", "tree")])
    ref = cochrans_q(correct.astype(int))
    assert q.statistic == pytest.approx(ref.statistic) and q.pvalue == pytest.approx(ref.pvalue)
    m = classifier_measures(data)
    assert isinstance(chance_check(data, m), Skipped) and isinstance(score_comparison(data), Skipped)
    boot = top_two_bootstrap(data, m, n_resamples=2000, rng=0)
    f1 = {n: f1_score(y, wine[f"pred_{n}"], average="macro") for n in ("logreg", "bayes", "tree")}
    best, second = sorted(f1, key=f1.get, reverse=True)[:2]
    assert (boot.best, boot.second, boot.measure) == (best, second, "macro-F1")
    assert boot.difference == pytest.approx(f1[best] - f1[second])
    folds = fold_analysis(data)
    assert len(folds.per_fold) == 10
    text = summary_text(data, measures=m, pairwise=pw, bootstrap=boot, folds=folds, omnibus=q)
    assert "Cochran's Q" in text and "By macro-F1 the leaders are" in text


@pytest.mark.slow
def test_multiclass_report_through_the_cli(wine, tmp_path):
    path = tmp_path / "wine.csv"
    wine.to_csv(path, index=False)
    out = tmp_path / "r.html"
    proc = run_main(["report", str(path), "-o", str(out), "-q"], cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    html = out.read_text()
    y = wine["label"]
    for name in ("logreg", "bayes", "tree"):
        assert f"{f1_score(y, wine[f'pred_{name}'], average='macro'):.3f}" in html
    assert "there is none" in html  # Forman & Cohen and the AUC skipped, each in one sentence
    assert html.count("<img ") == 3  # confusion matrices, pairwise intervals, the CD diagram
