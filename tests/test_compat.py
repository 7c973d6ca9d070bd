"""Old spellings keep working for one release (evallib._compat), and say what replaced them.

Three levels: (1) every keyword of 0.1.0 (``tests/data/api_0_1_0.json``) is still a parameter or
a keyword that :func:`evallib._compat.renamed_keywords` translates; (2) for every renamed keyword
the wrapper hands the value to the new parameter and warns once, naming the new spelling, at the
caller's line; (3) on real calls, the old spelling gives the same result as the new one
(reference: the same call with the new keyword and the same seed).
"""

from __future__ import annotations

import inspect
import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import evallib
import evallib.lessons
from evallib import _compat

ROOT = Path(__file__).resolve().parents[1]
API = json.loads((ROOT / "tests" / "data" / "api_0_1_0.json").read_text(encoding="utf-8"))


def _lookup(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return getattr(evallib, name)


FUNCTIONS = {name: entry for name, entry in sorted(API["names"].items()) if entry["kind"] == "function"}
RENAMED = {name: _lookup(name) for name in FUNCTIONS
           if hasattr(_lookup(name), "__deprecated_keywords__")}
PAIRS = [(name, old, new) for name, f in RENAMED.items() for old, new in f.__deprecated_keywords__.items()]


# ------------------------------------------------------------------ (1) every 0.1.0 keyword still works
@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_every_keyword_of_0_1_0_is_accepted(name):
    func = _lookup(name)
    params = set(inspect.signature(func).parameters)
    renamed = {*getattr(func, "__deprecated_keywords__", {}), *getattr(func, "__deprecated_flags__", ())}
    lost = [p for p in FUNCTIONS[name]["params"] if p not in params and p not in renamed]
    assert lost == [], (f"{name} no longer accepts {lost}: rename them through evallib._compat.renamed_keywords "
                        "(or renamed_flags)")


def test_the_renames_of_this_release_are_all_there():
    """The signature renames of 0.2.0 (docs/conventions.md): draws, and the F1 power simulation's two counts."""
    by_old = {}
    for name, old, new in PAIRS:
        by_old.setdefault((old, new), set()).add(name)
    assert len(by_old[("reps", "n_resamples")]) == 23
    assert len(by_old[("n_sim", "n_resamples")]) == 5
    assert by_old[("n_sim", "repetitions")] == {"f1_bootstrap_power", "f1_power_curve"}
    assert by_old[("n_boot", "n_resamples")] >= {"item_mean", "paired_item_difference", "rank_intervals"}
    assert by_old[("n_samples", "n_resamples")] >= {"bayesian_signed_rank", "bayesian_sign_test",
                                                   "plot_bayesian_signed_rank", "hierarchical_test"}


# ------------------------------------------------------------------ (2) the wrapper of each renamed keyword
@pytest.mark.parametrize("name, old, new", PAIRS)
def test_each_old_keyword_reaches_the_new_parameter_and_warns(name, old, new, monkeypatch):
    """The wrapped function is swapped for a recorder, so nothing is computed: the wrapper
    must pass ``old=`` on as ``new=`` and warn, naming both, at this file's line."""
    wrapper = RENAMED[name]
    cells = dict(zip(wrapper.__code__.co_freevars, wrapper.__closure__))
    seen = {}

    def recorder(*args, **kwargs):
        seen.update(kwargs)
        return "called"

    original = cells["func"].cell_contents
    recorder.__name__ = original.__name__
    cells["func"].cell_contents = recorder
    try:
        with pytest.warns(DeprecationWarning) as record:
            assert wrapper(**{old: 7}) == "called"
        with pytest.raises(TypeError, match=f"got both {old}= .deprecated. and {new}="):
            wrapper(**{old: 7, new: 7})
    finally:
        cells["func"].cell_contents = original
    assert seen == {new: 7}
    assert len(record) == 1
    message = str(record[0].message)
    assert f"{name}({old}=...)" in message and f"use {new}=" in message and "0.3.0" in message
    assert record[0].filename == __file__


def test_the_recorder_trick_reaches_the_real_function():
    """The closure cell swapped above is the one that holds the decorated function."""
    f = RENAMED["bootstrap_f1_difference"]
    cells = dict(zip(f.__code__.co_freevars, f.__closure__))
    assert cells["func"].cell_contents is inspect.unwrap(f)


# ------------------------------------------------------------------ (3) the same result, old and new
Y = np.array([1, 0, 1, 1, 0, 1, 0, 0, 1, 1] * 4)
A = np.array([1, 0, 1, 0, 0, 1, 1, 0, 1, 1] * 4)
B = np.array([1, 1, 1, 1, 0, 0, 0, 0, 1, 0] * 4)
X = np.array([0.80, 0.71, 0.93, 0.66, 0.72, 0.81, 0.90, 0.55, 0.77, 0.69])
Z = X + np.array([0.02, -0.01, 0.03, 0.01, 0.00, 0.02, 0.04, -0.02, 0.01, 0.03])

CALLS = [
    ("bootstrap_f1_difference", "reps", lambda **k: evallib.bootstrap_f1_difference(Y, A, B, rng=1, **k), 200),
    ("f1_percentile_intervals", "reps",
     lambda **k: evallib.f1_percentile_intervals(evallib.joint_events(Y, A, B), rng=1, **k), 200),
    ("cochran_q", "reps",
     lambda **k: evallib.cochran_q(np.column_stack([Y == A, Y == B, Y == Y]), method="permutation", rng=2, **k), 300),
    ("simulate_null", "reps", lambda **k: evallib.simulate_null("auc", 5, 5, rng=3, **k), 500),
    ("qh_coverage", "reps", lambda **k: evallib.qh_coverage(0.1, 0.05, 40, rng=4, **k), 200),
    ("item_mean", "n_boot", lambda **k: evallib.item_mean(X, method="wild", rng=5, **k), 199),
    ("rank_intervals", "n_boot", lambda **k: evallib.rank_intervals({"a": X, "b": Z}, rng=6, **k), 100),
    ("paired_item_coverage", "n_sim",
     lambda **k: evallib.lessons.paired_item_coverage(n_items=40, cluster_size=4, rng=7, **k), 20),
    ("nemenyi_power_curve", "n_sim", lambda **k: evallib.nemenyi_power_curve(3, 0.5, 12, rng=8, **k), 20),
    ("bayesian_signed_rank", "n_samples", lambda **k: evallib.bayesian_signed_rank(X, Z, rng=9, **k), 500),
    ("bayesian_sign_test", "n_samples", lambda **k: evallib.bayesian_sign_test(X, Z, rng=9, **k), 500),
]


def _same(a, b):
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b)
    elif isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, b)
    else:
        for field in ("low", "high", "pvalue", "p_left", "p_right", "statistic"):
            if hasattr(a, field):
                assert getattr(a, field) == getattr(b, field), field
        assert repr(a) == repr(b)


@pytest.mark.parametrize("name, old, call, value", CALLS, ids=[c[0] for c in CALLS])
def test_the_old_keyword_gives_the_same_result(name, old, call, value):
    new = RENAMED[name].__deprecated_keywords__[old]
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        expected = call(**{new: value})
    with pytest.warns(DeprecationWarning, match=f"use {new}="):
        got = call(**{old: value})
    _same(expected, got)


def test_f1_power_takes_both_old_counts():
    events = [30, 10, 8, 40, 5, 3, 4, 900]
    new = evallib.f1_bootstrap_power(200, events, n_resamples=50, repetitions=20, rng=3)
    with pytest.warns(DeprecationWarning) as record:
        old = evallib.f1_bootstrap_power(200, events, reps=50, n_sim=20, rng=3)
    assert sorted(str(w.message).split("; use ")[1].split()[0] for w in record) == ["n_resamples=", "repetitions="]
    assert (old.power, old.mcse) == (new.power, new.mcse)


# ------------------------------------------------------------------ renamed option strings
@pytest.mark.parametrize("call", [
    lambda m: evallib.mcnemar_power(120, 0.12, 0.04, method=m),
    lambda m: evallib.mcnemar_sample_size(0.12, 0.04, method=m),
    lambda m: evallib.minimum_detectable_difference(200, 0.2, method=m),
    lambda m: evallib.mcnemar_power_curve([50, 100], 0.12, 0.04, methods=("exact", m)),
])
@pytest.mark.parametrize("old, new", [("midp", "mid-p"), ("asymptotic", "chi2")])
def test_midp_still_means_mid_p(call, old, new):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        expected = call(new)
    with pytest.warns(DeprecationWarning, match=f"'{old}' is deprecated .*'{new}'") as record:
        got = call(old)
    assert record[0].filename == __file__
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(expected, got)
    else:
        assert got == expected


def test_midp_test_of_the_planning_write_ups():
    expected = evallib.interval_and_power_summary(0.1, 0.2, 200, test="mid-p")
    with pytest.warns(DeprecationWarning, match="test='midp'") as record:
        assert evallib.interval_and_power_summary(0.1, 0.2, 200, test="midp") == expected
    assert record[0].filename == __file__


def test_mid_p_in_a_methods_tuple_warns_at_the_caller():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    with pytest.warns(DeprecationWarning, match="methods='mid_p'") as record:
        evallib.plot_interval_coverage(20, methods=("wilson", "mid_p"), ax=ax)
    plt.close(fig)
    assert record[0].filename == __file__


def test_mid_p_accuracy_interval_is_mid_p():
    expected = evallib.accuracy_interval(81, 263, method="mid-p")
    with pytest.warns(DeprecationWarning, match="method='mid_p'") as record:
        got = evallib.accuracy_interval(81, 263, method="mid_p")
    assert record[0].filename == __file__
    assert (got.low, got.high) == (expected.low, expected.high)
    with pytest.warns(DeprecationWarning):
        cov = evallib.accuracy_interval_coverage(30, [0.5, 0.9], method="mid_p")
    np.testing.assert_array_equal(cov, evallib.accuracy_interval_coverage(30, [0.5, 0.9], method="mid-p"))
    assert _compat.MID_P == {"midp": "mid-p", "mid_p": "mid-p"}


# ------------------------------------------------------------------ boolean flags -> one choice
def _flagged():
    @_compat.renamed_flags("method", {"correction": True, "exact": False},
                           {(True, False): "yates", (False, False): "plain", (True, True): "exact",
                            (False, True): "exact"})
    def f(x, *, method="yates"):
        return x, method

    return f


def test_renamed_flags_maps_each_accepted_combination_and_warns_once():
    f = _flagged()
    assert f(1) == (1, "yates")
    cases = {("exact",): (dict(exact=True), "exact"), ("correction",): (dict(correction=False), "plain"),
             ("both",): (dict(correction=False, exact=True), "exact"), ("default",): (dict(correction=True), "yates")}
    for kwargs, want in cases.values():
        with pytest.warns(DeprecationWarning) as record:
            assert f(2, **kwargs) == (2, want)
        assert len(record) == 1 and record[0].filename == __file__
        message = str(record[0].message)
        assert f"use method={want!r} instead" in message and "0.3.0" in message
        assert all(f"{k}={v!r}" in message for k, v in kwargs.items())
    assert f.__deprecated_flags__ == ("correction", "exact")
    assert "correction" not in inspect.signature(f).parameters


@pytest.mark.parametrize("kwargs, match", [
    (dict(method="plain", exact=True), "got method='plain' and the deprecated exact=True; pass only method="),
    (dict(method="exact", exact=True), "pass only method="),
    (dict(exact="yes"), "exact must be True or False, got 'yes'"),
])
def test_renamed_flags_refuses_a_flag_beside_the_choice_or_not_a_bool(kwargs, match):
    with pytest.raises(ValueError, match=match):
        _flagged()(1, **kwargs)


def test_renamed_flags_refuses_contradicting_flags():
    @_compat.renamed_flags("method", {"exact": False, "mid_p": False},
                           {(False, False): "chi2", (True, False): "exact", (False, True): "mid-p"})
    def g(*, method="chi2"):
        return method

    with pytest.raises(ValueError, match="g.. got exact=True, mid_p=True: exact and mid_p contradict each other; "
                                         "pass one method= of 'chi2', 'exact', 'mid-p'"):
        g(exact=True, mid_p=True)
    with pytest.warns(DeprecationWarning):
        assert g(exact=False, mid_p=False) == "chi2"


def test_renamed_flags_checks_the_function_it_decorates():
    with pytest.raises(AssertionError, match="no parameter 'method'"):
        _compat.renamed_flags("method", {"exact": False}, {(False,): "a"})(lambda *, how="a": how)
    with pytest.raises(AssertionError, match="still has the old flags"):
        _compat.renamed_flags("method", {"exact": False}, {(False,): "a"})(lambda *, method="a", exact=False: 0)
    with pytest.raises(AssertionError, match="tuple of 1 flags"):
        _compat.renamed_flags("method", {"exact": False}, {(False, True): "a"})


MCNEMAR_FLAGS = [(dict(correction=True), "chi2-yates"), (dict(correction=False), "chi2"),
                 (dict(exact=True), "exact"), (dict(exact=True, correction=False), "exact"),
                 (dict(mid_p=True), "mid-p"), (dict(mid_p=True, correction=False), "mid-p"),
                 (dict(exact=False, mid_p=False), "chi2-yates")]


@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
@pytest.mark.parametrize("flags, method", MCNEMAR_FLAGS)
def test_mcnemars_old_flags_give_the_method_they_meant(flags, method, alternative):
    """0.1.0's flags of mcnemar: the same result as method=, with one warning naming it."""
    expected = evallib.mcnemar(4, 15, method=method, alternative=alternative)
    with pytest.warns(DeprecationWarning, match=f"use method='{method}'") as record:
        got = evallib.mcnemar(4, 15, alternative=alternative, **flags)
    assert len(record) == 1 and record[0].filename == __file__
    assert got == expected and got.method == method


@pytest.mark.parametrize("kwargs", [dict(exact=True, mid_p=True), dict(method="exact", exact=True),
                                    dict(method="chi2", correction=False), dict(method="mid-p", mid_p=False)])
def test_mcnemars_contradicting_spellings_are_a_value_error(kwargs):
    with pytest.raises(ValueError, match="|".join(k for k in kwargs)):
        evallib.mcnemar(4, 15, **kwargs)



def test_power_methods_are_mcnemars_test_names():
    """0.1.0's "asymptotic" (Connor's approximation) is the power of McNemar's "chi2" test."""
    assert evallib.POWER_METHODS == ("exact", "mid-p", "chi2")
    assert set(evallib.POWER_METHODS) <= set(evallib.onetestset.TEST_METHODS)
    with pytest.warns(DeprecationWarning):
        curve = evallib.mcnemar_power_curve([50, 100], 0.12, 0.04, methods=("exact", "asymptotic"))
    assert list(curve["method"]) == ["exact", "exact", "chi2", "chi2"]


@pytest.mark.parametrize("call", [
    lambda m: evallib.cochran_q(np.column_stack([Y == A, Y == B, Y == Y]), method=m),
    lambda m: evallib.cochran_q_predictions(Y, {"A": A, "B": B, "Y": Y}, method=m),
])
def test_cochran_chi_square_is_chi2(call):
    expected = call("chi2")
    with pytest.warns(DeprecationWarning, match="method='chi-square' is deprecated .*method='chi2'") as record:
        got = call("chi-square")
    assert record[0].filename == __file__
    assert got == expected and got.method == "chi2"
