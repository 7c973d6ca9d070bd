"""Reading requirement lists: pip's and conda's specifiers, pyproject.toml's groups and extras.

A plain module, not a test file (like ``_nbtools.py``): tests/test_environment_files.py checks the
dependency lists with it and tests/test_binder_imports.py reads what an extra installs.
"""

from __future__ import annotations

import re
import tomllib

# Conda-forge names that differ from the PyPI name (after normalisation).
CONDA_TO_PYPI: dict[str, str] = {}

_REQ_RE = re.compile(
    r"""^\s*
    (?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)  # distribution name
    \s*(?:\[[^\]]*\])?                                   # extras, ignored
    \s*(?P<spec>[^;#]*?)                                 # version specifier
    \s*(?:;.*)?(?:\#.*)?$                                # marker / comment
    """,
    re.VERBOSE,
)


def normalise_name(name: str) -> str:
    """Lower case, with ``_`` and ``.`` (and runs of ``-``) as a single ``-``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def normalise_spec(spec: str) -> str:
    """Canonical form of a pip or conda version specifier.

    Whitespace is removed, clauses are sorted, and conda's fuzzy ``=1.2``
    becomes pip's ``==1.2.*`` so that both notations compare equal.
    """
    clauses = []
    for clause in spec.replace(" ", "").split(","):
        if not clause:
            continue
        if re.fullmatch(r"=[^=].*", clause):  # conda "=X" means "==X.*"
            clause = "=" + clause + ("" if clause.endswith("*") else ".*")
        elif re.fullmatch(r"[0-9].*", clause):  # conda "pkg 1.2" means "==1.2"
            clause = "==" + clause
        clauses.append(clause)
    return ",".join(sorted(clauses))


def is_local_requirement(line: str) -> bool:
    """``-e .``, ``./path``, ``file:`` ... : the project itself, not a package."""
    line = line.strip()
    if line.startswith(("-e", "--editable")):
        return True
    return line.startswith((".", "/", "file:"))


def parse_requirement(line: str) -> tuple[str, str]:
    """``"SurvSet==0.2.11"`` -> ``("survset", "==0.2.11")``."""
    match = _REQ_RE.match(line)
    if match is None:
        raise ValueError(f"cannot parse requirement {line!r}")
    name = normalise_name(match["name"])
    return CONDA_TO_PYPI.get(name, name), normalise_spec(match["spec"])


def to_mapping(entries: list[tuple[str, str]], source: str) -> dict[str, str]:
    """name -> spec; a package listed twice is an error."""
    mapping: dict[str, str] = {}
    dupes = sorted({n for n, _ in entries if sum(m == n for m, _ in entries) > 1})
    assert not dupes, f"{source}: packages listed more than once: {dupes}"
    for name, spec in entries:
        mapping[name] = spec
    return mapping


def pyproject_requirements(text: str, groups: tuple[str, ...] | None = None) -> dict[str, str]:
    """name -> spec of the core dependencies and the optional ``groups`` (default: all of them).

    A group entry naming the project itself (``evallib[notebooks,test]``) is a reference
    to other groups, not a package, and is left out.
    """
    data = tomllib.loads(text)
    project = data["project"]
    optional = project.get("optional-dependencies") or {}
    deps = list(project["dependencies"])
    for group in (optional if groups is None else groups):
        deps += [d for d in optional[group] if parse_requirement(d)[0] != normalise_name(project.get("name", ""))]
    return to_mapping([parse_requirement(d) for d in deps], "pyproject.toml")


def extra_requirements(text: str, extra: str) -> dict[str, str]:
    """name -> spec of the core dependencies and everything ``evallib[extra]`` installs.

    Entries naming the project itself (``evallib[notebooks]``) are expanded into their
    groups, recursively, as pip does.
    """
    project = tomllib.loads(text)["project"]
    own = normalise_name(project.get("name", ""))
    optional = project.get("optional-dependencies") or {}
    entries, todo, seen = list(project["dependencies"]), [extra], set()
    while todo:
        group = todo.pop()
        if group in seen:
            continue
        if group not in optional:
            raise ValueError(f"pyproject.toml has no optional group {group!r}")
        seen.add(group)
        for dep in optional[group]:
            match = re.match(r"\s*([A-Za-z0-9._-]+)\s*\[([^\]]*)\]", dep)
            if match and normalise_name(match[1]) == own:
                todo += [g.strip() for g in match[2].split(",") if g.strip()]
            else:
                entries.append(dep)
    parsed = [parse_requirement(d) for d in entries]
    specs: dict[str, set[str]] = {}
    for name, spec in parsed:
        specs.setdefault(name, set()).add(spec)
    clashing = {name: sorted(s) for name, s in specs.items() if len(s) > 1}
    assert not clashing, f"pyproject.toml: evallib[{extra}] names packages with different specifiers: {clashing}"
    return {name: spec for name, spec in parsed}
