"""numpydoc's docstring validation over every public name.

The names are those the conventions test walks (``conftest.public_objects``: ``evallib.__all__``
and the ``__all__`` of every public module, one entry per object; deprecated aliases are not
in any ``__all__`` and are not documented separately). For each public function, each public
class and each public method a class defines, :func:`numpydoc.validate.validate` runs and
the test fails on the checks in ``CHECKS``:

- ``GL08`` no docstring;
- ``PR01`` a parameter of the signature is not documented, ``PR02`` a documented parameter is
  not in the signature, ``PR03`` they are documented in another order, ``PR10`` a parameter
  line lacks the space before its colon;
- ``RT01`` no Returns section in a function that returns something, ``RT02`` the first line
  of a one-value Returns section names the value instead of giving its type.

A result record (a dataclass or named tuple, which the library builds and the user reads) is
documented by its Attributes section instead of Parameters: every field must be named there.
Each check is also run on deliberately bad functions, so that the test can fail.

Every public name passes; there is no list of exceptions.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest
from numpydoc.docscrape import get_doc_object
from numpydoc.validate import validate

from conftest import public_objects

#: The numpydoc checks every public docstring passes.
CHECKS = {"GL08", "PR01", "PR02", "PR03", "PR10", "RT01", "RT02"}


def _is_record(obj: Any) -> bool:
    return inspect.isclass(obj) and (dataclasses.is_dataclass(obj) or hasattr(obj, "_fields"))


def public_docstrings() -> dict[str, Any]:
    """``module.qualname`` of each public function, class and public method a class defines."""
    out: dict[str, Any] = {}
    for obj in public_objects().values():
        if not (inspect.isfunction(obj) or inspect.isclass(obj) or hasattr(obj, "__wrapped__")):
            continue  # constants
        target = inspect.unwrap(obj)
        if not getattr(target, "__module__", "").startswith("evallib"):
            continue
        out[f"{target.__module__}.{target.__qualname__}"] = obj
        if inspect.isclass(obj):
            for name, member in vars(obj).items():
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if not name.startswith("_") and inspect.isfunction(member):
                    out[f"{obj.__module__}.{obj.__qualname__}.{name}"] = getattr(obj, name)
    return out


def _split_names(entries) -> set[str]:
    return {name.strip() for entry in entries for name in entry.name.split(",") if name.strip()}


def docstring_violations(obj: Any, checks: set[str] = CHECKS) -> list[str]:
    """numpydoc's errors among ``checks``, as ``"CODE message"``; a record's undocumented fields."""
    errors = validate(get_doc_object(obj))["errors"]
    if _is_record(obj):  # fields are Attributes, not constructor Parameters
        if (obj.__doc__ or "").startswith(f"{obj.__name__}("):  # dataclass's made-up docstring
            return ["GL08 The object does not have a docstring"]
        errors = [e for e in errors if e[0] not in {"PR01", "PR02", "PR03"}]
        fields = ([f.name for f in dataclasses.fields(obj)] if dataclasses.is_dataclass(obj)
                  else list(obj._fields))
        doc = get_doc_object(obj)
        documented = _split_names(doc["Attributes"]) | _split_names(doc["Parameters"])
        missing = [f for f in fields if f not in documented and not f.startswith("_")]
        if missing:
            errors.append(("AT01", f"Fields {missing} not in the Attributes section"))
    return [f"{code} {message}" for code, message in errors if code in checks | {"AT01"}]


DOCSTRINGS = public_docstrings()


def test_the_walk_finds_functions_classes_and_methods():
    names = set(DOCSTRINGS)
    assert {"evallib.onetestset._scoring.delong_pairwise", "evallib.onetestset._nullbest.judge_winner",
            "evallib.onetestset._scoring.DeLong", "evallib.onetestset._scoring.DeLong.pairwise",
            "evallib.report._runner.run_report", "evallib.lessons.live.figure"} <= names
    assert len(names) > 400


@pytest.mark.parametrize("name", sorted(DOCSTRINGS))
def test_every_public_docstring_passes_numpydoc_validation(name):
    assert docstring_violations(DOCSTRINGS[name]) == []


# ------------------------------------------------------------------ the checks can fail
def _no_parameters(x, alpha=0.05):
    """Compute something from ``x``.

    Returns
    -------
    float
        The something.
    """
    return x * alpha


def _no_returns(x):
    """Compute something from ``x``.

    Parameters
    ----------
    x : float
        The input.
    """
    return 2 * x


def _unknown_parameter(x):
    """Compute something from ``x``.

    Parameters
    ----------
    x : float
        The input.
    y : float
        Not a parameter.

    Returns
    -------
    float
        Twice ``x``.
    """
    return 2 * x


def _no_docstring(x):
    return x


def _codes(obj) -> list[str]:
    return [v.split()[0] for v in docstring_violations(obj)]


def test_a_function_without_its_parameters_fails():
    assert _codes(_no_parameters) == ["PR01"]
    assert "'alpha'" in docstring_violations(_no_parameters)[0]


def test_a_function_without_returns_an_unknown_parameter_or_no_docstring_fails():
    assert _codes(_no_returns) == ["RT01"]
    assert _codes(_unknown_parameter) == ["PR02"]
    assert _codes(_no_docstring) == ["GL08"]


def test_a_documented_function_passes():
    def good(x, alpha=0.05):
        """Compute something from ``x``.

        Parameters
        ----------
        x : float
            The input.
        alpha : float, default 0.05
            The level.

        Returns
        -------
        float
            ``x * alpha``.
        """
        return x * alpha

    assert docstring_violations(good) == []


def test_a_record_with_an_undocumented_field_fails():
    @dataclasses.dataclass(frozen=True)
    class Result:
        """A result.

        Attributes
        ----------
        estimate : float
            The estimate.
        """

        estimate: float
        se: float

    assert _codes(Result) == ["AT01"]
    assert "'se'" in docstring_violations(Result)[0]

    @dataclasses.dataclass(frozen=True)
    class Bare:
        estimate: float

    assert _codes(Bare) == ["GL08"]
