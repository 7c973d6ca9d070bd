"""The private helpers every module shares: rng normalisation, Axes, progress, map, data paths.

References are numpy's own ``default_rng``, scikit-learn's splitters, matplotlib and the
standard library; each check can fail.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
from conftest import ROOT
from sklearn.model_selection import KFold

from evallib._plotting import get_axes
from evallib._progress import parallel_map, progress_bar
from evallib._resources import data_dir, data_path
from evallib._validate import check_rng, sklearn_random_state


# ------------------------------------------------------------------ check_rng (SPEC 7)
def test_int_and_seed_sequence_give_numpys_stream():
    assert np.array_equal(check_rng(7).random(5), np.random.default_rng(7).random(5))
    assert np.array_equal(check_rng(np.int64(7)).random(5), np.random.default_rng(7).random(5))
    ss = np.random.SeedSequence(11)
    assert np.array_equal(check_rng(ss).random(5), np.random.default_rng(np.random.SeedSequence(11)).random(5))


def test_a_generator_is_used_as_given_and_none_is_fresh():
    g = np.random.default_rng(0)
    assert check_rng(g) is g
    a, b = check_rng(None), check_rng()
    assert isinstance(a, np.random.Generator) and a.integers(2**62) != b.integers(2**62)


@pytest.mark.parametrize("bad, exc", [
    (True, TypeError), (1.5, TypeError), ("0", TypeError), (np.random.RandomState(0), TypeError),
    (-1, ValueError),
])
def test_check_rng_rejects_what_is_not_an_rng(bad, exc):
    with pytest.raises(exc, match="rng must be None, an int >= 0, a numpy.random.SeedSequence"):
        check_rng(bad)
    with pytest.raises(exc, match="^seedlike must be"):
        check_rng(bad, "seedlike")


def test_sklearn_random_state():
    assert sklearn_random_state(3) == 3
    x = np.arange(20)
    ours = [t.tolist() for _, t in KFold(4, shuffle=True, random_state=sklearn_random_state(3)).split(x)]
    ref = [t.tolist() for _, t in KFold(4, shuffle=True, random_state=3).split(x)]
    assert ours == ref
    drawn = sklearn_random_state(np.random.default_rng(5))
    assert drawn == int(np.random.default_rng(5).integers(2**31 - 1)) and 0 <= drawn < 2**31 - 1
    with pytest.raises(ValueError, match="rng"):
        sklearn_random_state(-3)


# ------------------------------------------------------------------ get_axes
def test_get_axes_uses_the_given_axes_or_makes_a_figure():
    fig, ax = plt.subplots()
    assert get_axes(ax) is ax
    new = get_axes(figsize=(3.0, 2.0))
    assert new is not ax and tuple(new.figure.get_size_inches()) == (3.0, 2.0)
    assert get_axes(projection="3d").name == "3d"
    plt.close("all")


# ------------------------------------------------------------------ progress and map
def test_progress_bar_is_silent_unless_asked(capsys):
    with progress_bar(False, total=3, unit="x") as bar:
        bar.update(3)
    assert capsys.readouterr().err == ""
    with progress_bar(True, total=3, unit="x") as bar:
        bar.update(3)
    assert "3/3" in capsys.readouterr().err


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_parallel_map_keeps_order(n_jobs, capsys):
    args = [(n, k) for n in range(6, 12) for k in (2, 3)]
    got = list(parallel_map(math.comb, args, n_jobs=n_jobs, total=len(args), progress=True, unit="pair"))
    assert got == [math.comb(n, k) for n, k in args]
    assert f"{len(args)}/{len(args)}" in capsys.readouterr().err


# ------------------------------------------------------------------ data paths
def test_data_paths_are_the_repositorys_data_folder_in_an_editable_install():
    assert data_dir() == ROOT / "data"
    for name in ("berrar_lozano_table2.csv", "critical_values.csv", "flach_example_12_4.csv",
                 "textsim_grid.npz", "example_predictions.csv"):
        assert data_path(name).is_file(), name


def test_data_dir_of_a_stale_editable_install_is_the_checkout(monkeypatch):
    """An editable install from before the data/ mapping cannot import evallib._data."""
    import importlib.resources

    def missing(package):
        raise ModuleNotFoundError(f"No module named {package!r}")

    monkeypatch.setattr(importlib.resources, "files", missing)
    assert data_dir() == ROOT / "data"
