"""Count the independent reference values the test suite asserts (issue 32: the count must not fall).

Run ``python tests/_count_references.py [TESTS_DIR ...]``: it prints the count per test file
and the total. A static count over the source, by these rules:

* A **reference source** is a name that brings a value from outside evallib's code under test:
  a module or function imported from a second library (scipy, statsmodels, scikit-learn,
  pingouin, baycomp, mpmath, sympy, itertools' brute-force enumerations do not count), any
  name imported from ``tests/_references.py`` (the suite's written-out formulas and paper
  constants), and any helper function of a test module (or of conftest) whose body uses a
  reference source (a brute-force or written-out computation), found to a fixed point.
* A **reference value asserted** is one ``assert`` statement, or one call of an
  ``assert_*`` function (``np.testing.assert_allclose``, ``pd.testing.assert_frame_equal``,
  ...), inside a test function, whose expression uses a reference source directly or
  through a local name assigned (transitively) from an expression that uses one.
* Each statement counts once, however often a parametrised test runs it. Assertions inside
  code strings run in a kernel (the notebook probes) and numbers printed in a paper that a
  test writes as a literal are not counted: the count is a lower bound, made the same way
  before and after a change.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

#: top-level packages whose values are independent of evallib's code
LIBRARIES = {"scipy", "statsmodels", "sklearn", "pingouin", "baycomp", "mpmath", "sympy"}
#: the suite's own module of written-out references
REFERENCE_MODULES = {"_references"}


def _imported_sources(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in LIBRARIES | REFERENCE_MODULES:
                    names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in LIBRARIES | REFERENCE_MODULES:
                names.update(alias.asname or alias.name for alias in node.names)
    return names


def _uses(node: ast.AST, sources: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in sources for n in ast.walk(node))


def _targets(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _tainted(func: ast.AST, sources: set[str]) -> set[str]:
    """``sources`` plus every local name assigned from an expression that uses one."""
    tainted = sources | _imported_sources(func)
    changed = True
    while changed:
        changed = False
        for node in ast.walk(func):
            pairs = []
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                pairs = [(t, node.value) for t in targets]
            elif isinstance(node, (ast.For, ast.comprehension)):
                pairs = [(node.target, node.iter)]
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                pairs = [(node.optional_vars, node.context_expr)]
            elif isinstance(node, ast.NamedExpr):
                pairs = [(node.target, node.value)]
            for target, value in pairs:
                new = _targets(target) - tainted
                if new and _uses(value, tainted):
                    tainted |= new
                    changed = True
    return tainted


def _is_assert_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name.startswith("assert_")


def _helpers(tree: ast.Module, sources: set[str]) -> set[str]:
    """Module-level functions (not tests) that use a reference source, to a fixed point."""
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("test_")}
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, node in funcs.items():
            if name not in found and _uses(node, sources | found | _imported_sources(node)):
                found.add(name)
                changed = True
    return found


def _tests(tree: ast.Module):
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            yield node
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            yield from (n for n in node.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_"))


def _module_helpers(path: Path) -> set[str]:
    if not path.exists():
        return set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return _helpers(tree, _imported_sources(tree))


def count_file(path: Path, shared_helpers: set[str]) -> int:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    sources = _imported_sources(tree)
    # reference helpers imported by name from conftest (or, as the suite once did, from another
    # test module) count as sources where they are imported
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "conftest":
            sources |= {alias.asname or alias.name for alias in node.names if alias.name in shared_helpers}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("test_"):
            helpers = _module_helpers(path.parent / f"{node.module}.py")
            sources |= {alias.asname or alias.name for alias in node.names if alias.name in helpers}
    sources |= _helpers(tree, sources)
    total = 0
    for func in _tests(tree):
        tainted = _tainted(func, sources)
        for node in ast.walk(func):
            if isinstance(node, ast.Assert) and _uses(node.test, tainted):
                total += 1
            elif _is_assert_call(node) and any(_uses(a, tainted) for a in [*node.args, *(k.value for k in node.keywords)]):
                total += 1
    return total


def count(folder: Path) -> dict[str, int]:
    shared = _module_helpers(folder / "conftest.py")
    return {p.name: count_file(p, shared) for p in sorted(folder.glob("test_*.py"))}


def main(argv: list[str]) -> int:
    folders = [Path(a) for a in argv] or [Path(__file__).resolve().parent]
    for folder in folders:
        counts = count(folder)
        for name, n in counts.items():
            print(f"{n:5d}  {name}")
        print(f"{sum(counts.values()):5d}  independent reference values asserted in {folder} "
              f"({len(counts)} test files)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
