"""``make binder-links``: the Binder (JupyterLab) and Voilà links for this clone's GitHub remote.

The README cannot know where a clone is published, so the links are printed from the
``origin`` remote, and the README shows no Binder badge unless it launches this repository
(a badge to mybinder.org's front page launches nothing). Each test copies the Makefile into an empty git repository with two
notebooks and a remote, and runs the target there (it does not build the venv).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None or shutil.which("git") is None,
                                reason="needs make and git")


def _clone_like(tmp_path: Path, remote: str | None) -> Path:
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "notebooks").mkdir()
    for name in ("01_first.ipynb", "02_second.ipynb"):
        (tmp_path / "notebooks" / name).write_text("{}")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    if remote is not None:
        subprocess.run(["git", "-C", str(tmp_path), "remote", "add", "origin", remote], check=True)
    return tmp_path


def _links(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "-s", "-C", str(folder), "binder-links", *args],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("remote", [
    "https://github.com/someone/evalbook.git",
    "https://github.com/someone/evalbook",
    "git@github.com:someone/evalbook.git",
    "ssh://git@github.com/someone/evalbook.git",
])
def test_links_for_each_form_of_a_github_remote(tmp_path, remote):
    out = _links(_clone_like(tmp_path, remote))
    assert out.returncode == 0, out.stderr
    base = "https://mybinder.org/v2/gh/someone/evalbook/HEAD"
    assert out.stdout.splitlines() == [
        f"JupyterLab: {base}?urlpath=lab/tree/notebooks/00_start_here.ipynb",
        f"Voila:      {base}?urlpath=voila/render/notebooks/01_first.ipynb",
        f"Voila:      {base}?urlpath=voila/render/notebooks/02_second.ipynb",
    ]


def test_links_for_another_branch(tmp_path):
    out = _links(_clone_like(tmp_path, "git@github.com:someone/evalbook.git"), "BINDER_REF=main")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "JupyterLab: https://mybinder.org/v2/gh/someone/evalbook/main?urlpath=lab/tree/notebooks/00_start_here.ipynb"


@pytest.mark.parametrize("remote, message", [
    (None, "has no git remote 'origin'"),
    ("https://gitlab.com/someone/evalbook.git", "not a GitHub address"),
])
def test_no_links_without_a_github_remote(tmp_path, remote, message):
    out = _links(_clone_like(tmp_path, remote))
    assert out.returncode != 0
    assert message in out.stderr
    assert out.stdout == ""


def test_binder_repo_gives_the_address_without_a_github_remote(tmp_path):
    """A clone whose remote is not on GitHub (say a local path) names the repository itself
    (``make docs BINDER_REPO=owner/name`` passes it on for the site's lesson pages)."""
    out = _links(_clone_like(tmp_path, "/srv/git/evalbook.git"), "BINDER_REPO=someone/evalbook")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "JupyterLab: https://mybinder.org/v2/gh/someone/evalbook/HEAD?urlpath=lab/tree/notebooks/00_start_here.ipynb"


def test_binder_repo_must_be_owner_slash_name(tmp_path):
    out = _links(_clone_like(tmp_path, None), "BINDER_REPO=https://example.org/x")
    assert out.returncode != 0
    assert "not OWNER/REPO" in out.stderr


def test_the_readme_points_to_the_target():
    readme = (ROOT / "README.md").read_text()
    assert "make binder-links" in readme
    assert "OWNER/REPO" not in readme


_BADGE = re.compile(r"\[!\[[^\]]*\]\([^)]*\)\]\(([^)\s]*)\)")     # [![alt](image)](target)
_LAUNCH = re.compile(r"https://mybinder\.org/v2/gh/([^/?#]+)/([^/?#]+)/[^/?#]+")


def binder_badges_that_launch_nothing(readme: str, slug: str | None) -> list[str]:
    """Targets of badges to mybinder.org that are not this repository's launch URL.

    A badge must open the repository on Binder (``/v2/gh/OWNER/REPO/REF``); with the clone's
    GitHub ``slug`` known, OWNER/REPO must be it.
    """
    bad = []
    for target in _BADGE.findall(readme):
        if "mybinder.org" not in target:
            continue
        launch = _LAUNCH.match(target)
        if not launch or (slug is not None and f"{launch[1]}/{launch[2]}".lower() != slug.lower()):
            bad.append(target)
    return bad


def _origin_slug() -> str | None:
    out = subprocess.run(["git", "-C", str(ROOT), "remote", "get-url", "origin"], capture_output=True, text=True)
    m = re.match(r"^(?:https://|ssh://git@|git@)github\.com[:/]([^/]+/[^/]+?)(?:\.git)?$", out.stdout.strip())
    return m[1] if out.returncode == 0 and m else None


def test_the_readme_has_no_binder_badge_that_launches_nothing():
    front_page = "[![Binder](https://mybinder.org/badge_logo.svg)](https://mybinder.org)"
    assert binder_badges_that_launch_nothing(front_page, None) == ["https://mybinder.org"]
    own = "[![Binder](https://mybinder.org/badge_logo.svg)](https://mybinder.org/v2/gh/someone/evalbook/HEAD)"
    assert binder_badges_that_launch_nothing(own, None) == []
    assert binder_badges_that_launch_nothing(own, "other/book") == [own.split("](")[-1][:-1]]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert binder_badges_that_launch_nothing(readme, _origin_slug()) == []
