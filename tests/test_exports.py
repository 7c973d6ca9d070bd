"""The promise of ``evallib/__init__.py``: every public name of every module is importable
from ``evallib`` itself, as the same object, and listed in ``evallib.__all__``.

Modules are found at any depth (the design subpackages ``evallib.onetestset`` and the
others); the report's internal modules are left out, its package ``evallib.report`` is in.
``evallib.live`` is left out too: it is the notebooks' widget plumbing (``figure``,
``panel``, ``live_output``), imported as ``from evallib.live import ...``, and its generic
names would read as statistics at the top level."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import evallib

MODULES = sorted(m.name.removeprefix("evallib.")
                 for m in pkgutil.walk_packages(evallib.__path__, "evallib.")
                 if not any(part.startswith("_") for part in m.name.split("."))
                 and not m.name.startswith("evallib.report.") and m.name != "evallib.live")


def _missing(module_name: str) -> list[str]:
    module = importlib.import_module(f"evallib.{module_name}")
    assert hasattr(module, "__all__"), f"evallib.{module_name} has no __all__"
    return [name for name in module.__all__
            if name not in evallib.__all__ or getattr(evallib, name, None) is not getattr(module, name)]


@pytest.mark.parametrize("module_name", MODULES)
def test_every_public_name_is_exported(module_name):
    assert _missing(module_name) == []


def test_all_has_no_duplicates_and_every_name_exists():
    assert len(evallib.__all__) == len(set(evallib.__all__))
    assert [n for n in evallib.__all__ if not hasattr(evallib, n)] == []


def test_the_check_sees_a_missing_name(monkeypatch):
    """Drop one name from evallib.__all__: the check must report it (the test can fail)."""
    monkeypatch.setattr(evallib, "__all__", [n for n in evallib.__all__ if n != "mcnemar"])
    assert _missing("onetestset.pairwise") == ["mcnemar"]


def test_the_modules_are_found_inside_the_subpackages():
    assert {"onetestset", "onetestset.pairwise", "report"} <= set(MODULES)
