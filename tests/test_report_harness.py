"""Harness files read into the per-item report: lm-evaluation-harness subtasks, inspect_ai logs.

The lm-eval files are written in the schema of ``lm_eval/loggers/evaluation_tracker.py``
(``save_results_samples``): one file ``samples_<task>_<date>.jsonl`` per task, where
``<date>`` is ``datetime.now().isoformat()`` with ``:`` replaced by ``-``, every task
numbering its documents from 0; each line holds ``doc_id``, ``doc``, ``target``,
``arguments`` (``{"gen_args_0": {"arg_0": ..., "arg_1": ...}}``), ``resps``,
``filtered_resps``, ``filter``, ``metrics``, ``doc_hash`` (sha256 of the document's JSON,
``indent=2``), ``prompt_hash``, ``target_hash`` and one key per metric; ``target`` is written
as ``str(target)`` and ``resps``/``filtered_resps`` through ``lm_eval.utils.sanitize_list``
(every inner value as text). The MMLU subtasks
have their real sizes (abstract_algebra 100, anatomy 135, astronomy 152 test questions).
The writers (``write_lm_eval_task``, ``write_inspect``) are shared in conftest.py. References are
brute force: the item means and counts recomputed here from the lines.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from conftest import DATE, MMLU, write_inspect, write_lm_eval_task

from evallib.report import ReportInputError
from evallib.report._items_inputs import read_lm_eval_samples

@pytest.fixture()
def mmlu(tmp_path):
    """Two models' MMLU subtask files, each model in its own folder as lm-eval writes them."""
    rng = np.random.default_rng(33)
    files = {}
    for model, acc in (("llama", 0.62), ("mistral", 0.55)):
        folder = tmp_path / model
        folder.mkdir()
        files[model] = [write_lm_eval_task(folder, t, n, acc, rng=rng) for t, n in MMLU.items()]
    return files


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_lm_eval_subtask_files_of_one_model_are_one_evaluation_not_repeats(mmlu):
    data = read_lm_eval_samples(mmlu, metric="acc")
    assert data.n_items == sum(MMLU.values()) == 387      # not 152 items "answered 1 to 3 times"
    assert data.max_samples == 1 and not data.has_samples
    means = data.item_means()
    for model, paths in mmlu.items():
        for path, task in zip(paths, MMLU):
            for r in _lines(path):
                assert means.at[f"{task}/{r['doc_id']}", model] == r["acc"]
    assert "3 lm-eval tasks, each numbering its documents from 0" in data.read_note
    assert "387 items (mmlu_abstract_algebra 100, mmlu_anatomy 135, mmlu_astronomy 152)" in data.read_note
    assert "--cluster-key task" in data.read_note and data.clusters is None


def test_lm_eval_tasks_as_the_clusters(mmlu):
    data = read_lm_eval_samples(mmlu, metric="acc", cluster_key="task")
    assert data.n_clusters == 3 and data.cluster_names == tuple(MMLU)
    labels = data.cluster_labels()
    assert all(label == item.split("/")[0] for label, item in zip(labels, data.items))
    assert np.bincount(data.clusters).tolist() == list(MMLU.values())
    assert "The tasks are the clusters" in data.read_note


def test_repeated_runs_of_one_task_stay_repeats(tmp_path):
    rng = np.random.default_rng(5)
    runs = [write_lm_eval_task(tmp_path, "mmlu_anatomy", 135, 0.6, rng=rng, date=d)
            for d in (DATE, "2025-03-15T10-00-00.000001")]
    other = write_lm_eval_task(tmp_path, "mmlu_anatomy", 135, 0.5, rng=rng, name="samples_mmlu_anatomy_other.jsonl")
    data = read_lm_eval_samples({"a": runs, "b": other}, metric="acc")
    assert data.n_items == 135 and data.max_samples == 2
    assert data.sample_counts()[:, 0].tolist() == [2] * 135 and data.sample_counts()[:, 1].tolist() == [1] * 135


@pytest.mark.parametrize("hashes", [True, False])
def test_subtask_files_renamed_are_refused_not_merged(tmp_path, hashes):
    """Without lm-eval's names the files of one model look like repeated runs: their doc_hash (or doc) differ."""
    rng = np.random.default_rng(7)
    a = [write_lm_eval_task(tmp_path, t, n, 0.6, rng=rng, name=f"a_{i}.jsonl", hashes=hashes)
         for i, (t, n) in enumerate(MMLU.items())]
    b = [write_lm_eval_task(tmp_path, t, n, 0.5, rng=rng, name=f"b_{i}.jsonl", hashes=hashes)
         for i, (t, n) in enumerate(MMLU.items())]
    with pytest.raises(ReportInputError) as info:
        read_lm_eval_samples({"a": a, "b": b}, metric="acc")
    message = str(info.value)
    assert "The document '0' is a different document in" in message
    assert f"(their {'doc_hash' if hashes else 'doc'} differ)" in message
    assert "samples_<task>_<date>.jsonl" in message and "\n" not in message


def test_a_file_without_lm_eval_name_among_tasks_is_refused(mmlu, tmp_path):
    stray = write_lm_eval_task(tmp_path, "mmlu_anatomy", 135, 0.5, rng=np.random.default_rng(1), name="mine.jsonl")
    with pytest.raises(ReportInputError, match=r"'.*mine.jsonl' is not named as lm-eval names them .*its task is unknown"):
        read_lm_eval_samples({"llama": mmlu["llama"], "mine": [stray] + mmlu["mistral"][:1]}, metric="acc")


def test_a_file_lacking_the_filter_is_named(tmp_path):
    rng = np.random.default_rng(3)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = write_lm_eval_task(tmp_path / "a", "gsm8k", 40, 0.6, rng=rng, filters=("strict-match", "flexible-extract"))
    b = write_lm_eval_task(tmp_path / "b", "gsm8k", 40, 0.5, rng=rng, filters=("flexible-extract",))
    with pytest.raises(ReportInputError) as info:
        read_lm_eval_samples({"a": a, "b": b}, metric="acc", filter="strict-match")
    assert str(info.value).startswith(f"The lm-eval samples file {str(b)!r} of model 'b' has no line for the filter "
                                      "'strict-match', only for 'flexible-extract'")


def test_empty_and_truncated_lm_eval_files_are_said_in_plain_words(mmlu, tmp_path):
    empty = tmp_path / f"samples_mmlu_anatomy_{DATE}.jsonl"
    empty.write_text("")
    with pytest.raises(ReportInputError, match=r"is empty: it holds no line"):
        read_lm_eval_samples({"a": empty, "b": mmlu["llama"][1]}, metric="acc")
    cut = tmp_path / "cut" / mmlu["llama"][1].name
    cut.parent.mkdir()
    text = mmlu["llama"][1].read_text(encoding="utf-8")
    cut.write_text(text[: len(text) - 40], encoding="utf-8")
    with pytest.raises(ReportInputError, match=r"is truncated: its last line \(135\) stops in the middle"):
        read_lm_eval_samples({"a": cut, "b": mmlu["mistral"][1]}, metric="acc")


def test_one_models_lm_eval_files_are_read_when_the_caller_asks_for_one(mmlu):
    """min_models: the per-item report asks for two models (the default), the release gate for one."""
    with pytest.raises(ReportInputError) as info:
        read_lm_eval_samples({"llama": mmlu["llama"]}, metric="acc")
    assert str(info.value) == ("The file holds 1 model ('llama'); the per-item report compares at least two models "
                               "(one file per model).")
    data = read_lm_eval_samples({"llama": mmlu["llama"]}, metric="acc", min_models=1)
    assert data.models == ("llama",) and data.n_items == 387 and data.tasks == tuple(MMLU)
    means = data.item_means()["llama"]
    for path, task in zip(mmlu["llama"], MMLU):
        for r in _lines(path):
            assert means[f"{task}/{r['doc_id']}"] == r["acc"]


# ------------------------------------------------------------------ inspect_ai
@pytest.fixture()
def answers():
    rng = np.random.default_rng(8)
    skill = rng.random(40)
    return {m: rng.random((40, 3)) < np.clip(skill[:, None] + shift, 0, 1)[:, [0, 0, 0]]
            for m, shift in (("a", 0.0), ("b", -0.1))}


def test_inspect_logs_of_two_tasks_are_never_paired_by_id(tmp_path, answers):
    pytest.importorskip("inspect_ai")
    from evallib.report._items_inputs import read_inspect_logs

    one = write_inspect(tmp_path / "a.eval", "m/a", answers["a"], task="quiz")
    two = write_inspect(tmp_path / "b.json", "m/b", answers["b"], task="trivia")
    with pytest.raises(ReportInputError) as info:
        read_inspect_logs([one, two])
    message = str(info.value)
    assert "hold the tasks 'quiz' and 'trivia', but model 'm/a' has no log of task 'trivia'" in message
    assert "never paired by their ids" in message and "\n" not in message
    # one model's logs of two tasks are one evaluation: 80 items, the task as the cluster
    logs = [write_inspect(tmp_path / f"{m}_{t}.json", f"m/{m}", answers[m], task=t)
            for m in ("a", "b") for t in ("quiz", "trivia")]
    data = read_inspect_logs(logs, cluster_key="task")
    assert data.n_items == 80 and data.n_clusters == 2 and data.max_samples == 3
    assert "an item is a task's sample (task/id), 80 items" in data.read_note
    np.testing.assert_allclose(data.item_means().loc[[f"trivia/{i + 1}" for i in range(40)], "m/b"],
                               answers["b"].mean(axis=1))
    # two tasks named as two models (two prompts): paired by id, the inputs checked
    named = read_inspect_logs([one, two], models={one: "plain", two: "cot"})
    assert named.models == ("plain", "cot") and named.n_items == 40
    assert "paired by id" in named.read_note
    odd = write_inspect(tmp_path / "odd.json", "m/b", answers["b"], task="trivia",
                        inputs=[f"Another question {i}?" for i in range(40)])
    with pytest.raises(ReportInputError, match="Sample 1 has one input in .* and another in"):
        read_inspect_logs([one, odd], models={one: "plain", odd: "cot"})


def test_the_epochs_reducer_is_named_with_inspects_own_number(tmp_path, answers):
    pytest.importorskip("inspect_ai")
    from inspect_ai.log import read_eval_log

    from evallib.report._items_inputs import read_inspect_logs

    a = write_inspect(tmp_path / "a.eval", "m/a", answers["a"], reducer="max")
    b = write_inspect(tmp_path / "b.eval", "m/b", answers["b"])
    data = read_inspect_logs([a, b])
    assert data.reducers == ("max", "mean")
    inspect_value = read_eval_log(str(a)).results.scores[0].metrics["accuracy"].value
    assert inspect_value == pytest.approx(answers["a"].max(axis=1).mean())     # what inspect's max reducer gives
    assert f"reduced each sample's epochs with 'max' (inspect_ai's epochs reducer); inspect reports accuracy " \
           f"{inspect_value:.4f}" in data.read_note
    assert (f"the mean over items of each item's max is {inspect_value:.4f} (with 0/1 scores and 3 answers per item: "
            f"pass@3, at least one of the 3 right), while this report's mean over all answers (pass@1) is "
            f"{answers['a'].mean():.4f}.") in data.read_note
    assert data.read_note.count("reduced each sample") == 1   # the mean reducer needs no word


def test_errored_samples_refused_dropped_or_scored_zero(tmp_path, answers):
    pytest.importorskip("inspect_ai")
    from evallib.report._items_inputs import read_inspect_logs

    bad = [(i, 1) for i in range(6)]
    a = write_inspect(tmp_path / "a.json", "m/a", answers["a"], errored=bad)
    b = write_inspect(tmp_path / "b.json", "m/b", answers["b"])
    with pytest.raises(ReportInputError) as info:
        read_inspect_logs([a, b])
    assert str(info.value).startswith(f"6 samples of the 120 in the inspect log {str(a)!r} errored (e.g. sample 1, "
                                      "epoch 1: RuntimeError: the sandbox timed out); choose what they count as with "
                                      "--failed-samples drop")
    dropped = read_inspect_logs([a, b], failed_samples="drop")
    ids = [str(i + 1) for i in range(40)]
    order = [list(dropped.items).index(i) for i in ids]
    assert dropped.sample_counts()[order, 0].tolist() == [2] * 6 + [3] * 34
    expect = [answers["a"][i, 1:].mean() if i < 6 else answers["a"][i].mean() for i in range(40)]
    np.testing.assert_allclose(dropped.item_means().loc[ids, "m/a"].to_numpy(), expect)
    assert f"6 samples of {str(a)!r} errored and were left out." in dropped.read_note
    zero = read_inspect_logs([a, b], failed_samples="zero")
    expect = [(answers["a"][i, 1:].sum()) / 3 if i < 6 else answers["a"][i].mean() for i in range(40)]
    np.testing.assert_allclose(zero.item_means().loc[ids, "m/a"].to_numpy(), expect)
    assert "were scored 0 (wrong)" in zero.read_note


def test_empty_and_truncated_inspect_logs_are_said_in_plain_words(tmp_path, answers):
    pytest.importorskip("inspect_ai")
    from evallib.report._items_inputs import read_inspect_logs

    good = write_inspect(tmp_path / "good.eval", "m/a", answers["a"])
    empty = tmp_path / "empty.eval"
    empty.write_bytes(b"")
    cut = tmp_path / "cut.eval"
    cut.write_bytes(good.read_bytes()[:-200])
    half = tmp_path / "half.json"
    text = write_inspect(tmp_path / "full.json", "m/b", answers["b"]).read_text()
    half.write_text(text[: len(text) // 2])
    for path, fragment in ((empty, "is empty (0 bytes)"), (cut, "is not a complete .eval file"),
                           (half, "is not complete JSON: it was cut off")):
        with pytest.raises(ReportInputError) as info:
            read_inspect_logs([good, path])
        assert fragment in str(info.value) and "EOCD" not in str(info.value), str(info.value)


def test_one_inspect_log_is_read_when_the_caller_asks_for_one(tmp_path, answers):
    pytest.importorskip("inspect_ai")
    from evallib.report._items_inputs import load_items, read_inspect_logs

    log = write_inspect(tmp_path / "a.eval", "m/a", answers["a"])
    with pytest.raises(ReportInputError) as info:
        read_inspect_logs([log])
    assert str(info.value) == ("The file holds 1 model ('m/a'); the per-item report compares at least two models "
                               "(one log per model).")
    data = load_items([log], source_format="inspect", min_models=1)
    assert data.models == ("m/a",) and data.n_items == 40 and data.max_samples == 3
    order = [list(data.items).index(str(i + 1)) for i in range(40)]
    np.testing.assert_allclose(data.item_means()["m/a"].to_numpy()[order], answers["a"].mean(axis=1))


# ------------------------------------------------------------------ the command line (in-process)
def test_cli_names_inspect_logs_and_takes_failed_samples(tmp_path, monkeypatch, capsys):
    from evallib import __main__ as cli
    from evallib.report import _items_runner

    seen = {}

    def fake_run(source, output, **kwargs):
        seen.update(source=source, **kwargs)
        raise ReportInputError("stopped here.")

    monkeypatch.setattr(_items_runner, "run_items_report", fake_run)
    a, b = tmp_path / "plain.eval", tmp_path / "cot.eval"
    status = cli.main(["report", "--inspect-log", f"plain={a}", "--inspect-log", f"cot={b}", "--failed-samples", "drop",
                       "-o", str(tmp_path / "r.html"), "-q"])
    assert status == 1 and "stopped here." in capsys.readouterr().err
    assert seen["source"] == {"plain": [str(a)], "cot": [str(b)]} and seen["source_format"] == "inspect"
    assert seen["failed_samples"] == "drop"
    status = cli.main(["report", "--inspect-log", f"plain={a}", "--inspect-log", str(b), "-o", str(tmp_path / "r.html")])
    assert status == 1
    assert "give every --inspect-log as NAME=FILE once one is named" in capsys.readouterr().err
    status = cli.main(["report", "--lm-eval", f"x={a}", "--lm-eval", f"y={b}", "--failed-samples", "zero",
                       "-o", str(tmp_path / "r.html")])
    assert status == 1 and "--failed-samples applies to --inspect-log files" in capsys.readouterr().err


def test_named_inspect_logs_through_the_reports_entry_point(tmp_path, answers):
    pytest.importorskip("inspect_ai")
    from evallib.report._items_inputs import load_items

    one = write_inspect(tmp_path / "a.eval", "m/same", answers["a"], task="quiz_plain")
    two = write_inspect(tmp_path / "b.eval", "m/same", answers["b"], task="quiz_cot")
    data = load_items({"plain": one, "cot": two}, source_format="inspect")
    assert data.models == ("plain", "cot") and data.n_items == 40
    np.testing.assert_allclose(data.item_means().loc[[str(i + 1) for i in range(40)], "cot"], answers["b"].mean(axis=1))
