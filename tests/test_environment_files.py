"""The dependency lists, the lock and the run/CI scripts stay in agreement.

pyproject.toml is the source of truth: ``[project].dependencies`` (what the statistics
library needs: numpy, scipy, pandas, matplotlib and tqdm, nothing else) and the optional
groups ``studies``, ``report``, ``notebooks``, ``test`` and ``peers``, with ``all`` naming
them. The conda route (``environment.yml``) lists every package of every group with the
same version specifiers; Binder (``binder/environment.yml``) lists exactly the packages of
the ``binder`` extra (the core and the notebooks' layers; no test tools) at the exact
versions of the lock (``constraints.txt``, made by ``make lock``), which pins every listed
package to a version its specifier allows. Both environment files pin Python 3.11.
evallib/_extras.py's table of which extra provides which optional import names packages
that extra installs.
"""

from __future__ import annotations

import os
import re
import tomllib

import pytest
import yaml
from packaging.specifiers import SpecifierSet
from _requirements import (extra_requirements, is_local_requirement, normalise_name, normalise_spec,
                           parse_requirement, pyproject_requirements, to_mapping)
from conftest import ROOT

PYPROJECT = ROOT / "pyproject.toml"
ENV_FILES = ["environment.yml", "binder/environment.yml"]
LOCK = "constraints.txt"
GROUPS = ("studies", "report", "notebooks", "test", "peers")
#: What `pip install evallib` installs, and nothing more (issue 31: the statistics library's layer).
CORE = {"numpy", "scipy", "pandas", "matplotlib", "tqdm"}
#: Extras outside `all` (and so outside the environment files and the lock): readers of
#: third-party formats an analyst installs on purpose (`pip install 'evallib[inspect]'`).
EXTRA_GROUPS = ("inspect",)
#: Extras outside `all` that the lock pins all the same: the site's tools (`make docs`
#: installs `evallib[docs]` with the lock) and the inspect_ai reader (`make venv` installs
#: `.[all,inspect]`, so that the reader's tests run); `make lock` locks `.[all,inspect,docs]`.
LOCKED_EXTRA_GROUPS = ("docs", "inspect")
#: The extra Binder installs (binder/environment.yml lists its packages, postBuild installs it).
BINDER_GROUP = "binder"

# Entries that are not third-party packages and are left out of the comparison.
IGNORED_NAMES = {"python", "pip"}

def lock_pins(text: str) -> dict[str, str]:
    """name -> exact version of a pip constraints file (``name==version`` lines)."""
    pins = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, spec = parse_requirement(line)
        assert re.fullmatch(r"==[^,*]+", spec), f"{LOCK}: {line!r} is not an exact pin (name==version)"
        pins.append((name, spec[2:]))
    return to_mapping(pins, LOCK)


def lock_differences(reference: dict[str, str], pins: dict[str, str]) -> list[str]:
    """Listed packages the lock does not pin, or pins outside their specifier."""
    problems = [f"{name} is not pinned in {LOCK}" for name in sorted(reference.keys() - pins.keys())]
    problems += [
        f"{name}: {LOCK} pins {pins[name]}, outside pyproject.toml's {reference[name]!r}"
        for name in sorted(reference.keys() & pins.keys())
        if reference[name] and pins[name] not in SpecifierSet(reference[name])
    ]
    return problems


def conda_entries(text: str) -> tuple[list[str], list[str]]:
    """(conda dependency strings, pip: subsection strings) of an env file."""
    data = yaml.safe_load(text) or {}
    conda, pip = [], []
    for dep in data.get("dependencies") or []:
        if isinstance(dep, dict):
            pip.extend(str(item) for item in dep.get("pip") or [])
        else:
            conda.append(str(dep))
    return conda, pip


def conda_requirements(text: str, source: str = "environment file") -> dict[str, str]:
    """All packages of an env file (conda and pip:), minus python, pip, -e ."""
    conda, pip = conda_entries(text)
    entries = [parse_requirement(d) for d in conda]
    entries += [parse_requirement(d) for d in pip if not is_local_requirement(d)]
    return to_mapping([e for e in entries if e[0] not in IGNORED_NAMES], source)


def package_set_differences(
    reference: dict[str, str], other: dict[str, str], other_name: str
) -> list[str]:
    problems = []
    missing = sorted(reference.keys() - other.keys())
    extra = sorted(other.keys() - reference.keys())
    if missing:
        problems.append(f"in pyproject.toml but missing from {other_name}: {missing}")
    if extra:
        problems.append(f"in {other_name} but not in pyproject.toml: {extra}")
    return problems


def specifier_differences(
    reference: dict[str, str], other: dict[str, str], other_name: str
) -> list[str]:
    return [
        f"{name}: pyproject.toml has {reference[name] or '(none)'!r}, "
        f"{other_name} has {other[name] or '(none)'!r}"
        for name in sorted(reference.keys() & other.keys())
        if reference[name] != other[name]
    ]


def _read(relpath: str) -> str:
    path = ROOT / relpath
    assert path.is_file(), f"{relpath} is missing"
    return path.read_text(encoding="utf-8")


def _code_lines(text: str) -> list[str]:
    """Non-blank lines that are not shell/make comments, stripped."""
    return [
        s for s in (line.strip() for line in text.splitlines()) if s and not s.startswith("#")
    ]


# --------------------------------------------------------------------------
# Helpers on inline examples: shows the checks below can fail.
# --------------------------------------------------------------------------

_EXAMPLE_PYPROJECT = """
[project]
dependencies = ["numpy>=1.26", "Scikit_Learn>=1.4", "SurvSet==0.2.11"]
"""

_EXAMPLE_ENV = """
dependencies:
  - python=3.11
  - pip
  - numpy >=1.25
  - pip:
      - survset==0.2.11
      - -e .
"""


def test_helpers_report_missing_package_and_specifier_mismatch():
    ref = pyproject_requirements(_EXAMPLE_PYPROJECT)
    env = conda_requirements(_EXAMPLE_ENV)
    assert ref == {"numpy": ">=1.26", "scikit-learn": ">=1.4", "survset": "==0.2.11"}
    assert env == {"numpy": ">=1.25", "survset": "==0.2.11"}
    assert package_set_differences(ref, env, "env.yml") == [
        "in pyproject.toml but missing from env.yml: ['scikit-learn']"
    ]
    assert specifier_differences(ref, env, "env.yml") == [
        "numpy: pyproject.toml has '>=1.26', env.yml has '>=1.25'"
    ]


_EXAMPLE_GROUPS = """
[project]
name = "evallib"
dependencies = ["numpy>=1.26"]
[project.optional-dependencies]
test = ["pytest>=8.0"]
peers = ["baycomp>=1.0"]
all = ["evallib[test,peers]"]
"""


def test_groups_are_read_and_the_self_reference_skipped():
    assert pyproject_requirements(_EXAMPLE_GROUPS, ()) == {"numpy": ">=1.26"}
    assert pyproject_requirements(_EXAMPLE_GROUPS) == {"numpy": ">=1.26", "pytest": ">=8.0", "baycomp": ">=1.0"}


def test_an_extra_is_expanded_through_its_self_references():
    text = _EXAMPLE_GROUPS + 'binder = ["evallib[peers]", "scipy>=1.11"]\n'
    assert extra_requirements(text, "binder") == {"numpy": ">=1.26", "baycomp": ">=1.0", "scipy": ">=1.11"}
    assert extra_requirements(text, "all") == {"numpy": ">=1.26", "pytest": ">=8.0", "baycomp": ">=1.0"}
    with pytest.raises(ValueError, match="no optional group 'nope'"):
        extra_requirements(text, "nope")
    with pytest.raises(AssertionError, match="different specifiers"):
        extra_requirements(text.replace('"scipy>=1.11"', '"baycomp>=0.9"'), "binder")


def test_lock_helpers_report_missing_and_out_of_range_pins():
    ref = pyproject_requirements(_EXAMPLE_GROUPS)
    pins = lock_pins("# a comment\nnumpy==1.25.0\npytest==8.3.1\nscipy==1.14.0\n")
    assert pins == {"numpy": "1.25.0", "pytest": "8.3.1", "scipy": "1.14.0"}
    assert lock_differences(ref, pins) == [
        f"baycomp is not pinned in {LOCK}",
        f"numpy: {LOCK} pins 1.25.0, outside pyproject.toml's '>=1.26'",
    ]
    with pytest.raises(AssertionError, match="exact pin"):
        lock_pins("numpy>=1.26\n")


def test_helpers_agree_on_matching_lists():
    env = _EXAMPLE_ENV.replace(">=1.25", ">=1.26") + "  - scikit-learn>=1.4\n"
    ref = pyproject_requirements(_EXAMPLE_PYPROJECT)
    other = conda_requirements(env)
    assert package_set_differences(ref, other, "env.yml") == []
    assert specifier_differences(ref, other, "env.yml") == []


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (">=1.26", ">=1.26"),
        (" >= 1.26 , <2 ", "<2,>=1.26"),
        ("=3.11", "==3.11.*"),
        ("==0.2.11", "==0.2.11"),
        ("", ""),
    ],
)
def test_normalise_spec(spec, expected):
    assert normalise_spec(spec) == expected


def test_duplicate_package_is_reported():
    with pytest.raises(AssertionError, match="more than once"):
        conda_requirements("dependencies:\n  - numpy>=1\n  - pip:\n      - NumPy>=1\n")


# --------------------------------------------------------------------------
# The repository's files.
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reference() -> dict[str, str]:
    return pyproject_requirements(_read("pyproject.toml"), GROUPS)


@pytest.fixture(scope="module")
def pins() -> dict[str, str]:
    return lock_pins(_read(LOCK))


@pytest.fixture(scope="module")
def binder_reference() -> dict[str, str]:
    return extra_requirements(_read("pyproject.toml"), BINDER_GROUP)


def test_groups_exist_and_all_names_them():
    project = tomllib.loads(_read("pyproject.toml"))["project"]
    optional = project["optional-dependencies"]
    assert set(optional) == {*GROUPS, *EXTRA_GROUPS, *LOCKED_EXTRA_GROUPS, BINDER_GROUP, "all"}
    assert [d.replace(" ", "") for d in optional["all"]] == [f"evallib[{','.join(GROUPS)}]"]
    core = {parse_requirement(d)[0] for d in project["dependencies"]}
    # the library computes and plots with its core alone; every other layer is an extra
    assert core == CORE


def test_data_packages_take_version_ranges_not_pins():
    """The lock pins exact versions; pyproject.toml allows a range (a data package's later
    patch release does not stop an install)."""
    project = tomllib.loads(_read("pyproject.toml"))["project"]
    deps = [*project["dependencies"], *(d for group in project["optional-dependencies"].values() for d in group)]
    pinned = [d for d in deps if "==" in parse_requirement(d)[1]]
    assert not pinned, f"pyproject.toml pins exact versions (the lock's job): {pinned}"


def test_the_extras_table_names_packages_its_extra_installs():
    """Each optional import name of evallib._extras maps to a package its extra lists, so the
    one sentence a missing package gets names an install command that installs it."""
    from evallib._extras import OPTIONAL_MODULES

    text = _read("pyproject.toml")
    wrong = [f"{module}: {package} is not in evallib[{extra}]"
             for module, (package, extra) in sorted(OPTIONAL_MODULES.items())
             if normalise_name(package) not in extra_requirements(text, extra)]
    assert not wrong, "evallib/_extras.py disagrees with pyproject.toml:\n  " + "\n  ".join(wrong)
    assert not {normalise_name(p) for p, _ in OPTIONAL_MODULES.values()} & CORE


def test_conda_environment_lists_every_package(reference):
    other = conda_requirements(_read("environment.yml"), "environment.yml")
    problems = package_set_differences(reference, other, "environment.yml")
    assert not problems, "package lists differ:\n  " + "\n  ".join(problems)


def test_binder_extra_is_the_notebooks_needs_without_test_tools(reference, binder_reference):
    """evallib[binder]: the core and evallib[notebooks] (with the layers it names), plus peers at
    the peers group's specifiers."""
    text = _read("pyproject.toml")
    core_and_notebooks = extra_requirements(text, "notebooks")
    assert core_and_notebooks.items() <= binder_reference.items()
    extra = {n: s for n, s in binder_reference.items() if n not in core_and_notebooks}
    peers = pyproject_requirements(text, ("peers",))
    assert extra.items() <= peers.items(), f"evallib[binder] adds more than peer libraries: {extra}"
    test_tools = set(pyproject_requirements(text, ("test",))) - set(pyproject_requirements(text, ()))
    assert not test_tools & set(binder_reference), f"test tools in evallib[binder]: {test_tools & set(binder_reference)}"


def test_binder_lists_exactly_the_binder_extra_at_the_lock(binder_reference, pins):
    binder = conda_requirements(_read("binder/environment.yml"), "binder/environment.yml")
    problems = package_set_differences(binder_reference, binder, "binder/environment.yml")
    assert not problems, "binder/environment.yml is not evallib[binder]:\n  " + "\n  ".join(problems)
    wrong = [f"{name}: binder has {binder[name]!r}, {LOCK} pins {pins.get(name)}"
             for name in sorted(binder) if binder[name] != f"=={pins.get(name)}"]
    assert not wrong, "binder/environment.yml must pin the lock's versions:\n  " + "\n  ".join(wrong)
    for tool in ("pytest", "nbval", "playwright", "pytest-xdist", "pytest-timeout"):
        assert tool not in binder, f"binder/environment.yml lists the test tool {tool}"


def test_version_specifiers_agree(reference):
    other = conda_requirements(_read("environment.yml"), "environment.yml")
    problems = specifier_differences(reference, other, "environment.yml")
    assert not problems, "version specifiers differ:\n  " + "\n  ".join(problems)


def test_lock_covers_every_listed_package(reference, pins):
    problems = lock_differences(reference, pins)
    assert not problems, f"{LOCK} does not match pyproject.toml:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("group", LOCKED_EXTRA_GROUPS)
def test_lock_covers_the_locked_extras(pins, group):
    """The site's tools and the inspect reader are locked too: every package of the extra has its pin."""
    wanted = pyproject_requirements(_read("pyproject.toml"), (group,))
    problems = lock_differences(wanted, pins)
    assert not problems, f"{LOCK} does not pin the {group} extra:\n  " + "\n  ".join(problems)


def test_binder_installs_evallib_binder_with_the_lock():
    post = _code_lines(_read("binder/postBuild"))
    installs = [line for line in post if "pip install" in line]
    assert any(f"-c {LOCK}" in line and f'".[{BINDER_GROUP}]"' in line for line in installs), (
        f"binder/postBuild must install evallib[{BINDER_GROUP}] with the lock (-c {LOCK}): {installs}"
    )


def test_make_venv_installs_all_groups_with_the_lock():
    text = _read("Makefile")
    assert re.search(r"^LOCK\s*:=\s*constraints\.txt$", text, re.MULTILINE)
    installs = [line for line in text.splitlines() if "$(PIP_INSTALL)" in line and "-e" in line]
    assert any("-c $(LOCK)" in line and '".[all,inspect]"' in line for line in installs), installs
    assert re.search(r"^\$\(STAMP\):.*\$\(LOCK\)", text, re.MULTILINE), "the venv must be rebuilt when the lock changes"
    assert re.search(r"^lock:", text, re.MULTILINE), "make lock regenerates the lock"


def test_make_installs_with_a_pinned_uv_and_falls_back_to_pip():
    """PIP_INSTALL: uv at one exact version into the venv; pip when uv cannot be installed."""
    text = _read("Makefile")
    pin = re.search(r"^UV_PIN\s*\?=\s*uv==(\d+\.\d+\.\d+)$", text, re.MULTILINE)
    assert pin, "the Makefile must pin uv to one version (UV_PIN ?= uv==X.Y.Z)"
    block = text[text.index("PIP_INSTALL  ="):]
    block = block[:block.index("pipi\n") + 4]
    assert '-m uv pip install --python "$(PY)" "$$@"' in block
    assert '-m pip install "$$@"' in block, "no pip fallback"


@pytest.mark.parametrize("env_file", ENV_FILES)
def test_env_file_pins_python_311(env_file):
    conda, _ = conda_entries(_read(env_file))
    pythons = [d for d in conda if parse_requirement(d)[0] == "python"]
    assert len(pythons) == 1, f"{env_file}: expected one python entry, found {pythons}"
    assert re.fullmatch(r"python\s*==?\s*3\.11(\.\*|\.\d+)?", pythons[0].strip()), (
        f"{env_file}: python must be pinned to 3.11 (e.g. 'python=3.11'), found {pythons[0]!r}"
    )


@pytest.mark.parametrize("env_file", ENV_FILES)
def test_env_file_uses_conda_forge(env_file):
    data = yaml.safe_load(_read(env_file))
    assert "conda-forge" in (data.get("channels") or []), (
        f"{env_file}: channels {data.get('channels')} do not include conda-forge"
    )


def test_binder_env_is_standalone():
    conda, pip = conda_entries(_read("binder/environment.yml"))
    local = [d for d in pip if is_local_requirement(d)]
    assert not local, (
        "binder/environment.yml must not install the project itself "
        f"(binder/postBuild does): {local}"
    )


@pytest.mark.parametrize("script", ["binder/postBuild", "binder/start"])
def test_binder_scripts_exist_and_are_executable(script):
    path = ROOT / script
    assert path.is_file(), f"{script} is missing"
    assert os.access(path, os.X_OK), f"{script} is not executable (chmod +x {script})"
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("#!") and "bash" in first, f"{script}: no bash shebang: {first!r}"


def test_postbuild_installs_evallib():
    lines = _code_lines(_read("binder/postBuild"))
    assert "set -euo pipefail" in lines, "binder/postBuild should 'set -euo pipefail'"
    installs = [line for line in lines if "pip install" in line and "-e" in line]
    assert installs, f"binder/postBuild does not 'pip install -e .': {lines}"


def test_start_ends_by_execing_its_arguments():
    lines = _code_lines(_read("binder/start"))
    assert lines and lines[-1] in {'exec "$@"', "exec \"${@}\""}, (
        f'binder/start must end with exec "$@" (repo2docker contract); last line is '
        f"{lines[-1] if lines else None!r}"
    )


def test_makefile_has_targets():
    text = _read("Makefile")
    targets = set(re.findall(r"^([A-Za-z0-9_-][A-Za-z0-9_.-]*)\s*:(?![=:])", text, re.MULTILINE))
    missing = sorted({"lab", "test", "bench"} - targets)
    assert not missing, f"Makefile lacks targets {missing}; it has {sorted(targets)}"
    phony = set(" ".join(re.findall(r"^\.PHONY\s*:(.*)$", text, re.MULTILINE)).split())
    not_phony = sorted({"lab", "test", "bench"} - phony)
    assert not not_phony, f"Makefile: targets not declared .PHONY: {not_phony}"


def test_ci_runs_make_test():
    path = ROOT / ".ci/run"
    lines = _code_lines(_read(".ci/run"))
    calls = [line for line in lines if re.search(r"(^|[;&|\s])make\s+(.*\s)?test(\s|$)", line)]
    assert calls, f".ci/run does not call 'make test'; its commands: {lines}"
    assert os.access(path, os.X_OK), ".ci/run is not executable (chmod +x .ci/run)"
