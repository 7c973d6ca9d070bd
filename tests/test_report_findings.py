"""The findings of issue 24, item 6, each on a file written here from a real data set.

Data: scikit-learn's breast-cancer data (569 cases), digits (1,797 cases, ten classes) and
digits split into 800 fine classes by k-means within each digit; cross-validated
predictions of scikit-learn models. References: scikit-learn's measures, scipy's binomial
law (McNemar's mid-p), its t and normal laws and Mann–Whitney test, statsmodels' Holm
adjustment, Bonett & Price's interval and a macro-F1 bootstrap written out with
scikit-learn's ``f1_score``, and evallib.report.htmlexport's Markdown renderer for what reaches
the page.
"""

from __future__ import annotations

from conftest import run_main

import os
import re
import signal
import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import accuracy_score, balanced_accuracy_score, f1_score
from _references import bonett_price as _bonett_price, mid_p as _mid_p

from evallib._format import format_p

from evallib.report import (
    EXAMPLE_PATH,
    ReportExecutionError,
    ReportInputError,
    balanced_accuracy_comparison,
    chance_check,
    classifier_measures,
    format_pairwise,
    load_predictions,
    omnibus_test,
    pairwise_comparison,
    score_comparison,
    score_warnings,
    summarise_data,
    summary_text,
    top_two_bootstrap,
)

ROOT = Path(__file__).resolve().parents[1]


def _cv_predictions(X, y, models, *, folds=10, seed=0, method="predict"):
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    cv = StratifiedKFold(folds, shuffle=True, random_state=seed)
    return {name: cross_val_predict(model, X, y, cv=cv, method=method) for name, model in models.items()}


def _three_models():
    from sklearn.linear_model import LogisticRegression
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    return {"logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
            "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(5)),
            "tree": DecisionTreeClassifier(max_depth=3, random_state=0)}


@pytest.fixture(scope="module")
def cancer() -> pd.DataFrame:
    """One 10-fold cross-validation on the breast-cancer data: labels and P(malignant)."""
    from sklearn.datasets import load_breast_cancer

    X, target = load_breast_cancer(return_X_y=True)
    y = np.array(["malignant", "benign"])[target]
    frame = pd.DataFrame({"label": y})
    for name, pred in _cv_predictions(X, y, _three_models()).items():
        frame[f"pred_{name}"] = pred
    proba = _cv_predictions(X, y, {"logreg": _three_models()["logreg"]}, method="predict_proba")["logreg"]
    frame["score_logreg"] = proba[:, 1]  # classes_ sorted: ['benign', 'malignant']
    return frame


@pytest.fixture(scope="module")
def digits() -> tuple[pd.DataFrame, np.ndarray]:
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    frame = pd.DataFrame({"label": y})
    for name, pred in _cv_predictions(X, y, _three_models()).items():
        frame[f"pred_{name}"] = pred
    return frame, X


# ------------------------------------------------------------------ escaping
HOSTILE = {"logreg": "<img src=x onerror=alert(1)>", "knn": "a*b* [x](javascript:alert(2))", "tree": "$x$ `y`"}


def test_every_user_string_is_escaped_in_the_summary(cancer):
    from evallib.report.htmlexport import markdown_to_html

    frame = cancer.rename(columns={f"pred_{k}": f"pred_{v}" for k, v in HOSTILE.items()})
    frame = frame.rename(columns={"score_logreg": f"score_{HOSTILE['logreg']}"})
    frame["label"] = frame["label"].map({"malignant": "<b>malignant</b>", "benign": "benign & co"})
    for c in frame.columns[1:]:
        if c.startswith("pred_"):
            frame[c] = frame[c].map({"malignant": "<b>malignant</b>", "benign": "benign & co"})
    data = load_predictions(frame, pos_label="<b>malignant</b>")
    m = classifier_measures(data)
    text = summary_text(data, measures=m, pairwise=pairwise_comparison(data), omnibus=omnibus_test(data),
                        scores=score_comparison(data), chance=chance_check(data, m),
                        bootstrap=top_two_bootstrap(data, m, n_resamples=500, rng=0), warnings=score_warnings(data, m))
    page = markdown_to_html(text)
    assert "<img" not in page and "<b>" not in page and "<a " not in page and "<code>" not in page
    assert "<math" not in page  # "$x$" is a name, not a formula
    assert "&lt;img src=x onerror=alert(1)&gt;" in page and "&lt;b&gt;malignant&lt;/b&gt;" in page
    assert "a*b* [x](javascript:alert(2))" in page and "$x$ `y`" in page


# ------------------------------------------------------------------ skew, tiny, cardinality
def test_skew_is_judged_against_balanced_classes(digits):
    frame, _ = digits
    shares = frame["label"].value_counts(normalize=True)
    assert shares.min() < 0.10  # ten balanced classes: each near 10%, the smallest just below
    assert not [w for w in summarise_data(load_predictions(frame)).warnings if "skew" in w]
    keep = (frame["label"] != 0) | (np.arange(len(frame)) % 10 == 0)  # digit 0 thinned to a tenth
    thin = frame[keep].reset_index(drop=True)
    share = (thin["label"] == 0).mean()
    assert share < 0.2 / 10  # below a fifth of its balanced share
    warned = [w for w in summarise_data(load_predictions(thin)).warnings if "skew" in w]
    assert len(warned) == 1 and f"only {share:.1%} of the cases are in the smallest class" in warned[0]


def test_tiny_files_and_absurd_label_columns_are_refused_up_front(cancer, tmp_path):
    tiny = cancer.iloc[[0, 1, 19]]  # two malignant cases and one benign
    assert (tiny["label"] == "benign").sum() == 1
    with pytest.raises(ReportInputError, match="1 test case of the class 'benign'") as info:
        load_predictions(tiny, pos_label="malignant")
    assert "\n" not in str(info.value)
    ids = cancer.assign(label=[f"case {i}" for i in range(len(cancer))])  # an id column named as the label
    with pytest.raises(ReportInputError, match="holds 569 classes in 569 test cases") as info:
        load_predictions(ids)
    assert len(str(info.value)) < 400
    path = tmp_path / "tiny.csv"
    tiny.to_csv(path, index=False)
    out = tmp_path / "out" / "r.html"
    proc = run_main(["report", str(path), "-o", str(out),
                           "--pos-label", "malignant"], cwd=ROOT)
    assert proc.returncode == 1 and "too small for a report" in proc.stderr and "Traceback" not in proc.stderr
    assert not out.parent.exists()


def test_predicted_classes_absent_from_the_labels_are_errors(digits):
    """Models trained on all ten digits, scored on the cases of 0-8 only: a prediction '9' is
    a wrong prediction, not a broken file."""
    frame, _ = digits
    test = frame[frame["label"] != 9].reset_index(drop=True)
    assert (test["pred_tree"] == 9).any()
    data = load_predictions(test)
    assert data.label_classes == tuple(str(d) for d in range(9)) and data.classes[-1] == "9"
    assert "absent from the label column ('9')" in data.read_note
    m = classifier_measures(data)
    labels = list(range(9))
    for name in ("logreg", "knn", "tree"):
        y, p = test["label"], test[f"pred_{name}"]
        assert m.loc[name, "accuracy"] == pytest.approx(accuracy_score(y, p))
        assert m.loc[name, "F1"] == pytest.approx(f1_score(y, p, labels=labels, average="macro", zero_division=0))
        assert m.loc[name, "avg_recall"] == pytest.approx(np.mean([(p[y == k] == k).mean() for k in labels]))


# ------------------------------------------------------------------ p-values, digits
def test_p_values_below_the_floor_are_printed_as_a_bound():
    """Two raw measurements of the breast-cancer data as scores (mean compactness, AUC 0.86;
    mean texture), C = 5 classifiers tried, P = 212, N = 357. The exact law of the AUC comes
    there from a characteristic function whose far tail is noise near 1e-15 (it gave p =
    6.3e-15); scipy's normal Mann–Whitney tail puts the p-value below 1e-30, so the report
    prints p < 1e-15."""
    from sklearn.datasets import load_breast_cancer

    bunch = load_breast_cancer()
    names = list(bunch.feature_names)
    y = bunch.target == 0  # malignant
    frame = pd.DataFrame({"label": np.where(y, "malignant", "benign"),
                          "score_compactness": bunch.data[:, names.index("mean compactness")],
                          "score_texture": bunch.data[:, names.index("mean texture")]})
    data = load_predictions(frame, pos_label="malignant")
    res = chance_check(data, classifier_measures(data), classifiers_tried=5)
    row = res.table.loc["AUC"]
    s = frame["score_compactness"].to_numpy()
    tail = stats.mannwhitneyu(s[y], s[~y], alternative="greater", method="asymptotic").pvalue
    assert row["winner"] == "compactness" and 0.85 < row["value"] < 0.87 and 5 * tail < 1e-30
    assert row["pvalue"] < 1e-15 and res.formatted().loc["AUC", f"p (against the best of C = {res.C} random classifiers)"] == "< 1e-15"
    assert "(p < 1e-15)" in res.headline()


def test_intervals_get_the_digits_that_tell_their_bounds_apart(cancer):
    """A million cases drawn from the breast-cancer predictions (each row a case of the
    empirical distribution): intervals a few hundredths of a point wide, which one decimal
    would print as "-0.2 to -0.2"."""
    gen = np.random.default_rng(0)
    big = cancer.iloc[gen.integers(0, len(cancer), 1_000_000)].reset_index(drop=True)
    big = big[["label", "pred_logreg", "pred_knn", "pred_tree"]].assign(pred_copy=big["pred_logreg"])
    data = load_predictions(big, pos_label="malignant")
    pw = pairwise_comparison(data)
    text = format_pairwise(pw)
    col = "95% interval"
    for (i, j), shown, lo, hi in zip(pw["pair"], text[col], pw["diff_low"], pw["diff_high"]):
        low_text, high_text = shown.split(" to ")
        assert float(low_text) != float(high_text)  # never "-0.2 to -0.2", nor "-0.0 to 0.0"
        d = len(low_text.split(".")[1])
        assert float(low_text) == pytest.approx(100 * lo, abs=0.51 * 10 ** -d)
        assert float(high_text) == pytest.approx(100 * hi, abs=0.51 * 10 ** -d)
    assert any(len(s.split(" to ")[0].split(".")[1]) > 1 for s in text[col] if " to " in s)
    copy = pw[pw["pair"].map(set) == {"logreg", "copy"}].iloc[0]
    assert copy["verdict"] == "identical predictions: nothing to test" and copy["b"] + copy["c"] == 0


# ------------------------------------------------------------------ macro-F1 bootstrap
@pytest.fixture(scope="module")
def fine_digits() -> pd.DataFrame:
    """Digits in 800 classes (k-means with 80 clusters within each digit, two or three cases a
    class), five-fold predictions of 1-nearest-neighbour and a depth-8 tree."""
    import warnings

    from sklearn.cluster import KMeans
    from sklearn.datasets import load_digits
    from sklearn.model_selection import KFold, cross_val_predict
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.tree import DecisionTreeClassifier

    X, d = load_digits(return_X_y=True)
    fine = np.empty(len(d), object)
    for k in range(10):
        idx = np.flatnonzero(d == k)
        fine[idx] = [f"{k}.{c:02d}" for c in KMeans(80, n_init=3, random_state=0).fit(X[idx]).labels_]
    cv = KFold(5, shuffle=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # classes with fewer cases than folds
        return pd.DataFrame({"label": fine,
                             "pred_knn": cross_val_predict(KNeighborsClassifier(1), X, fine, cv=cv),
                             "pred_tree": cross_val_predict(DecisionTreeClassifier(max_depth=8, random_state=0),
                                                            X, fine, cv=cv)})


def test_macro_f1_bootstrap_keeps_absent_classes_out_of_the_verdict(fine_digits):
    """Against a bootstrap written out with scikit-learn's per-class F1 (a class a resample
    leaves out keeps its test-set F1), 400 resamples: bounds agree to 0.006 (Monte Carlo
    error about 0.002). Scoring absent classes 0, as before, puts the whole interval below
    the estimate on these data."""
    frame = fine_digits
    data = load_predictions(frame)
    m = classifier_measures(data)
    res = top_two_bootstrap(data, m, n_resamples=4000, rng=0)
    labels = np.array(sorted(set(frame["label"])))
    y = frame["label"].to_numpy()
    a, b = frame[f"pred_{res.best}"].to_numpy(), frame[f"pred_{res.second}"].to_numpy()
    est_a = f1_score(y, a, labels=labels, average=None, zero_division=0)
    est_b = f1_score(y, b, labels=labels, average=None, zero_division=0)
    assert res.difference == pytest.approx(est_a.mean() - est_b.mean())
    assert res.low <= res.difference <= res.high
    gen = np.random.default_rng(1)
    plug, zero = [], []
    # the resamples scored on the labels' positions in ``labels`` (per-class F1 depends only on
    # which cases share a label, so the scores are the same; integer labels are faster to score)
    code_y, code_a, code_b = (np.searchsorted(labels, v) for v in (y, a, b))
    assert np.array_equal(labels[code_a], a) and np.array_equal(labels[code_b], b)  # every prediction is a label
    codes = np.arange(labels.size)

    def per_class_f1(truth, pred):  # 2 TP / (predicted + true) per class, 0 where both are 0
        tp = np.bincount(truth[truth == pred], minlength=labels.size)
        total = np.bincount(truth, minlength=labels.size) + np.bincount(pred, minlength=labels.size)
        return np.divide(2.0 * tp, total, out=np.zeros(labels.size), where=total > 0)

    # the count formula is scikit-learn's per-class F1 (checked on the test set and on one resample)
    i = gen.integers(0, len(y), len(y))
    for truth, pred in ((code_y, code_a), (code_y[i], code_b[i])):
        assert per_class_f1(truth, pred) == pytest.approx(
            f1_score(truth, pred, labels=codes, average=None, zero_division=0), abs=1e-12)
    for _ in range(400):
        i = gen.integers(0, len(y), len(y))
        present = np.isin(codes, code_y[i])
        raw_a, raw_b = per_class_f1(code_y[i], code_a[i]), per_class_f1(code_y[i], code_b[i])
        plug.append(np.where(present, raw_a, est_a).mean() - np.where(present, raw_b, est_b).mean())
        zero.append(raw_a.mean() - raw_b.mean())   # = scikit-learn's average="macro" over these labels
    lo, hi = np.quantile(plug, [0.025, 0.975])
    assert res.low == pytest.approx(lo, abs=0.006) and res.high == pytest.approx(hi, abs=0.006)
    assert np.quantile(zero, 0.975) < res.difference  # the old convention misses its own estimate


# ------------------------------------------------------------------ balanced accuracy
@pytest.fixture(scope="module")
def skewed_cancer() -> pd.DataFrame:
    """The breast-cancer data with 12 of its 212 malignant cases kept: 3.3% positive."""
    from sklearn.datasets import load_breast_cancer

    X, target = load_breast_cancer(return_X_y=True)
    keep = (target == 1) | (np.cumsum(target == 0) <= 12)
    X, y = X[keep], np.array(["malignant", "benign"])[target[keep]]
    frame = pd.DataFrame({"label": y})
    for name, pred in _cv_predictions(X, y, _three_models(), folds=4).items():
        frame[f"pred_{name}"] = pred
    return frame


def test_balanced_accuracy_pairs_beside_mcnemar(skewed_cancer):
    """Reference per pair: scikit-learn's balanced accuracy, the difference's variance as
    the sum of the two classes' paired-mean variances (scipy's ttest_rel standard errors),
    Welch–Satterthwaite df, Holm by statsmodels."""
    from statsmodels.stats.multitest import multipletests

    frame = skewed_cancer
    assert (frame["label"] == "malignant").mean() < 0.04
    data = load_predictions(frame, pos_label="malignant")
    table = balanced_accuracy_comparison(data, alpha=0.05, adjust="holm")
    y = frame["label"].to_numpy()
    pos = y == "malignant"
    for row in table.itertuples():
        ca, cb = (frame[f"pred_{row.a}"] == y).to_numpy(float), (frame[f"pred_{row.b}"] == y).to_numpy(float)
        assert row.ba_a == pytest.approx(balanced_accuracy_score(y, frame[f"pred_{row.a}"]))
        assert row.difference == pytest.approx(balanced_accuracy_score(y, frame[f"pred_{row.a}"])
                                               - balanced_accuracy_score(y, frame[f"pred_{row.b}"]))
        parts = []
        for mask in (pos, ~pos):
            d = ca[mask] - cb[mask]
            t = stats.ttest_rel(ca[mask], cb[mask])
            # floored by the Jeffreys-style p~(1 - p~), p~ = (discordant + 1/2) / (n + 1), over n
            q = (np.sum(d != 0) + 0.5) / (mask.sum() + 1)
            parts.append(max((d.mean() / t.statistic) ** 2 if d.std() > 0 else 0.0, q * (1 - q) / mask.sum()) / 4)
        se = np.sqrt(sum(parts))
        assert row.se == pytest.approx(se, rel=1e-9)
        n = [pos.sum(), (~pos).sum()]
        df = sum(parts) ** 2 / sum(v * v / (k - 1) for v, k in zip(parts, n))
        assert row.pvalue == pytest.approx(2 * stats.t.sf(abs(row.difference) / se, df), rel=1e-9)
    np.testing.assert_allclose(table["pvalue_adj"], multipletests(table["pvalue"], method="holm")[1])


# ------------------------------------------------------------------ the smallest difference that matters
def test_each_interval_is_read_against_the_smallest_difference_that_matters(cancer):
    data = load_predictions(cancer, pos_label="malignant")
    pw = pairwise_comparison(data, min_difference=0.02)
    y = cancer["label"].to_numpy()
    for row in pw.itertuples():
        i, j = row.pair
        wi, wj = cancer[f"pred_{i}"].to_numpy() != y, cancer[f"pred_{j}"].to_numpy() != y
        # Holm over the pairs: the joint (Bonferroni) interval is the one read, as the verdict's
        lo, hi = _bonett_price(int(np.sum(wi & ~wj)), int(np.sum(~wi & wj)), len(y), 0.05 / len(pw))
        expected = ("matters" if lo >= 0.02 or hi <= -0.02 else
                    "negligible" if -0.02 < lo and hi < 0.02 else "undecided")
        assert row.matters == expected
    assert set(pw["matters"]) >= {"undecided"}
    assert "joint interval against ±2 percentage points" in format_pairwise(pw).columns
    with pytest.raises(ReportInputError, match="--min-difference") as info:
        pairwise_comparison(data, min_difference=2)
    assert "\n" not in str(info.value)
    proc = run_main(["report", str(EXAMPLE_PATH), "--min-difference", "2"], cwd=ROOT)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "proportion" in proc.stderr


# ------------------------------------------------------------------ the notebook tools, Ctrl-C
def test_missing_notebook_tools_are_named_with_the_install_command(tmp_path, monkeypatch, capsys):
    """In process, with papermill hidden from evallib._extras (the command line in a fresh
    interpreter is tested once, in test_cli_reports)."""
    import evallib._extras as extras
    from evallib.__main__ import main

    found = extras._spec
    monkeypatch.setattr(extras, "_spec", lambda m: None if m.split(".")[0] == "papermill" else found(m))
    out = tmp_path / "out" / "r.html"
    status = main(["report", str(EXAMPLE_PATH), "-o", str(out), "--pos-label", "ER-"])
    err = capsys.readouterr().err
    assert status == 1 and "Traceback" not in err
    # the command line checks the report extra before reading the file (evallib._extras)
    assert err.strip().splitlines() == [
        "error: python -m evallib report needs papermill: pip install 'evallib[report]' (or pip install papermill)."]
    assert not out.parent.exists()
    monkeypatch.setattr(extras, "_spec", found)
    assert extras.missing("report") == []  # here they are all installed


@pytest.mark.slow
def test_ctrl_c_is_one_sentence_exit_130_and_leaves_nothing(tmp_path):
    """Ctrl-C sends SIGINT to the terminal's process group (the command and its kernel); at
    three moments of the run: while the kernel starts, while cells run, and near the end."""
    env = dict(os.environ, MPLBACKEND="Agg")
    for trial, delay in enumerate((0.0, 2.0, 4.0)):
        work = tmp_path / f"t{trial}"
        runtime, temp = work / "runtime", work / "tmp"
        runtime.mkdir(parents=True)
        temp.mkdir()
        out = work / "out" / "r.html"
        proc = subprocess.Popen([sys.executable, "-m", "evallib", "report", str(EXAMPLE_PATH), "-o", str(out),
                                 "--pos-label", "ER-"], stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                env=dict(env, JUPYTER_RUNTIME_DIR=str(runtime), TMPDIR=str(temp)),
                                start_new_session=True)
        seen = ""
        while "[2/3]" not in seen and proc.poll() is None:
            seen += proc.stderr.readline()
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)
        err = proc.stderr.read()
        proc.wait(timeout=120)
        if proc.returncode == 0 or "done: " in err:
            # finished before the interrupt arrived (or it arrived during the interpreter's
            # exit, after the report was complete): nothing to check
            continue
        assert proc.returncode == 130, err[-2000:]
        assert "Traceback" not in err and err.strip().splitlines()[-1] == (
            "error: the report run was interrupted (Ctrl-C), so nothing was written.")
        # Under load the interrupted kernel may still be exiting: wait (up to 60 s) until the
        # folders are empty and stay empty for 1.5 s, the time a kernel that was still starting
        # needs to write its connection file; anything left after that is a leftover.
        def left():
            return ([] if not out.parent.exists() else list(out.parent.iterdir())) + \
                list(runtime.iterdir()) + list(temp.rglob("*"))

        deadline, quiet_since = time.monotonic() + 60, None
        while time.monotonic() < deadline:
            if left():
                quiet_since = None
            elif quiet_since is None:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= 1.5:
                break
            time.sleep(0.1)
        assert left() == [], left()


# ------------------------------------------------------------------ the page, end to end
def _twelve_models():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier

    scaled = lambda m: make_pipeline(StandardScaler(), m)  # noqa: E731
    return {
        "logreg": scaled(LogisticRegression(max_iter=1000)), "logreg_c0.01": scaled(LogisticRegression(C=0.01)),
        "lda": LinearDiscriminantAnalysis(), "bayes": GaussianNB(), "knn1": scaled(KNeighborsClassifier(1)),
        "knn5": scaled(KNeighborsClassifier(5)), "knn25": scaled(KNeighborsClassifier(25)), "svm": scaled(SVC()),
        "tree2": DecisionTreeClassifier(max_depth=2, random_state=0),
        "tree6": DecisionTreeClassifier(max_depth=6, random_state=0),
        "forest": RandomForestClassifier(50, random_state=0), "=1+1": DecisionTreeClassifier(max_depth=1),
    }


@pytest.mark.slow
def test_page_escapes_the_title_shows_every_pair_and_writes_every_table(tmp_path):
    from sklearn.datasets import load_breast_cancer

    X, target = load_breast_cancer(return_X_y=True)
    y = np.array(["malignant", "benign"])[target]
    models = _twelve_models()
    preds = _cv_predictions(X, y, models)
    frame = pd.DataFrame({"label": y})
    for name in models:
        frame[f"pred_{name}"] = preds[name]
    frame = frame.rename(columns={"pred_knn1": "pred_<script>alert(2)</script>"})
    path = tmp_path / "twelve.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "report" / "out.html"
    proc = run_main(["report", str(path), "-o", str(out), "-q",
                     "--pos-label", "malignant", "--title", "<script>alert(1)</script> Q3"],
                    cwd=tmp_path, env=dict(os.environ, MPLBACKEND="Agg"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    html = out.read_text(encoding="utf-8")
    assert "<script>alert(1)" not in html and "<script>alert(2)" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; Q3" in html
    names = [c[5:] for c in frame.columns if c.startswith("pred_")]
    assert len(names) == 12
    for i, j in combinations(names, 2):  # all 66 pairs, in either order
        shown = [f"{a} vs {b}".replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                 for a, b in ((i, j), (j, i))]
        assert any(f">{s}</th>" in html for s in shown), (i, j)
    assert "<td>...</td>" not in html and "<th>...</th>" not in html
    tables = out.with_name("out_tables")
    files = sorted(p.name for p in tables.iterdir())
    assert {"1_design.csv", "2_measures.csv", "3_omnibus.csv", "3_pairs.csv", "3_balanced_accuracy_pairs.csv",
            "5_chance.csv", "6_bootstrap.csv"} <= set(files)
    measures = pd.read_csv(tables / "2_measures.csv").set_index("classifier")
    for name in names:
        shown = "'=1+1" if name == "=1+1" else name  # a would-be formula stays text
        assert measures.loc[shown, "accuracy"] == pytest.approx(np.mean(frame[f"pred_{name}"] == y))
    pairs = pd.read_csv(tables / "3_pairs.csv")
    assert len(pairs) == 66
    for row in pairs.itertuples():
        a = "=1+1" if row.A == "'=1+1" else row.A
        b = "=1+1" if row.B == "'=1+1" else row.B
        wa, wb = frame[f"pred_{a}"].to_numpy() != y, frame[f"pred_{b}"].to_numpy() != y
        worse_a, worse_b = int(np.sum(wa & ~wb)), int(np.sum(~wa & wb))
        assert (row.A_worse, row.B_worse) == (worse_a, worse_b)
        if worse_a != worse_b:  # at b = c the two mid-p conventions differ (1 - P(b)/2 against 1)
            assert row.pvalue == pytest.approx(_mid_p(worse_a, worse_b))
    assert re.search(r"summary|Summary", html)


def test_a_failed_run_leaves_no_tables(tmp_path, monkeypatch):
    """The tables move into place with the page, or not at all."""
    import papermill

    def fail(*args, **kwargs):
        Path(kwargs["parameters"]["tables_dir"]).mkdir()
        (Path(kwargs["parameters"]["tables_dir"]) / "2_measures.csv").write_text("x")
        raise RuntimeError("a cell failed")

    monkeypatch.setattr(papermill, "execute_notebook", fail)
    out = tmp_path / "out" / "r.html"
    with pytest.raises(ReportExecutionError, match="a cell failed"):
        from evallib.report import run_report

        run_report(EXAMPLE_PATH, out, pos_label="ER-", progress=False)
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------ the summary (item 7)
def _sentences(text: str) -> list[str]:
    return [s.strip() for line in text.splitlines() for s in re.split(r"(?<=[.)])\s+(?=[A-Z*])", line[2:])
            if s.strip()]


def test_summary_leads_with_the_honest_measure_and_says_each_thing_once(skewed_cancer):
    from statsmodels.stats.multitest import multipletests

    frame = skewed_cancer
    data = load_predictions(frame, pos_label="malignant")
    m = classifier_measures(data)
    pw = pairwise_comparison(data)
    text = summary_text(data, measures=m, pairwise=pw, omnibus=omnibus_test(data),
                        balanced=balanced_accuracy_comparison(data), chance=chance_check(data, m),
                        bootstrap=top_two_bootstrap(data, m, n_resamples=2000, rng=0), warnings=score_warnings(data, m))
    bullets = text.splitlines()
    y = frame["label"]
    ba = {n: balanced_accuracy_score(y, frame[f"pred_{n}"]) for n in ("logreg", "knn", "tree")}
    best = max(ba, key=ba.get)
    first = next(b for b in bullets if not b.startswith("- **Warning"))
    assert first.startswith(f"- **{best}** has the highest balanced accuracy (average recall): {100 * ba[best]:.1f}%")
    assert f"paired on the same cases {best} is {100 * (ba[best] - 0.5):.1f} percentage points ahead" in first
    # the two leaders by balanced accuracy, with McNemar's (Holm-adjusted mid-p) verdict beside
    a, b = sorted(ba, key=ba.get, reverse=True)[:2]
    ps = {}
    for i, j in combinations(("logreg", "knn", "tree"), 2):
        wi, wj = frame[f"pred_{i}"].to_numpy() != y, frame[f"pred_{j}"].to_numpy() != y
        ps[frozenset((i, j))] = _mid_p(int(np.sum(wi & ~wj)), int(np.sum(~wi & wj)))
    keys = list(ps)
    holm = dict(zip(keys, multipletests([ps[k] for k in keys], method="holm")[1]))
    leaders = next(x for x in bullets if "By balanced accuracy the two leaders" in x)
    assert f"are {a} and {b}" in leaders and f"gives adjusted p = {holm[frozenset((a, b))]:#.2g} (Holm)" in leaders
    # at most one bullet per question, no sentence twice
    for word in ("highest", "Cochran", "two leaders", "Forman", "bootstrap"):
        assert sum(word in x for x in bullets) <= 1, word
    sentences = _sentences(text)
    assert len(sentences) == len(set(sentences))
    assert len(bullets) <= 9


def test_summary_keeps_optimistic_figures_out_and_words_shares_as_resamples():
    data = load_predictions(EXAMPLE_PATH, pos_label="ER-")
    m = classifier_measures(data)
    chance = chance_check(data, m)
    boot = top_two_bootstrap(data, m, n_resamples=2000, rng=0)
    text = summary_text(data, measures=m, pairwise=pairwise_comparison(data), omnibus=omnibus_test(data),
                        scores=score_comparison(data), chance=chance, bootstrap=boot)
    optimistic = chance.table.loc[["best accuracy", "best F1"], "value"]
    for v in optimistic:  # stated in section 5 only
        assert f"{v:.3f}" not in text and f"{100 * v:.1f}%" not in text
    line = next(x for x in text.splitlines() if "Forman & Cohen" in x)
    assert "optimistic figure, in section 5" in line
    line = next(x for x in text.splitlines() if "percentile bootstrap" in x)
    assert f"of the {boot.n_resamples:,} resamples" in line and "not the probability" in line
    assert "replicates" not in text


# ------------------------------------------------------------------ K-class scores
def test_class_probability_columns_give_one_vs_rest_auc_and_multiclass_losses():
    """The wine data (three cultivars), 10-fold predict_proba of two scikit-learn models as
    score_<model>_<class> columns. References: scikit-learn's roc_auc_score (one-vs-rest, per
    class and macro), brier_score_loss and log_loss; DeLong's standard error from placements
    computed by comparing every pair of cases; scipy's paired t-test on the per-case Brier
    scores."""
    from sklearn.datasets import load_wine
    from sklearn.metrics import brier_score_loss, log_loss, roc_auc_score
    from sklearn.naive_bayes import GaussianNB

    X, target = load_wine(return_X_y=True)
    y = np.array(["barolo", "grignolino", "barbera"])[target]
    classes = sorted(set(y))
    models = {"logreg": _three_models()["logreg"], "bayes": GaussianNB()}
    probs = _cv_predictions(X, y, models, method="predict_proba")
    frame = pd.DataFrame({"label": y})
    for name, p in probs.items():
        frame[f"pred_{name}"] = np.asarray(classes)[p.argmax(axis=1)]
        for j, c in enumerate(classes):
            frame[f"score_{name}_{c}"] = p[:, j]
    frame["score_tree_barolo"] = probs["bayes"][:, 0]  # one class only: not used
    data = load_predictions(frame)
    assert set(data.class_scores) == {"logreg", "bayes"} and "'score_tree_barolo' is not used" in data.read_note
    res = score_comparison(data, alpha=0.05, adjust="holm")
    auc = res.auc.set_index(["name", "class"])
    for name, p in probs.items():
        assert res.macro_auc[name] == pytest.approx(roc_auc_score(y, p, multi_class="ovr", labels=classes))
        for j, c in enumerate(classes):
            pos = y == c
            assert auc.loc[(name, c), "estimate"] == pytest.approx(roc_auc_score(pos, p[:, j]))
            s = p[:, j]
            psi = (s[pos][:, None] > s[~pos][None, :]) + 0.5 * (s[pos][:, None] == s[~pos][None, :])
            se = np.sqrt(psi.mean(axis=1).var(ddof=1) / pos.sum() + psi.mean(axis=0).var(ddof=1) / (~pos).sum())
            assert auc.loc[(name, c), "se"] == pytest.approx(se)
    losses = res.losses.set_index("name")
    brier = {}
    for name, p in probs.items():
        assert losses.loc[name, "brier"] == pytest.approx(brier_score_loss(y, p, labels=classes))
        assert losses.loc[name, "log_loss"] == pytest.approx(log_loss(y, p, labels=classes))
        brier[name] = ((p - (y[:, None] == np.asarray(classes)[None, :])) ** 2).sum(axis=1)
    pair = res.loss_pairs.iloc[0]
    ref = stats.ttest_rel(brier[pair["a"]], brier[pair["b"]])
    assert pair["pvalue"] == pytest.approx(ref.pvalue) and pair["statistic"] == pytest.approx(ref.statistic)
    assert "By one-vs-rest AUC averaged over the 3 classes" in res.summary()


# ------------------------------------------------------------------ issue 33: the intervals the summary quotes
def test_the_pair_holm_selects_is_quoted_with_its_joint_interval_and_every_interval_is_named():
    """The largest of the pairs Holm declares different gets the joint (Bonferroni, 99.5% each for
    10 pairs) Bonett–Price interval, not the unadjusted 95% one; the accuracy's interval is named
    Wilson's, the gaps' Bonett–Price's and the AUCs' DeLong's."""
    from statsmodels.stats.proportion import proportion_confint

    data = load_predictions(EXAMPLE_PATH, pos_label="ER-")
    m = classifier_measures(data)
    text = summary_text(data, measures=m, pairwise=pairwise_comparison(data), omnibus=omnibus_test(data),
                        scores=score_comparison(data))
    raw = pd.read_csv(EXAMPLE_PATH)
    wrong = {n: (raw[f"pred_{n}"] != raw["label"]).to_numpy() for n in ("dlda30", "dlda30_swapped")}
    b = int(np.sum(wrong["dlda30_swapped"] & ~wrong["dlda30"]))
    c = int(np.sum(wrong["dlda30"] & ~wrong["dlda30_swapped"]))
    lo, hi = _bonett_price(b, c, len(raw), 0.05 / 10)
    unadjusted = _bonett_price(b, c, len(raw), 0.05)
    assert (f"dlda30 makes {100 * (b - c) / len(raw):.1f} percentage points fewer errors than dlda30_swapped "
            f"(95% joint Bonett–Price interval {100 * lo:.1f} to {100 * hi:.1f} percentage points, each pair's at 99.5% "
            "(Bonferroni), so that all 10 hold together)") in text
    assert f"{100 * unadjusted[0]:.1f} to {100 * unadjusted[1]:.1f} percentage points" not in text
    right = int(np.sum(~wrong["dlda30"]))
    w_lo, w_hi = proportion_confint(right, len(raw), alpha=0.05, method="wilson")
    assert f"(95% Wilson interval {100 * w_lo:.1f} to {100 * w_hi:.1f}%)" in text
    assert "(95% Bonett–Price interval" in text and "(95% DeLong interval" in text
    assert "Bonett-Price" not in text  # the en dash, one spelling
    assert "unadjusted, for the leading pair, a pair picked by the data, so optimistic" in text
    assert "95% interval" not in text  # every interval quoted is named


def test_a_disagreement_of_mcnemar_and_the_balanced_accuracy_test_is_said():
    """A skewed file: a misses 1 of 10 positives and 10 negatives, b every positive. Balanced accuracy
    92.4% against 50%: the stratified paired t-test (written out: class means' variances, Welch df)
    rejects; McNemar's mid-p test on b = 10, c = 11 does not. The summary says they disagree (issue 33)."""
    y = np.array(["pos"] * 10 + ["neg"] * 190)
    a = y.copy()
    a[10:20], a[0] = "pos", "neg"
    b = y.copy()
    b[:10] = "neg"
    frame = pd.DataFrame({"label": y, "pred_a": a, "pred_b": b})
    d = (a == y).astype(float) - (b == y).astype(float)
    parts = [d[y == k] for k in ("pos", "neg")]
    # each class's variance floored by p~(1 - p~), p~ = (discordant + 1/2) / (n + 1) (Jeffreys-style)
    q = [(np.sum(p != 0) + 0.5) / (p.size + 1) for p in parts]
    v = [max(p.var(ddof=1), qi * (1 - qi)) / p.size / 4 for p, qi in zip(parts, q)]
    df = sum(v) ** 2 / sum(vi ** 2 / (p.size - 1) for vi, p in zip(v, parts))
    p_t = 2 * stats.t.sf(np.mean([p.mean() for p in parts]) / np.sqrt(sum(v)), df)
    wa, wb = a != y, b != y
    p_mc = _mid_p(int(np.sum(wa & ~wb)), int(np.sum(~wa & wb)))
    assert p_t < 0.05 < p_mc
    data = load_predictions(frame, pos_label="pos")
    m = classifier_measures(data)
    text = summary_text(data, measures=m, pairwise=pairwise_comparison(data), omnibus=omnibus_test(data),
                        balanced=balanced_accuracy_comparison(data))
    assert f"stratified paired t-test, {format_p(p_t)}" in text and f"gives {format_p(p_mc)} for the same pair" in text
    assert ("disagree on the one pair: only the stratified paired t-test rejects equal balanced accuracy at "
            "alpha = 0.05, for a vs b") in text
