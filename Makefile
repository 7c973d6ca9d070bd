# evallib workbook: developer entry points.  `make` alone lists the targets.
#
# The virtual environment lives in $(VENV); its stamp file $(STAMP) records a
# successful install of `-e ".[all,inspect]" -c constraints.txt` (with uv, see PIP_INSTALL; everything, and the
# inspect_ai log reader so that its tests run, at the locked versions) and is rebuilt
# whenever pyproject.toml or the lock changes.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:
MAKEFLAGS += --no-builtin-rules

VENV        ?= .venv
PY          := $(VENV)/bin/python
STAMP       := $(VENV)/.installed
# ... and of `pip install -e ".[all,docs]"`: the site's tools too (make docs, and make test,
# whose site test builds and opens the site).
DOCS_STAMP  := $(VENV)/.installed-docs
DOCS_HTML   := docs/_build/html
# Exact versions of every package of evallib[all,inspect,docs]: the environment the suite passed with.
LOCK        := constraints.txt
# Interpreter used to create the venv; empty = auto-detect (python3.11, then python3 if >= 3.11).
BASE_PYTHON ?=
PORT        ?= 8888
LAB_ARGS    ?=
PYTEST_ARGS ?=
# Byte-code caching on, whatever the shell says: with PYTHONDONTWRITEBYTECODE set (as on this
# project's machines) every run recompiles evallib in each fresh interpreter and pytest rewrites
# the asserts of every test module again, about 9 s of collection per test worker.
unexport PYTHONDONTWRITEBYTECODE
# Test workers (pytest-xdist): each takes whole files, so a notebook's cells stay in one kernel.
TEST_JOBS   ?= 2
# make app: the notebook Voila serves (default: the first one), its port and further options.
NOTEBOOK    ?= $(firstword $(sort $(wildcard notebooks/*.ipynb)))
APP_PORT    ?= 8866
APP_ARGS    ?=

# Jupyter settings the project ships, in etc/: etc/jupyter (nbconvert, Voila, the Jupyter
# server, JupyterLab's default settings) goes to PREFIX/etc/jupyter and etc/share/jupyter
# (the nbconvert template "evallib") to PREFIX/share/jupyter, where Jupyter always looks.
# The venv rule copies them into $(VENV), binder/postBuild into Binder's environment; every
# file under etc/ is a prerequisite of the stamp, so a changed or new file is copied again.
JUPYTER_FILES := $(sort $(shell find etc -type f 2>/dev/null))

# benchmarks/_*.py are helpers the scripts import, not benchmarks.
BENCH_SCRIPTS := $(sort $(filter-out benchmarks/_%,$(wildcard benchmarks/*.py)))

.PHONY: help venv lock lab app test check bench execute clean critical-values textsim-grid report binder-links docs docs-reports

help: ## List the targets
	@echo "Targets:"
	@echo "  make venv    create $(VENV) (Python 3.11) and install evallib editable with every optional group, at the versions of $(LOCK)"
	@echo "  make lock    regenerate $(LOCK) from a fresh venv: the newest versions pyproject.toml allows (then run make test)"
	@echo "  make lab     start JupyterLab on notebooks/ at http://127.0.0.1:$(PORT) (PORT=..., LAB_ARGS=...)"
	@echo "  make app     open NOTEBOOK=notebooks/NAME.ipynb (default $(NOTEBOOK)) as an app in Voila: widgets and figures, no code (APP_PORT=..., APP_ARGS=...)"
	@echo "  make test    install the docs extra too, then run unit tests, nbval notebook checks, the papermill tests and the site test in one pytest run on TEST_JOBS=$(TEST_JOBS) workers (PYTEST_ARGS=...)"
	@echo "  make check   the inner loop: every unit test and doctest, without the notebooks (nbval, papermill, the browser) and the end-to-end report runs (tests marked slow), on TEST_JOBS=$(TEST_JOBS) workers"
	@echo "  make bench   run every benchmarks/*.py script with the venv's python"
	@echo "  make execute re-run LESSONS=notebooks/NAME.ipynb (default: all lessons) in place, so their saved outputs are the default run, each slider's output saved once"
	@echo "  make critical-values  regenerate data/critical_values.csv (Forman & Cohen, exact; both cores, progress bar)"
	@echo "  make textsim-grid  regenerate data/textsim_grid.npz, the 270 experiments behind notebook 03's population sliders (both cores, a few minutes)"
	@echo "  make binder-links  print the Binder links (JupyterLab, and each notebook as a Voila app) for this clone's GitHub remote (REMOTE=origin, BINDER_REF=HEAD, or BINDER_REPO=owner/name)"
	@echo "  make docs    build the site into $(DOCS_HTML): lessons, the report's manual, the API reference (offline, warnings are errors; BINDER_REPO=owner/name)"
	@echo "  make docs-reports  re-run the report CLI on the three shipped example files into docs/_extra/reports/ (commit them; make docs does not execute)"
	@echo "  make report  compare the classifiers of PREDICTIONS=file.csv (default: the shipped example) in $(REPORT_HTML) (TITLE=..., REPORT_ARGS=...)"
	@echo "  make clean   remove $(VENV) and build debris"
	@echo "  make help    show this list (default)"

venv: $(STAMP)

# The installer: uv (pinned here; a tool, not a dependency, so not in the lock), which
# resolves and downloads in parallel: on this project's 2-core machines it builds the venv in
# about 40 s where pip takes about 3 min, at the same versions (the lock's). It is installed
# into the venv with the venv's pip; where it cannot be (no wheel for the platform, no
# index), pip does the install itself. The recipe line reads as `pip install ARGS`.
UV_PIN      ?= uv==0.13.9
PIP_INSTALL  = pipi() { \
	  if "$(PY)" -m uv --version >/dev/null 2>&1 || "$(PY)" -m pip install -q --disable-pip-version-check "$(UV_PIN)"; then \
	    "$(PY)" -m uv pip install --python "$(PY)" "$$@"; \
	  else \
	    echo "uv could not be installed; installing with pip" >&2; \
	    "$(PY)" -m pip install --upgrade pip && "$(PY)" -m pip install "$$@"; \
	  fi; }; pipi

# Sets $py to an interpreter of Python 3.11+ (BASE_PYTHON, else python3.11, else python3).
FIND_PYTHON = py=; \
	for cand in $(or $(BASE_PYTHON),python3.11 python3); do \
	  if command -v "$$cand" >/dev/null 2>&1 && \
	     "$$cand" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' >/dev/null 2>&1; then \
	    py="$$cand"; break; \
	  fi; \
	done; \
	if [ -z "$$py" ]; then \
	  echo "error: no Python 3.11+ found (tried: $(or $(BASE_PYTHON),python3.11 python3)); install Python 3.11 or pass BASE_PYTHON=/path/to/python3.11" >&2; \
	  exit 1; \
	fi

$(STAMP): pyproject.toml $(LOCK) $(JUPYTER_FILES)
	@if [ -x "$(PY)" ]; then \
	  if ! "$(PY)" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then \
	    echo "error: $(VENV) uses Python $$("$(PY)" -c 'import platform; print(platform.python_version())'), evallib needs 3.11+; run 'make clean' first" >&2; \
	    exit 1; \
	  fi; \
	else \
	  $(FIND_PYTHON); \
	  echo "Creating $(VENV) with $$(command -v "$$py") ($$("$$py" -c 'import platform; print(platform.python_version())'))"; \
	  "$$py" -m venv "$(VENV)"; \
	fi
	$(PIP_INSTALL) -c $(LOCK) -e ".[all,inspect]"
	@# Jupyter reads $(VENV)/etc/jupyter and $(VENV)/share/jupyter: `jupyter nbconvert --to html`
	@# writes the offline page, Voila drops the author and solutions cells, JupyterLab asks about no news
	mkdir -p "$(VENV)/etc" && cp -R etc/jupyter "$(VENV)/etc/" && cp -R etc/share "$(VENV)/"
	@touch "$@"

# The lock: a fresh venv gets the newest versions pyproject.toml allows for evallib[all,inspect]
# and the site's tools (evallib[docs]), and pip freeze writes them down. Commit the new
# $(LOCK) only after make test and make docs pass with it.
lock:
	@$(FIND_PYTHON); \
	tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	"$$py" -m venv "$$tmp/venv"; \
	"$$tmp/venv/bin/python" -m pip install -q --upgrade pip; \
	"$$tmp/venv/bin/python" -m pip install -q ".[all,inspect,docs]"; \
	{ echo "# Exact versions of evallib[all,inspect,docs] and everything they pull in: the environment the"; \
	  echo "# test suite and the site's build passed with. Made by 'make lock' with Python $$("$$tmp/venv/bin/python" -c 'import platform; print(platform.python_version())');"; \
	  echo "# used by 'make venv', 'make docs' (pip install -c) and binder/postBuild."; \
	  "$$tmp/venv/bin/python" -m pip freeze --all | grep -v -i -E '^(evallib|pip|setuptools|wheel)([=@ ]|$$)'; \
	} > "$(LOCK).new"; \
	mv "$(LOCK).new" "$(LOCK)"; \
	echo "wrote $(LOCK) ($$(grep -c '==' "$(LOCK)") pins)"

# Jupyter refuses to start as root unless told; allow it only then (the server
# still listens on 127.0.0.1 only).
LAB_ROOT_ARG := $(if $(filter 0,$(shell id -u 2>/dev/null)),--ServerApp.allow_root=True)

lab: $(STAMP)
	"$(VENV)/bin/jupyter" lab --ServerApp.ip=127.0.0.1 --ServerApp.port=$(PORT) \
	  --ServerApp.root_dir=notebooks --LabApp.default_url=/lab/tree/00_start_here.ipynb $(LAB_ROOT_ARG) $(LAB_ARGS)

# Voila runs the notebook in its own folder and shows only its outputs and widgets; it reads
# $(VENV)/etc/jupyter/voila.json (from etc/jupyter), which drops the cells tagged author or solutions.
app: $(STAMP)
	@if [ ! -f "$(NOTEBOOK)" ]; then echo "error: no notebook $(NOTEBOOK) (NOTEBOOK=notebooks/NAME.ipynb)" >&2; exit 1; fi
	"$(VENV)/bin/voila" "$(NOTEBOOK)" --Voila.ip=127.0.0.1 --port=$(APP_PORT) \
	  --AsyncIOLoopKernelManager.client_factory=evallib.report._kernel.PatientKernelClient $(APP_ARGS)

test: $(DOCS_STAMP)
	MPLBACKEND=Agg "$(PY)" -m pytest $(if $(filter-out 0 1,$(TEST_JOBS)),-n $(TEST_JOBS) --dist loadfile) $(PYTEST_ARGS)

# The inner loop: what `make test` runs minus the tests marked slow (every notebook execution,
# nbval's, the lessons' shared runs, the browser, the reports run end to end, and the longest
# simulations; tests/conftest.py marks every test that executes a lesson). `make test` stays
# the one command that runs everything.
check: $(STAMP)
	MPLBACKEND=Agg "$(PY)" -m pytest $(if $(filter-out 0 1,$(TEST_JOBS)),-n $(TEST_JOBS) --dist loadfile) -m "not slow and not browser" tests evallib $(PYTEST_ARGS)

# The lessons' saved outputs are their default run. Executed with widget state stored, then
# python -m evallib.lessons (evallib.lessons.live) freezes each widget view into the outputs it captured (one copy, no state).
LESSONS ?= $(sort $(wildcard notebooks/0*.ipynb))
execute: $(STAMP)
	@for nb in $(LESSONS); do \
	  echo "==> $$nb"; \
	  (cd "$$(dirname "$$nb")" && MPLBACKEND= "$(abspath $(VENV))/bin/jupyter" nbconvert --to notebook --execute --inplace \
	     --ExecutePreprocessor.kernel_name=python3 --ExecutePreprocessor.timeout=600 \
	     --ExecutePreprocessor.kernel_manager_class=evallib.report._kernel.PatientKernelManager "$$(basename "$$nb")") && \
	  "$(PY)" -m evallib.lessons "$$nb" || exit 1; \
	done

# With no scripts there is nothing to run, so the venv is not even built.
bench: $(if $(BENCH_SCRIPTS),$(STAMP))
ifeq ($(strip $(BENCH_SCRIPTS)),)
	@echo "No benchmarks/*.py scripts found; nothing to run."
else
	@failed=(); \
	for script in $(BENCH_SCRIPTS); do \
	  echo "==> $$script"; \
	  MPLBACKEND=Agg "$(PY)" "$$script" || failed+=("$$script"); \
	done; \
	if [ $${#failed[@]} -gt 0 ]; then echo "Failed benchmarks: $${failed[*]}" >&2; exit 1; fi
endif

# The analyst's report: papermill runs notebooks/report.ipynb on PREDICTIONS, nbconvert
# writes an HTML page without code; the executed notebook is kept beside it.
PREDICTIONS ?= data/example_predictions.csv
TITLE       ?=
REPORT_HTML ?= out/report.html
# Further options of `python -m evallib report`, e.g. REPORT_ARGS="--pos-label 1 --alpha 0.1".
# The shipped example says which class its scores are for (ER-); a file of your own needs
# its own --pos-label unless its labels are 0/1 or False/True.
REPORT_ARGS ?= $(if $(filter data/example_predictions.csv,$(PREDICTIONS)),--pos-label ER-)

report: $(STAMP)
	"$(PY)" -m evallib report "$(PREDICTIONS)" -o "$(REPORT_HTML)" $(if $(TITLE),--title "$(TITLE)") $(REPORT_ARGS)

# The paper's lost appendix, recomputed exactly (evallib.onetestset._nullbest.write_critical_values).
critical-values: $(STAMP)
	"$(PY)" -m evallib critical-values data/critical_values.csv

# The experiments notebook 03's prior and noise sliders read (evallib.studies._textsim.write_experiment_grid).
textsim-grid: $(STAMP)
	"$(PY)" -m evallib textsim-grid data/textsim_grid.npz

# Binder needs the repository's public GitHub address, which only the clone knows
# (or BINDER_REPO=owner/name says, for a clone whose remote is not on GitHub).
REMOTE      ?= origin
BINDER_REF  ?= HEAD
BINDER_REPO ?=

binder-links:
	@if [ -n "$(BINDER_REPO)" ]; then \
	  slug="$$(printf '%s\n' "$(BINDER_REPO)" | sed -nE 's#^([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)$$#\1#p')"; \
	  if [ -z "$$slug" ]; then echo "error: BINDER_REPO=$(BINDER_REPO) is not OWNER/REPO" >&2; exit 1; fi; \
	else \
	  url="$$(git remote get-url "$(REMOTE)" 2>/dev/null)" || { \
	    echo "error: this clone has no git remote '$(REMOTE)'; Binder needs the repository's GitHub address (REMOTE=name picks another remote, BINDER_REPO=owner/name gives it)" >&2; exit 1; }; \
	  slug="$$(printf '%s\n' "$$url" | sed -nE 's#^(https://|ssh://git@|git@)github\.com[:/]([^/]+/[^/]+)$$#\2#p' | sed -E 's#\.git$$##')"; \
	  if [ -z "$$slug" ]; then echo "error: remote '$(REMOTE)' is $$url, not a GitHub address (github.com/OWNER/REPO; or BINDER_REPO=owner/name)" >&2; exit 1; fi; \
	fi; \
	base="https://mybinder.org/v2/gh/$$slug/$(BINDER_REF)"; \
	echo "JupyterLab: $$base?urlpath=lab/tree/notebooks/00_start_here.ipynb"; \
	for nb in $(sort $(wildcard notebooks/*.ipynb)); do echo "Voila:      $$base?urlpath=voila/render/$$nb"; done

# The site. Its tools are the docs extra, installed into the venv once (a stamp beside the
# venv's). Sphinx builds offline and executes nothing: MyST-NB reads the lessons' saved
# outputs, docs/_ext/evallib_site.py writes the lesson copies and the API pages, and the
# example reports are the committed pages `make docs-reports` wrote. -W --keep-going -n:
# every warning, a broken cross-reference included, fails the build (after listing them
# all). The lessons' Binder link is the JupyterLab link `make binder-links` prints; where
# it prints none (no GitHub remote, no BINDER_REPO), the lesson pages say so.

$(DOCS_STAMP): $(STAMP) pyproject.toml $(LOCK)
	$(PIP_INSTALL) -c $(LOCK) -e ".[all,docs]"
	@touch "$@"

docs: $(DOCS_STAMP)
	@binder="$$($(MAKE) -s --no-print-directory binder-links BINDER_REPO="$(BINDER_REPO)" 2>/dev/null | sed -nE 's#^JupyterLab: ([^?]+)\?.*#\1#p')" || binder=; \
	if [ -n "$$binder" ]; then echo "Binder links: $$binder"; else echo "No Binder links (no GitHub remote; BINDER_REPO=owner/name gives one)"; fi; \
	start=$$(date +%s); \
	EVALLIB_BINDER_URL="$$binder" MPLBACKEND=Agg "$(PY)" -m sphinx -b html -W --keep-going -n -q \
	  -d docs/_build/doctrees docs "$(DOCS_HTML)"; \
	echo "built $(DOCS_HTML) in $$(( $$(date +%s) - start )) s ($$(du -sh "$(DOCS_HTML)" | cut -f1))"

# The example reports on the site: the report CLI on the three shipped example files,
# written into docs/_extra/reports/ with a manifest of each input's SHA-256 (the build
# fails when an input has changed since). Commit the result; `make docs` never runs it.
DOCS_REPORTS := docs/_extra/reports
docs-reports: $(STAMP)
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	"$(PY)" -m evallib report data/example_predictions.csv -o "$$tmp/predictions.html" --pos-label ER- \
	  --title "Example report: five classifiers on one test set" && \
	"$(PY)" -m evallib report data/example_items.csv -o "$$tmp/items.html" --item-column item \
	  --title "Example report: four classifiers scored per item" && \
	"$(PY)" -m evallib report data/example_results.csv -o "$$tmp/datasets.html" --control C4.5 \
	  --title "Example report: four classifiers over fourteen data sets" && \
	mkdir -p "$(DOCS_REPORTS)" && cp "$$tmp"/*.html "$(DOCS_REPORTS)/" && \
	"$(PY)" -c 'import hashlib, json, sys, evallib; \
	rows = [dict(html=h, input=i, sha256=hashlib.sha256(open(i, "rb").read()).hexdigest()) for h, i in \
	        [("predictions.html", "data/example_predictions.csv"), ("items.html", "data/example_items.csv"), \
	         ("datasets.html", "data/example_results.csv")]]; \
	json.dump(dict(evallib=evallib.__version__, reports=rows), open(sys.argv[1], "w"), indent=1); \
	open(sys.argv[1], "a").write("\n")' "$(DOCS_REPORTS)/manifest.json"; \
	echo "wrote $(DOCS_REPORTS): $$(ls "$(DOCS_REPORTS)")"

clean:
	rm -rf "$(VENV)" build dist .pytest_cache docs/_build
	find . -path ./.git -prune -o \( -name '*.egg-info' -o -name __pycache__ \) -type d -prune -exec rm -rf {} +
