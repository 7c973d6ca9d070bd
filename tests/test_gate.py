"""The release gate (``python -m evallib gate``, :func:`evallib.report.release_gate`): exit codes,
JSON verdict, sentences and bad input, on the shipped example files and harness logs."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from conftest import ROOT, run_main, write_inspect, write_lm_eval_task
from scipy import stats

from evallib.report import GATE_EXIT_CODES, GATE_SCHEMA, ReportInputError, release_gate
from evallib.sequential import confidence_sequence

ITEMS = ROOT / "data" / "example_items.csv"
PREDICTIONS = ROOT / "data" / "example_predictions.csv"


def _gate(*args, cwd=None):
    return run_main(["gate", *map(str, args)], cwd=cwd)


def _item_means(model: str) -> pd.Series:
    frame = pd.read_csv(ITEMS)
    return frame[frame.model == model].groupby("item", sort=False).score.mean()


# ----------------------------------------------------------------------------- the statistics
def test_tangos_printed_interval_decides_his_example():
    """Tango (1998): 44 cases, the new procedure misses one case the standard finds; his printed 90%
    score interval of the miss-rate difference is (-0.037, 0.096), so the accuracy difference new -
    standard has (-0.096, 0.037), above -0.1: no worse by 0.1; by 0.05 the interval contains -0.05."""
    scores = {"standard": [1] * 44, "new": [1] * 43 + [0]}
    v = release_gate(scores, baseline_model="standard", margin=0.1)
    assert (v.verdict, v.method, v.n_items) == ("no-worse", "tango", 44)
    assert (round(v.low, 3), round(v.high, 3)) == (-0.096, 0.037)
    assert v.estimate == pytest.approx(-1 / 44)
    assert release_gate(scores, baseline_model="standard", margin=0.05).verdict == "cannot-tell"


def test_graded_scores_without_clusters_are_scipys_one_sided_paired_t_test():
    """Graded scores, no clusters: the p-value is scipy's one-sided paired t-test of
    candidate - baseline + margin > 0, and the 90% interval is scipy's t interval."""
    rng = np.random.default_rng(7)
    base = rng.uniform(0.3, 0.9, 400)
    cand = np.clip(base + rng.normal(-0.004, 0.05, 400), 0, 1)
    v = release_gate({"old": base, "new": cand}, baseline_model="old", margin=0.01)
    d = cand - base
    ref = stats.ttest_1samp(d + 0.01, 0.0, alternative="greater")
    assert v.method == "t" and v.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    half = stats.t.ppf(0.95, d.size - 1) * d.std(ddof=1) / np.sqrt(d.size)
    assert (v.low, v.high) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-9)
    assert v.verdict == ("no-worse" if ref.pvalue <= 0.05 else "worse" if d.mean() + half < -0.01 else "cannot-tell")


def test_the_three_verdicts_on_the_shipped_files():
    """Per-item file (clusters, repeated answers: CR2) and predictions file (0/1: Tango)."""
    cases = [(ITEMS, "logistic", "forest", 0.05, "no-worse", "cr2"),
             (ITEMS, "logistic", "knn", 0.01, "cannot-tell", "cr2"),
             (PREDICTIONS, "dlda30", "coin", 0.05, "worse", "tango")]
    for path, base, cand, margin, verdict, method in cases:
        v = release_gate(path, baseline_model=base, candidate_model=cand, margin=margin)
        assert (v.verdict, v.method, v.exit_code) == (verdict, method, GATE_EXIT_CODES[verdict])
        # the verdict is the 90% interval read against the margin
        assert (v.low > -margin) == (verdict == "no-worse") and (v.high < -margin) == (verdict == "worse")
    v = release_gate(ITEMS, baseline_model="logistic", candidate_model="forest", margin=0.05)
    means = _item_means("forest") - _item_means("logistic")
    assert v.estimate == pytest.approx(means.mean(), rel=1e-12)
    assert (v.n_items, v.n_clusters) == (1191, 67)


def test_the_anytime_valid_gate_reads_the_confidence_sequence():
    """--sequential: the verdict is the two-sided 90% confidence sequence at the last look against the
    margin; the sequence is wider than the fixed-n interval (it holds at every look)."""
    pred = pd.read_csv(PREDICTIONS)
    right = {m: (pred[f"pred_{m}"] == pred.label).to_numpy(float) for m in ("dlda30", "dlda10")}
    v = release_gate(PREDICTIONS, baseline_model="dlda30", candidate_model="dlda10", margin=0.1, sequential=True)
    cs = confidence_sequence(right["dlda10"], right["dlda30"], alpha=0.1)
    assert (v.method, v.sequential) == ("betting", True)
    assert (v.low, v.high) == (cs.low[-1], cs.high[-1])
    fixed = release_gate(PREDICTIONS, baseline_model="dlda30", candidate_model="dlda10", margin=0.1)
    assert v.low < fixed.low and v.high > fixed.high
    assert v.verdict == "cannot-tell" and "confidence sequence" in v.sentence()
    with pytest.raises(ValueError, match="--n-opt"):
        release_gate(ITEMS, baseline_model="logistic", candidate_model="forest", margin=0.05, sequential=True)
    c = release_gate(ITEMS, baseline_model="logistic", candidate_model="forest", margin=0.05, sequential=True,
                     n_opt=67)
    assert c.method == "asymptotic" and c.verdict == "no-worse" and c.low < v.high


def test_a_narrow_interval_gets_the_decimals_that_tell_its_ends_apart():
    rng = np.random.default_rng(11)
    base = rng.binomial(1, 0.8, 200_000)
    cand = np.where(rng.random(base.size) < 0.002, 1 - base, base)
    v = release_gate({"old": base, "new": cand}, baseline_model="old", margin=0.01)
    low, high = v.sentence().split("interval [")[1].split("]")[0].split(", ")
    assert low != high and float(low) == pytest.approx(v.low, abs=5e-4) and len(low) > len("+0.000")


def test_lower_is_better_mirrors_the_difference():
    rng = np.random.default_rng(3)
    base, cand = rng.uniform(0, 1, 300), rng.uniform(0, 1, 300)
    up = release_gate({"old": base, "new": cand}, baseline_model="old", margin=0.1)
    down = release_gate({"old": 1 - base, "new": 1 - cand}, baseline_model="old", margin=0.1, higher_is_better=False)
    assert down.verdict == up.verdict and down.estimate == pytest.approx(-up.estimate)
    assert (down.low, down.high) == pytest.approx((-up.high, -up.low))
    assert "lower scores are better" in down.sentence() and "+0.1" in down.sentence()


# ----------------------------------------------------------------------------- files and pairing
@pytest.fixture()
def two_files(tmp_path):
    """logistic and forest of the example items as two files, the candidate's rows shuffled."""
    frame = pd.read_csv(ITEMS)
    base, cand = tmp_path / "baseline.csv", tmp_path / "candidate.csv"
    frame[frame.model == "logistic"].to_csv(base, index=False)
    frame[frame.model == "forest"].sample(frac=1.0, random_state=0).to_csv(cand, index=False)
    return base, cand


def _own_files(tmp_path, layout: str):
    """logistic (once per item) and forest (5 answers per item) of the example items, each model in a
    file of its own: long (item, cluster, model, sample, score) or wide (item, cluster, sample and one
    column named after the model); the candidate's rows shuffled."""
    frame = pd.read_csv(ITEMS)
    paths = []
    for model, seed in (("logistic", None), ("forest", 0)):
        own = frame[frame.model == model]
        if layout == "wide":
            own = own.drop(columns="model").rename(columns={"score": model})
        if seed is not None:
            own = own.sample(frac=1.0, random_state=seed)
        paths.append(tmp_path / f"{model}_{layout}.csv")
        own.to_csv(paths[-1], index=False)
    return paths


def test_two_files_pair_by_item_id(two_files):
    one = release_gate(ITEMS, baseline_model="logistic", candidate_model="forest", margin=0.05)
    two = release_gate(*two_files, margin=0.05)
    assert (two.baseline, two.candidate, two.verdict) == ("logistic", "forest", one.verdict)
    assert (two.estimate, two.low, two.high, two.n_clusters) == pytest.approx((one.estimate, one.low, one.high, 67))
    assert "Paired by item id (1,191 items)." in two.note


@pytest.mark.parametrize("layout", ["long", "wide"])
def test_a_file_of_one_model_in_either_layout(tmp_path, layout):
    """Each model's own per-item file, long or wide with one model column, is read as it stands (no
    made-up second model): the verdict is the one of the file holding both, and the estimate is the
    mean of the item means computed here with pandas."""
    base, cand = _own_files(tmp_path, layout)
    target = tmp_path / "v.json"
    out = _gate(base, cand, "--margin", "0.05", "--json", target)
    data = json.loads(target.read_text(encoding="utf-8"))
    assert out.returncode == GATE_EXIT_CODES["no-worse"] == data["exit_code"] and out.stderr == ""
    assert (data["baseline"], data["candidate"]) == ({"model": "logistic", "source": str(base)},
                                                     {"model": "forest", "source": str(cand)})
    one = release_gate(ITEMS, baseline_model="logistic", candidate_model="forest", margin=0.05)
    assert (data["verdict"], data["method"], data["n_items"], data["n_clusters"]) == (one.verdict, "cr2", 1191, 67)
    assert (data["estimate"], data["low"], data["high"]) == pytest.approx((one.estimate, one.low, one.high),
                                                                          rel=1e-12)
    assert data["estimate"] == pytest.approx((_item_means("forest") - _item_means("logistic")).mean(), rel=1e-12)
    assert "Paired by item id (1,191 items)." in data["note"]


def test_predictions_files_of_one_model_pair_by_case_id(tmp_path):
    """Each predictions file holds one model (its pred_ column, and in one file its score_ column too)
    with a case-id column, the candidate's rows reversed: paired by case id, Tango's test on the
    correctness counted here with pandas."""
    pred = pd.read_csv(PREDICTIONS).assign(case_id=lambda f: [f"tumour{i:02d}" for i in range(len(f))])
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    pred[["case_id", "label", "pred_dlda30", "score_dlda30"]].to_csv(a, index=False)
    pred[["case_id", "label", "pred_dlda10"]].iloc[::-1].to_csv(b, index=False)
    v = release_gate(a, b, margin=0.1)
    right = {m: (pred[f"pred_{m}"] == pred.label).to_numpy(float) for m in ("dlda30", "dlda10")}
    assert (v.baseline, v.candidate, v.method, v.n_items) == ("dlda30", "dlda10", "tango", 47)
    assert v.estimate == pytest.approx(right["dlda10"].mean() - right["dlda30"].mean(), rel=1e-12)
    one = release_gate(PREDICTIONS, baseline_model="dlda30", candidate_model="dlda10", margin=0.1)
    assert (v.verdict, v.low, v.high, v.pvalue) == pytest.approx((one.verdict, one.low, one.high, one.pvalue))
    assert "Paired by item id (47 items)." in v.note


def test_files_that_do_not_pair_are_refused_in_one_sentence(two_files, tmp_path):
    base, cand = two_files
    short = tmp_path / "short.csv"
    frame = pd.read_csv(cand)
    frame[frame["item"] != frame["item"].iloc[0]].to_csv(short, index=False)
    out = _gate(base, short, "--margin", "0.05", "--json", tmp_path / "v.json")
    err = out.stderr.strip()
    assert out.returncode == 1 and err.count("\n") == 0 and "Traceback" not in err
    assert err.startswith("error: The files do not pair item by item: 1 item of") and "is not in" in err
    assert f"1 item of {str(base)!r} (first '{frame['item'].iloc[0]}') is not in {str(short)!r}" in err
    assert err.endswith("No verdict was written.") and not (tmp_path / "v.json").exists()
    moved = tmp_path / "moved.csv"
    frame.assign(cluster=np.where(frame["item"] == frame["item"].iloc[0], -1, frame.cluster)).to_csv(moved, index=False)
    with pytest.raises(ReportInputError, match="in different clusters"):
        release_gate(base, moved, margin=0.05)


def test_predictions_files_pair_by_row_only_when_the_labels_agree(tmp_path):
    pred = pd.read_csv(PREDICTIONS)
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    pred[["label", "pred_dlda30"]].to_csv(a, index=False)
    pred[["label", "pred_dlda10"]].to_csv(b, index=False)
    v = release_gate(a, b, margin=0.1)
    one = release_gate(PREDICTIONS, baseline_model="dlda30", candidate_model="dlda10", margin=0.1)
    assert (v.verdict, v.low, v.high) == (one.verdict, one.low, one.high)
    assert "Paired row by row" in v.note
    pred[["label", "pred_dlda10"]].iloc[::-1].to_csv(b, index=False)
    with pytest.raises(ReportInputError, match="true labels differ in"):
        release_gate(a, b, margin=0.1)


def test_lm_eval_logs_pair_by_task_and_document(tmp_path, capsys):
    """Two models' lm-eval files of two tasks: items are task/doc_id; the first model given is the
    baseline; the verdict equals the one of the same outcomes given as a table."""
    rng = np.random.default_rng(5)
    files = {}
    for model, acc in (("old", 0.70), ("new", 0.70)):
        folder = tmp_path / model
        folder.mkdir()
        files[model] = [write_lm_eval_task(folder, t, 300, acc, rng=rng) for t in ("mmlu_anatomy", "mmlu_law")]
    args = [a for m, fs in files.items() for f in fs for a in ("--lm-eval", f"{m}={f}")]
    out = _gate(*args, "--margin", "0.1", "--json", tmp_path / "v.json")
    verdict = json.loads((tmp_path / "v.json").read_text())
    assert out.returncode == GATE_EXIT_CODES[verdict["verdict"]]
    assert (verdict["baseline"]["model"], verdict["candidate"]["model"], verdict["n_items"]) == ("old", "new", 600)
    right = {m: np.concatenate([[json.loads(s)["acc"] for s in f.read_text().splitlines()] for f in fs])
             for m, fs in files.items()}
    table = release_gate(right, baseline_model="old", margin=0.1)
    assert (verdict["low"], verdict["high"], verdict["method"]) == pytest.approx((table.low, table.high, "tango"))


def test_inspect_logs_one_per_model(tmp_path):
    """Two inspect_ai logs written with inspect_ai's own API, one model each, 3 epochs: the item means
    are graded, so the gate is the paired t-test -- scipy's one-sided test of the item means' differences
    plus the margin, computed here from the answers the logs were written from."""
    pytest.importorskip("inspect_ai")
    rng = np.random.default_rng(21)
    skill = rng.random(120)
    answers = {m: rng.random((120, 3)) < np.clip(skill + shift, 0, 1)[:, None] for m, shift in (("a", 0.0), ("b", 0.02))}
    logs = [write_inspect(tmp_path / f"{m}.eval", f"m/{m}", answers[m]) for m in ("a", "b")]
    target = tmp_path / "v.json"
    out = _gate("--inspect-log", logs[0], "--inspect-log", logs[1], "--margin", "0.05", "--json", target)
    data = json.loads(target.read_text(encoding="utf-8"))
    assert out.returncode == data["exit_code"] and out.stderr == ""
    assert (data["baseline"]["model"], data["candidate"]["model"], data["n_items"], data["method"]) == (
        "m/a", "m/b", 120, "t")
    d = answers["b"].mean(axis=1) - answers["a"].mean(axis=1)
    ref = stats.ttest_1samp(d + 0.05, 0.0, alternative="greater")
    assert data["pvalue"] == pytest.approx(ref.pvalue, rel=1e-9) and data["estimate"] == pytest.approx(d.mean())
    half = stats.t.ppf(0.95, d.size - 1) * d.std(ddof=1) / np.sqrt(d.size)
    assert (data["low"], data["high"]) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-9)


def _one_sentence_and_nothing_written(out, target, words: str) -> None:
    err = out.stderr.strip()
    assert out.returncode == 1 and out.stdout == "" and "Traceback" not in out.stderr
    assert err.count("\n") == 0 and words in err and err.endswith("No verdict was written."), err
    assert not target.exists()


def test_harness_logs_of_one_model_are_refused_in_one_sentence(tmp_path):
    rng = np.random.default_rng(2)
    one = write_lm_eval_task(tmp_path, "mmlu_anatomy", 135, 0.6, rng=rng)
    target = tmp_path / "out" / "v.json"
    target.parent.mkdir()
    out = _gate("--lm-eval", f"old={one}", "--margin", "0.05", "--json", target)
    _one_sentence_and_nothing_written(out, target, "The lm-eval samples files hold one model ('old'); the gate "
                                                   "compares a candidate with a baseline, so give the logs of both, "
                                                   "--lm-eval MODEL=FILE for each.")
    pytest.importorskip("inspect_ai")
    log = write_inspect(tmp_path / "a.eval", "m/a", rng.random((40, 2)) < 0.5)
    out = _gate("--inspect-log", log, "--margin", "0.05", "--json", target)
    _one_sentence_and_nothing_written(out, target, "The inspect logs hold one model ('m/a')")


def _bad_pair(tmp_path, case):
    """(baseline and candidate arguments, words of the sentence) for each refused pair of files."""
    base, cand = _own_files(tmp_path, "long")
    frame = pd.read_csv(cand)
    if case == "no common items":
        other = tmp_path / "renumbered.csv"
        frame.assign(item="pupil" + frame["item"].astype(str)).to_csv(other, index=False)
        return [base, other], (f"The files have no item in common: {str(base)!r} holds 1,191 items (first '53') and "
                               f"{str(other)!r} 1,191 others (first 'pupil")
    if case == "same model name in both":
        twin = tmp_path / "twin.csv"
        pd.read_csv(base).to_csv(twin, index=False)
        return [base, twin], "both name their model 'logistic', so the verdict could not tell the two apart"
    if case == "the same file twice":
        return [base, base], "both name their model 'logistic'"
    if case == "one file of one model":
        return [base], (f"{str(base)!r} holds one model ('logistic'); the gate compares a candidate with a baseline, "
                        "so give the candidate's file after the baseline's")
    if case == "a model lacks items":
        both = tmp_path / "both.csv"
        items = pd.read_csv(ITEMS)
        drop = (items.model == "forest") & items["item"].isin(items["item"].unique()[:10])
        items[~drop].to_csv(both, index=False)
        return [both, "--baseline-model", "logistic", "--candidate-model", "forest"], (
            f"The candidate 'forest' has no score for 10 items of the 1,191 paired (first '53') in {str(both)!r}")
    raise AssertionError(case)


@pytest.mark.parametrize("case", ["no common items", "same model name in both", "the same file twice",
                                  "one file of one model", "a model lacks items"])
def test_files_that_cannot_be_compared_are_one_sentence_and_status_1(tmp_path, case):
    args, words = _bad_pair(tmp_path, case)
    target = tmp_path / "out" / "v.json"
    target.parent.mkdir()
    out = _gate(*args, "--margin", "0.05", "--json", target)
    _one_sentence_and_nothing_written(out, target, words)
    assert list(target.parent.iterdir()) == []


# ----------------------------------------------------------------------------- the command line
def test_exit_codes_sentences_and_the_json_verdict(tmp_path):
    runs = [(ITEMS, "logistic", "forest", "0.05", "no-worse"), (ITEMS, "logistic", "knn", "0.01", "cannot-tell"),
            (PREDICTIONS, "dlda30", "coin", "0.05", "worse")]
    for path, base, cand, margin, verdict in runs:
        target = tmp_path / f"{verdict}.json"
        out = _gate(path, "--baseline-model", base, "--candidate-model", cand, "--margin", margin, "--json", target)
        assert out.returncode == GATE_EXIT_CODES[verdict] and out.stderr == ""
        sentence, assumes = out.stdout.splitlines()[:2]
        data = json.loads(target.read_text(encoding="utf-8"))
        assert data["sentence"] == sentence and assumes == "Assumes: " + " ".join(data["assumptions"])
        assert set(data) == {"schema", "evallib_version", "verdict", "exit_code", "sentence", "baseline", "candidate",
                             "estimate", "low", "high", "level", "margin", "alpha", "higher_is_better", "statistic",
                             "pvalue", "method", "method_text", "sequential", "assumptions", "n_items", "n_clusters",
                             "note"}
        assert (data["schema"], data["verdict"], data["exit_code"], data["level"]) == (
            GATE_SCHEMA, verdict, GATE_EXIT_CODES[verdict], pytest.approx(0.9))
        assert data["baseline"] == {"model": base, "source": str(path)} and data["candidate"]["model"] == cand
        n = f"{data['n_items']:,} items"
        interval = f"90% interval [{data['low']:+.3f}, {data['high']:+.3f}]"  # apart at 3 decimals here
        assert n in sentence and interval in sentence and f"{data['estimate']:+.3f}" in sentence
        assert data["method_text"] in sentence and f"-{margin}" in sentence
        words = {"no-worse": ("is no worse than", "lies above"), "worse": ("is worse than", "lies below"),
                 "cannot-tell": ("Cannot tell yet whether", "contains")}[verdict]
        assert all(w in sentence for w in words)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cannot-tell.json", "no-worse.json", "worse.json"]


@pytest.mark.parametrize("args, words", [
    ([ITEMS, "--baseline-model", "logistic", "--margin", "0.05"],
     "holds the models 'logistic', 'boosting', 'knn' and 'forest'; name the candidate with --candidate-model"),
    ([ITEMS, "--baseline-model", "tree", "--candidate-model", "knn", "--margin", "0.05"],
     "The baseline model 'tree' is not in"),
    ([ITEMS, "--baseline-model", "knn", "--candidate-model", "knn", "--margin", "0.05"], "are the same model 'knn'"),
    ([ROOT / "data" / "nothing.csv", "--margin", "0.05"], "does not exist"),
    (["--margin", "0.05"], "give the baseline's and the candidate's files"),
    ([ITEMS, "--lm-eval", "a=b.jsonl", "--margin", "0.05"], "harness logs are given with --lm-eval"),
    ([PREDICTIONS, "--baseline-model", "dlda30", "--candidate-model", "dlda10", "--margin", "0.05", "--json",
      "/nonexistent/folder/v.json"], "does not exist"),
])
def test_bad_input_is_one_sentence_and_status_1(tmp_path, args, words):
    out = _gate(*args, cwd=tmp_path)
    assert out.returncode == 1 and out.stdout == "" and "Traceback" not in out.stderr
    assert out.stderr.count("\n") == 1 and words in out.stderr and out.stderr.rstrip().endswith("No verdict was written.")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("margin", ["0", "1", "1.5", "-0.01", "nan", "x"])
def test_a_margin_outside_0_1_is_a_usage_error(tmp_path, margin):
    """Status 2 (usage error, as documented): argparse's usage line, then one sentence naming --margin
    and its range; no JSON written. The function refuses the same margins with one ValueError."""
    target = tmp_path / "v.json"
    out = _gate(ITEMS, "--baseline-model", "logistic", "--candidate-model", "forest", "--margin", margin,
                "--json", target)
    last = out.stderr.strip().splitlines()[-1]
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert last.startswith("python -m evallib gate: error: argument --margin: must be a proportion in (0, 1)")
    assert not target.exists() and list(tmp_path.iterdir()) == []
    bad = float(margin) if margin != "x" else margin
    with pytest.raises(ValueError, match=r"^margin must be a number in \(0, 1\) in the scores' units, such as 0\.01, "
                                         r"got [^\n]*$"):
        release_gate(ITEMS, baseline_model="logistic", candidate_model="forest", margin=bad)


def test_the_manuals_sentence_is_the_gates_own():
    """docs/report/index.md quotes the gate on the example items: the quote is what it prints."""
    manual = (ROOT / "docs" / "report" / "index.md").read_text(encoding="utf-8")
    out = _gate(ITEMS, "--baseline-model", "logistic", "--candidate-model", "forest", "--margin", "0.05")
    assert out.returncode == 0 and out.stdout.splitlines()[0] in manual
