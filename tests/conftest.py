"""Set-up shared by the test files: the repository root, a headless matplotlib, and the public names.

pytest imports this file before any test module, so the Agg backend is chosen before
anything imports pyplot (no window, the same figures on every machine), and test files
take the repository root from here (``from conftest import ROOT``) or from the
``repo_root`` fixture instead of each computing it. The walk over the public namespace
(``public_modules``, ``public_objects``) lives here too, so that the conventions test and
the docstring test check the same names.
"""

from __future__ import annotations

import importlib
import pkgutil
import warnings
from pathlib import Path
from typing import Any

import matplotlib
import pytest

matplotlib.use("Agg")

#: The repository checkout the tests run in.
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository root (the folder holding pyproject.toml)."""
    return ROOT


def public_modules() -> list[Any]:
    """``evallib`` and every module whose dotted name has no private part, at any depth."""
    import evallib
    names = ["evallib"] + sorted(m.name for m in pkgutil.walk_packages(evallib.__path__, "evallib.")
                                 if not any(part.startswith("_") for part in m.name.split(".")))
    return [importlib.import_module(n) for n in names]


def public_objects() -> dict[str, Any]:
    """``module.name`` of each public object (first home found), one entry per object."""
    seen: dict[int, tuple[str, Any]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for module in public_modules():
            for name in getattr(module, "__all__", ()):
                obj = getattr(module, name, None)
                if obj is not None:
                    seen.setdefault(id(obj), (f"{module.__name__}.{name}", obj))
    return dict(seen.values())
