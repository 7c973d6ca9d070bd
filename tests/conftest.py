"""Set-up shared by the test files: the repository root and a headless matplotlib.

pytest imports this file before any test module, so the Agg backend is chosen before
anything imports pyplot (no window, the same figures on every machine), and test files
take the repository root from here (``from conftest import ROOT``) or from the
``repo_root`` fixture instead of each computing it.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

#: The repository checkout the tests run in.
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository root (the folder holding pyproject.toml)."""
    return ROOT
