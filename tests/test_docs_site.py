"""The workbook's site (``make docs``) in a real browser: Debian's Chromium through Playwright.

The site is built once per test session by ``make docs`` into a temporary folder (with the
venv of the running interpreter and no Binder address, as a clone without a GitHub remote
builds it; ``EVALLIB_DOCS_HTML=docs/_build/html`` reuses a build instead), served from 127.0.0.1 by a small static server, and opened in Chromium:

* the search page finds ``mcnemar`` and ``paired_item_difference``;
* a lesson page shows its figures (loaded, each with alt text) and rendered mathematics
  (MathJax's output elements), its solutions folded (a closed ``<details>``), its author
  notes left out, and the sentence that replaces the Binder link, and its download link
  serves the notebook;
* every public name of every public namespace (walked here from the ``__all__`` lists,
  independently of the site's generator) has its API page, carrying that object;
* no page visited requests anything outside the site (every request is recorded);
* axe-core (vendored in the ``axe-playwright-python`` package, the docs extra) reports no
  serious or critical violation on the home page, one lesson and one API page.

Skipped with a reason without ``/usr/bin/chromium``, Playwright or the docs extra.
"""

from __future__ import annotations

import functools
import http.server
import importlib
import json
import os
import pkgutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from _servers import CHROMIUM, chromium_browser

ROOT = Path(__file__).resolve().parents[1]
LESSON = "01_berrar_lozano"
API_PAGE = "api/generated/evallib.onetestset.mcnemar.html"
BUILD_TIMEOUT_S = 1200

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install chromium)"),
]


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The site, built once by ``make docs`` into a temporary folder (or, when
    ``EVALLIB_DOCS_HTML`` names a folder holding a build, that build)."""
    given = os.environ.get("EVALLIB_DOCS_HTML")
    if given:
        assert (Path(given) / "index.html").exists(), f"EVALLIB_DOCS_HTML={given} holds no built site"
        return Path(given)
    for module in ("sphinx", "myst_nb", "numpydoc", "pydata_sphinx_theme", "axe_playwright_python"):
        pytest.importorskip(module, reason=f"the docs extra is not installed ({module}): pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("site") / "html"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("EVALLIB_BINDER_URL", None)
    start = time.perf_counter()
    # DOCS_STAMP= : the docs extra is installed (checked above); make must not reinstall it
    # into the running venv. REMOTE=none-such: no Binder address, as in a clone without one.
    run = subprocess.run(
        ["make", "-s", "docs", f"VENV={Path(sys.executable).parents[1]}", "DOCS_STAMP=",
         f"DOCS_HTML={out}", "REMOTE=no-such-remote", "BINDER_REPO="],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
    assert run.returncode == 0, f"make docs failed:\n{run.stdout[-4000:]}\n{run.stderr[-8000:]}"
    print(f"\nsite built in {time.perf_counter() - start:.0f} s: {run.stdout.strip().splitlines()[-1]}")
    return out


@pytest.fixture(scope="session")
def base_url(site):
    """A static server on 127.0.0.1 serving the built site."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    with chromium_browser() as chromium:
        yield chromium


@pytest.fixture
def page(browser, base_url):
    """A fresh page that records every request it makes; fails the test on one outside the site."""
    context = browser.new_context()
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.requests = requests
    yield page
    outside = [url for url in requests if not url.startswith((base_url + "/", "data:", "blob:", "about:"))]
    context.close()
    assert not outside, f"the site requested {len(outside)} URLs outside itself: {outside[:10]}"


def open_page(page, base_url: str, path: str) -> None:
    response = page.goto(f"{base_url}/{path}", wait_until="load")
    assert response is not None and response.ok, f"{path}: {response.status if response else 'no response'}"
    page.wait_for_load_state("networkidle")


# --------------------------------------------------------------------------- search


@pytest.mark.parametrize("word", ["mcnemar", "paired_item_difference"])
def test_search_finds_the_name(page, base_url, word):
    open_page(page, base_url, f"search.html?q={word}")
    page.wait_for_function(
        "() => document.querySelectorAll('#search-results li a, ul.search li a').length > 0", timeout=60_000)
    hrefs = page.eval_on_selector_all("#search-results li a, ul.search li a", "els => els.map(e => e.href)")
    assert any(word in href for href in hrefs), f"no result for {word!r} links to its page: {hrefs[:10]}"


# --------------------------------------------------------------------------- a lesson


def test_lesson_shows_figures_maths_and_folded_solutions(page, base_url):
    open_page(page, base_url, f"lessons/{LESSON}.html")
    page.wait_for_function("() => document.querySelectorAll('mjx-container').length > 0", timeout=60_000)
    images = page.eval_on_selector_all(
        "article img", "els => els.map(e => ({src: e.src, alt: e.alt, ok: e.complete && e.naturalWidth > 0}))")
    nb = json.loads((ROOT / "notebooks" / f"{LESSON}.ipynb").read_text(encoding="utf-8"))
    figures = sum("image/png" in o.get("data", {}) for c in nb["cells"] for o in c.get("outputs", []))
    assert len(images) >= figures > 0, f"{len(images)} images on the page, {figures} figures in the notebook"
    assert all(i["ok"] for i in images), [i["src"] for i in images if not i["ok"]]
    assert all(i["alt"].strip() for i in images), [i["src"] for i in images if not i["alt"].strip()]
    assert page.locator("mjx-container").count() > 10
    # the solutions: one closed dropdown, its code not visible
    solutions = page.locator("details.hide", has_text="Solutions")
    assert solutions.count() == 1
    assert solutions.first.evaluate("d => d.open") is False
    assert not solutions.first.locator(".cell_input").first.is_visible()
    solutions.first.locator("summary").click()
    assert solutions.first.locator(".cell_input").first.is_visible()
    # the author notes are left out
    author = next(c for c in nb["cells"] if "author" in c["metadata"].get("tags", []))
    first_line = "".join(author["source"]).splitlines()[0][:40]
    assert first_line and first_line not in page.inner_text("article")
    # no Binder address in this build: the sentence, and the download link serves the notebook
    assert "No Binder link" in page.inner_text("article")
    href = page.get_attribute("a.download, a:has-text('Download the notebook')", "href")
    assert href and href.endswith(f"{LESSON}.ipynb")
    download = page.request.get(page.url.rsplit("/", 1)[0] + "/" + href)
    assert download.ok and json.loads(download.body())["cells"]


# --------------------------------------------------------------------------- the API pages


def public_names() -> dict[str, list[str]]:
    """Every public namespace -> its ``__all__``: evallib, its subpackages without a leading
    underscore, and the public modules (with an ``__all__``) inside them."""
    import evallib

    spaces = {"evallib": list(evallib.__all__)}
    for sub in pkgutil.iter_modules(evallib.__path__):
        if not sub.ispkg or sub.name.startswith("_"):
            continue
        pkg = importlib.import_module(f"evallib.{sub.name}")
        spaces[pkg.__name__] = list(pkg.__all__)
        for mod in pkgutil.iter_modules(pkg.__path__):
            if not mod.name.startswith("_") and not mod.ispkg:
                module = importlib.import_module(f"{pkg.__name__}.{mod.name}")
                if hasattr(module, "__all__"):
                    spaces[module.__name__] = list(module.__all__)
    return spaces


def test_every_public_name_has_its_page(site):
    pages = {p.stem.removesuffix("-class"): p for p in (site / "api" / "generated").glob("*.html")}
    by_name: dict[str, list[str]] = {}
    for qualified in pages:
        by_name.setdefault(qualified.rsplit(".", 1)[-1], []).append(qualified)
    missing = []
    for space, names in public_names().items():
        mod = importlib.import_module(space)
        for name in names:
            obj = getattr(mod, name)
            homes = [q for q in by_name.get(name, []) if getattr(importlib.import_module(q.rsplit(".", 1)[0]), name) is obj]
            if not homes:
                missing.append(f"{space}.{name}")
                continue
            html = pages[homes[0]].read_text(encoding="utf-8")
            if f'id="{homes[0]}"' not in html:
                missing.append(f"{space}.{name} (page {homes[0]} does not document it)")
    assert not missing, f"{len(missing)} public names have no API page: {missing[:20]}"
    assert (site / "api" / "evallib.onetestset.html").exists()


def test_api_page_says_where_it_is_taught(page, base_url):
    open_page(page, base_url, API_PAGE)
    text = page.inner_text("article")
    assert "Where it is taught" in text
    assert page.locator("article a[href*='lessons/01_berrar_lozano']").count() >= 1


# --------------------------------------------------------------------------- accessibility


@pytest.mark.parametrize("path", ["index.html", f"lessons/{LESSON}.html", API_PAGE])
def test_axe_finds_no_serious_violation(page, base_url, path):
    import axe_playwright_python

    open_page(page, base_url, path)
    page.add_script_tag(path=str(Path(axe_playwright_python.__file__).parent / "axe.min.js"))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    bad = [(v["id"], v["impact"], len(v["nodes"]), v["nodes"][0]["target"] if v["nodes"] else None)
           for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, f"{path}: axe-core {result['testEngine']['version']} reports {bad}"
