"""Notebooks 01-05 end with exercises whose solutions the suite runs and checks.

Each notebook ends with a markdown cell "## Exercises" and one code cell tagged
``solutions`` that starts ``if show_solutions:``; ``show_solutions = False`` is in the
``parameters`` cell. Run with ``show_solutions=True`` (papermill), the cell computes each
answer with evallib, asserts it against an independent value (scipy, statsmodels,
scikit-learn, brute force or a closed form) and prints "solutions ok".
"""

from __future__ import annotations

import re

import pytest

from _nbtools import NOTEBOOK_DIR, load_notebook, outputs_text

NOTEBOOKS = [NOTEBOOK_DIR / f"{name}.ipynb" for name in (
    "01_berrar_lozano", "02_forman_cohen", "03_bizarre_measures", "04_flach_experiments", "05_cv_ttests")]
IDS = [p.stem[:2] for p in NOTEBOOKS]


def _src(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_ends_with_exercises_and_a_guarded_solutions_cell(path):
    nb = load_notebook(path)
    exercises, solutions = nb["cells"][-2:]
    assert exercises["cell_type"] == "markdown" and _src(exercises).startswith("## Exercises")
    assert 2 <= len(re.findall(r"^\d+\. ", _src(exercises), flags=re.M)) <= 4
    assert solutions["cell_type"] == "code" and "solutions" in solutions["metadata"].get("tags", [])
    assert _src(solutions).startswith("if show_solutions:")
    assert sum("solutions" in c["metadata"].get("tags", []) for c in nb["cells"]) == 1
    params = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
    assert "show_solutions = False" in _src(params)
    # saved without the solutions: they are the student's to find
    assert "solutions ok" not in outputs_text(nb) and not solutions.get("outputs")


#: smaller Monte Carlo sizes for the slowest lessons: every solution computes its answer from
#: the run it is in, so it checks out at any size (the default run's numbers have their own tests)
QUICKER = {
    "03_bizarre_measures": dict(n_true=20_000, n_pool=6000, n_test=3000, reps=2000, n_subsamples=300,
                                test_sizes=[400, 1500], repetitions=8, cal_reps=500),
    "05_cv_ttests": dict(n_datasets=200),
}


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_solutions_check_out(path, notebook_runs):
    nb = notebook_runs.executed(path, {**QUICKER.get(path.stem, {}), "show_solutions": True})
    assert "solutions ok" in outputs_text(nb)


#: every lesson: its exercises ask the student to predict, explain or decide before computing
LESSONS = sorted(NOTEBOOK_DIR.glob("0*.ipynb"))


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem[:2] for p in LESSONS])
def test_at_least_three_exercises_ask_to_predict_explain_or_decide_first(path):
    """At least three exercises name what to predict, explain or decide (not only what to
    compute or cross-check), and the solutions cell is collapsed (source and outputs hidden)."""
    nb = load_notebook(path)
    text = next(_src(c) for c in reversed(nb["cells"]) if c["cell_type"] == "markdown"
                and "## Exercises" in _src(c))
    items = re.split(r"^\d+\. ", text[text.index("## Exercises"):], flags=re.M)[1:]
    asking = [i for i, text in enumerate(items, 1)
              if re.search(r"\b(predict|decide|explain|before (computing|you compute|looking|reading|moving))\b",
                           text, flags=re.I)]
    assert len(asking) >= 3, (path.name, asking, items)
    solutions = [c for c in nb["cells"] if "solutions" in c["metadata"].get("tags", [])]
    assert solutions, path.name
    for cell in solutions:
        assert cell["metadata"].get("jupyter") == {"source_hidden": True, "outputs_hidden": True}, path.name


@pytest.mark.parametrize("path", NOTEBOOKS[3:], ids=IDS[3:])
def test_each_predict_first_exercise_of_04_05_prints_its_computed_answer(path):
    """In 04 and 05 each such exercise's solution prints its computed answer ("N. ...")."""
    nb = load_notebook(path)
    exercises, solutions = nb["cells"][-2:]
    items = re.split(r"^\d+\. ", _src(exercises), flags=re.M)[1:]
    asking = [i for i, text in enumerate(items, 1)
              if re.search(r"\b(predict|decide|explain|before (computing|you compute|looking|reading))\b",
                           text, flags=re.I)]
    for number in asking:
        assert re.search(rf'print\(f?"{number}\. ', _src(solutions)), number
