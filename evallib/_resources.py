"""Where evallib's shipped data files are: the one module that knows.

The files live in the repository's ``data/`` folder (documented by ``data/README.md``);
pyproject.toml installs that folder as the package ``evallib._data``, so
``importlib.resources`` finds them in an editable install (the repository's folder itself)
and in a wheel (inside site-packages) alike. Nothing here depends on the working directory.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["data_dir", "data_path", "report_notebook"]

_PACKAGE = "evallib._data"


def data_dir() -> Path:
    """The folder holding the shipped data files (the repository's ``data/`` when editable).

    An editable install made before pyproject.toml mapped ``data/`` onto ``evallib._data``
    cannot import that package; it still runs from a checkout, so the checkout's ``data/``
    is used then (``make venv`` reinstalls and removes the need).
    """
    try:
        return Path(str(resources.files(_PACKAGE)))
    except ModuleNotFoundError:
        checkout = Path(__file__).resolve().parents[1] / "data"
        if (checkout / "__init__.py").is_file():
            return checkout
        raise


def data_path(name: str) -> Path:
    """The path of the shipped data file ``name`` (e.g. ``"critical_values.csv"``).

    The path may not exist (a file not generated yet); callers say what to run then.
    """
    return data_dir() / name


def report_notebook() -> Path:
    """The report's template notebook, ``notebooks/report.ipynb``.

    A wheel ships it as ``evallib/_notebooks/report.ipynb`` (pyproject.toml maps the
    repository's ``notebooks/`` onto ``evallib._notebooks`` and keeps only this file), so
    ``python -m evallib report`` runs outside the checkout. An editable install has no
    importable ``evallib._notebooks`` (the folder has no ``__init__.py``: the students'
    notebooks folder stays free of package files), and reads the checkout's copy.
    """
    try:
        return Path(str(resources.files("evallib._notebooks") / "report.ipynb"))
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[1] / "notebooks" / "report.ipynb"
