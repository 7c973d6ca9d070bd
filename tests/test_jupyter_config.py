"""The Jupyter settings the project ships take effect: JupyterLab asks about no news, Voila drops author cells.

``etc/jupyter`` and ``etc/share/jupyter`` hold the settings, copied to an environment's prefix;
``make venv`` copies them into the venv and ``binder/postBuild`` into Binder's
environment, with the same ``cp -R etc/jupyter PREFIX/etc/ && cp -R etc/share PREFIX/``. Here they are copied the same
way into a temporary prefix that Jupyter is pointed at (``JUPYTER_CONFIG_PATH``,
``JUPYTER_PATH``), with a user configuration folder of its own, and then:

* a running JupyterLab's settings API serves ``fetchNews = "false"`` and
  ``checkForUpdates = false`` as the defaults of
  ``@jupyterlab/apputils-extension:notification`` (the "Would you like to get notified
  about official Jupyter news?" prompt appears only while ``fetchNews`` is ``"none"``);
* Voila, standalone (``make app``) and as the server's extension (``/voila/render``, as
  on Binder), renders a small notebook without its cells tagged ``author`` or
  ``solutions`` and with the others.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import pytest
from _servers import free_port, stop, wait_for_http
from conftest import ROOT

BIN = Path(sys.executable).parent
SERVER_START_S = 180
NOTIFICATION = "@jupyterlab/apputils-extension:notification"
KEPT, AUTHOR, SOLUTION = "KEPT-CELL-MARKER", "AUTHOR-NOTE-MARKER", "SOLUTION-CELL-MARKER"


def _installed_prefix(tmp: Path) -> Path:
    prefix = tmp / "prefix"
    prefix.mkdir()
    (prefix / "etc").mkdir()        # as the Makefile and binder/postBuild copy them
    subprocess.run(["cp", "-R", "etc/jupyter", f"{prefix}/etc/"], cwd=ROOT, check=True)
    subprocess.run(["cp", "-R", "etc/share", f"{prefix}/"], cwd=ROOT, check=True)
    return prefix


def _env(prefix: Path, tmp: Path) -> dict[str, str]:
    return dict(os.environ, JUPYTER_CONFIG_PATH=str(prefix / "etc" / "jupyter"),
                JUPYTER_PATH=str(prefix / "share" / "jupyter"), JUPYTER_CONFIG_DIR=str(tmp / "user-config"),
                JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), PYTHONPATH=os.pathsep.join(
                    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))


def _get(url: str, timeout: float = 120) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as err:
        return err.code, ""


def _start(cmd: list[str], env: dict, log: Path) -> subprocess.Popen:
    with log.open("w") as out:
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=log.parent)


def _tagged_notebook(folder: Path) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nb.cells = [
        nbformat.v4.new_markdown_cell(f"The next cell is tagged parameters. {AUTHOR}", metadata={"tags": ["author"]}),
        nbformat.v4.new_code_cell(f"print('{KEPT[:4]}' + '{KEPT[4:]}')"),
        nbformat.v4.new_code_cell(f"print('{SOLUTION[:4]}' + '{SOLUTION[4:]}')", metadata={"tags": ["solutions"]}),
    ]
    path = folder / "tagged.ipynb"
    nbformat.write(nb, path)
    return path


def _assert_author_cells_dropped(page: str, where: str) -> None:
    assert KEPT in page, f"{where}: the untagged cell did not run:\n{page[-2000:]}"
    assert AUTHOR not in page, f"{where} shows the cell tagged author"
    assert SOLUTION not in page, f"{where} ran the cell tagged solutions"


# --------------------------------------------------------------------------- install


def test_make_venv_and_postbuild_copy_the_same_folders():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    post = (ROOT / "binder" / "postBuild").read_text(encoding="utf-8")
    assert 'mkdir -p "$(VENV)/etc" && cp -R etc/jupyter "$(VENV)/etc/" && cp -R etc/share "$(VENV)/"' in makefile
    assert 'mkdir -p "$prefix/etc" && cp -R etc/jupyter "$prefix/etc/" && cp -R etc/share "$prefix/"' in post and "prefix=\"$(python -c 'import sys; print(sys.prefix)')\"" in post
    assert "JUPYTER_FILES := $(sort $(shell find etc -type f" in makefile


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize("changed", ["etc/jupyter/voila.json", "etc/share/jupyter/nbconvert/templates/evallib/index.html.j2"])
def test_a_changed_settings_file_makes_the_venv_copy_again(tmp_path, changed):
    """The stamp depends on every file under etc/: `make -n` plans the copy when one is newer."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / ".installed").touch()
    run = ["make", "-n", "-C", str(ROOT), f"VENV={venv}", "venv"]
    fresh = subprocess.run(run, capture_output=True, text=True, check=True).stdout
    assert "cp -R etc/jupyter" not in fresh, fresh
    stale = subprocess.run([*run, "-W", changed], capture_output=True, text=True, check=True).stdout
    assert f'cp -R etc/share "{venv}/"' in stale, stale


def test_the_settings_files_are_valid_json():
    files = sorted((ROOT / "etc").rglob("*.json"))
    assert len(files) >= 5
    for path in files:
        json.loads(path.read_text(encoding="utf-8"))
    voila = json.loads((ROOT / "etc/jupyter/voila.json").read_text(encoding="utf-8"))
    assert voila["VoilaExporter"]["TagRemovePreprocessor"]["remove_cell_tags"] == ["author", "solutions"]


# --------------------------------------------------------------------------- running servers


@pytest.mark.slow
def test_lab_asks_about_no_news_and_voila_drops_author_cells(tmp_path):
    """JupyterLab (its settings, and Voila as its extension) and the Voila app, started side by side."""
    prefix = _installed_prefix(tmp_path)
    env = _env(prefix, tmp_path)
    root = tmp_path / "root"
    root.mkdir()
    notebook = _tagged_notebook(root)
    lab_port, app_port, token = free_port(), free_port(), secrets.token_hex(16)
    lab = [str(BIN / "jupyter"), "lab", "--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={lab_port}",
           "--ServerApp.port_retries=0", f"--ServerApp.root_dir={root}", f"--IdentityProvider.token={token}",
           f"--LabApp.user_settings_dir={tmp_path / 'user-settings'}",
           f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}", "--ServerApp.allow_root=True"]
    app = [str(BIN / "voila"), str(notebook), "--no-browser", "--Voila.ip=127.0.0.1", f"--port={app_port}",
           "--Voila.port_retries=0"]
    lab_url, app_url = f"http://127.0.0.1:{lab_port}", f"http://127.0.0.1:{app_port}"
    procs = []
    try:
        procs.append((_start(lab, env, tmp_path / "lab.log"), f"{lab_url}/api/status?token={token}", tmp_path / "lab.log"))
        procs.append((_start(app, env, tmp_path / "voila.log"), f"{app_url}/voila/static/", tmp_path / "voila.log"))
        for proc, url, log in procs:
            wait_for_http(url, proc, SERVER_START_S, log, any_status=True)

        status, body = _get(f"{lab_url}/lab/api/settings/{NOTIFICATION}?token={token}")
        assert status == 200
        settings = json.loads(body)
        defaults = {k: v.get("default") for k, v in settings["schema"]["properties"].items()}
        assert defaults["fetchNews"] == "false" and defaults["checkForUpdates"] is False, defaults
        assert settings["settings"] == {}, "a fresh user has no setting of their own"

        status, page = _get(f"{lab_url}/voila/render/{notebook.name}?token={token}")
        assert status == 200
        _assert_author_cells_dropped(page, "Voila in JupyterLab (Binder's urlpath=voila/render)")
        status, page = _get(f"{app_url}/")
        assert status == 200
        _assert_author_cells_dropped(page, "the Voila app (make app)")
    finally:
        for proc, _, _ in procs:
            stop(proc)
