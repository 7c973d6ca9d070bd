"""Starting and stopping the Jupyter servers the browser and configuration tests run.

A plain module, not a test file (imported as ``from _servers import ...``, like
``_nbtools``): a free port, polling a URL until the server answers, stopping it, and the
headless Chromium the browser tests drive (tests/test_browser.py, tests/test_docs_site.py).
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

#: Debian's Chromium, driven through Playwright's sync API (no browser is downloaded).
CHROMIUM = Path("/usr/bin/chromium")

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@contextlib.contextmanager
def chromium_browser():
    """A headless :data:`CHROMIUM` driven by Playwright's sync API, closed when the block
    ends; skips the test where Playwright is not installed."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_http(url: str, proc: subprocess.Popen, timeout: float, log: Path, *, any_status: bool = False) -> None:
    """Poll ``url`` until it answers 200 (any HTTP status if ``any_status``).

    Fails with the tail of the server's log if the server dies or does not answer in time.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except urllib.error.HTTPError:
            if any_status:
                return
        except OSError:
            pass
        time.sleep(0.25)
    pytest.fail(f"no answer from {url} after {timeout} s:\n{log.read_text()[-3000:]}")


def stop(proc: subprocess.Popen) -> None:
    """Stop a server we started: SIGTERM (Jupyter shuts its kernels down), then SIGKILL."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
