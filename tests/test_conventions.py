"""The conventions page (``docs/conventions.md``), enforced over every public signature and field.

The public callables are those of ``evallib.__all__`` and of the ``__all__`` of every module
whose dotted name has no private part (the design subpackages, ``evallib.report``,
``evallib.lessons.live``, ...), found at any depth. Each rule of the page is a check function that
returns its violations as sentences; each check is also run on a small synthetic function
spelled wrongly, so that the test can fail.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import re
from pathlib import Path
from typing import Any, Callable


import evallib
from conftest import public_objects
from evallib import _compat

ROOT = Path(__file__).resolve().parents[1]

# ------------------------------------------------------------------ the rules (the page's tables)
#: Parameter names that the page replaces, with the name to use.
FORBIDDEN_PARAMETERS = {
    "reps": "n_resamples", "n_reps": "n_resamples", "n_rep": "n_resamples", "n_sim": "n_resamples",
    "n_sims": "n_resamples", "n_simulations": "n_resamples", "n_boot": "n_resamples",
    "n_bootstrap": "n_resamples", "n_bootstraps": "n_resamples", "n_permutations": "n_resamples",
    "n_draws": "n_resamples", "seed": "rng", "random_state": "rng", "random_seed": "rng",
    "mid_p": 'method="mid-p"', "greater_is_better": "higher_is_better", "verbose": "progress",
    "confidence_level": "alpha", "sided": "alternative", "tail": "alternative",
    "tails": "alternative",
}

#: ``n_samples`` means "cases in a data set" only here (cross-validation designs); a draw
#: count is ``n_resamples`` everywhere. Keyed by ``module.qualname``.
N_SAMPLES_MEANS_CASES = {
    "evallib.resampling._cvtests.equal_learners_data",
    "evallib.resampling._cvtests.unequal_learners_data",
    "evallib.resampling._cvtests.simulate_equal_learners",
    "evallib.resampling._cvtests.simulate_unequal_learners",
    "evallib.resampling._cvtests.power_by_repeats",
    "evallib.resampling._cvtests.rejection_study",
    "evallib.resampling._cvtests.rejection_sweep",
    "evallib.lessons._cvtests.rejection_study_controls",
    "evallib.planning._resampling.cv_ttest_power",
    "evallib.studies._data.paper_test_size",
}

#: Boolean flags that would choose a version of a test: a version is a ``method=`` string
#: (``mcnemar(method="mid-p")``, not ``mid_p=True``).
VERSION_FLAGS = {"exact", "mid_p", "midp", "correction", "yates", "continuity"}

#: Boolean parameters with those names that do not choose a version, with the reason (the page says so too;
#: ``module.qualname``: {parameter: reason}).
ALLOWED_FLAGS = {
    "evallib.manydatasets._ranktests.wilcoxon_signed_rank": {
        "correction": "scipy's continuity correction of method='normal'; the version is method="},
    "evallib.items._coverage.item_interval_coverage": {
        "exact": "whether the coverage study enumerates or simulates (None: where it can); no test's version"},
}

#: Option strings (a default, a choices constant) and their one spelling.
FORBIDDEN_CHOICES = {
    "midp": "mid-p", "mid_p": "mid-p", "mid-P": "mid-p", "midP": "mid-p",
    "two_sided": "two-sided", "two-tailed": "two-sided", "twosided": "two-sided",
    "larger": "greater", "smaller": "less",
    "chi-square": "chi2", "chisquare": "chi2", "chi_square": "chi2", "chisq": "chi2",
}

#: Multiple-testing procedures: an argument choosing one of them is ``adjust=``.
MULTIPLICITY = {"holm", "bonferroni", "bh", "by", "hochberg", "hommel", "sidak", "holm-sidak",
                "fdr_bh", "fdr_by", "shaffer", "bergmann", "nemenyi", "finner"}

#: Result fields and table columns that the page renames, with the name to use.
FORBIDDEN_FIELDS = {
    "std_error": "se", "stderr": "se", "std_err": "se", "standard_error": "se", "se_diff": "se",
    "ci_low": "low", "ci_high": "high", "ci_lower": "low", "ci_upper": "high", "lower": "low",
    "upper": "high", "lo": "low", "hi": "high",
    "p_value": "pvalue", "pval": "pvalue", "p_val": "pvalue", "p": "pvalue",
    "p_adj": "pvalue_adj", "p_holm": "pvalue_adj", "pvalue_adjusted": "pvalue_adj",
    "p_adjusted": "pvalue_adj",
    "stat": "statistic", "t_stat": "statistic", "z_stat": "statistic", "chi2": "statistic",
    "dof": "df", "est": "estimate",
    "reps": "n_resamples", "n_sim": "n_resamples (repetitions: simulated experiments)", "n_boot": "n_resamples",
}

#: Columns the page allows although they look like a renamed one, with the reason (the page says so too).
ALLOWED_FIELDS = {
    "alpha_adj": "pairwise_table's per-comparison significance level (Table 2's alpha), not an adjusted p-value",
}


# ------------------------------------------------------------------ what is public
def _home(func: Callable) -> str:
    target = inspect.unwrap(func)
    return f"{getattr(target, '__module__', '?')}.{getattr(target, '__qualname__', '?')}"


def public_callables() -> dict[str, Callable]:
    """Public functions, and the constructors of public classes that are not result records."""
    out = {}
    for label, obj in public_objects().items():
        if inspect.isfunction(obj) or (callable(obj) and hasattr(obj, "__wrapped__")):
            out[_home(obj)] = obj
        elif inspect.isclass(obj) and not dataclasses.is_dataclass(obj) and "__init__" in vars(obj):
            out[f"{obj.__module__}.{obj.__qualname__}"] = obj.__init__
    return out


def public_records() -> dict[str, type]:
    """Public result classes: dataclasses and named tuples."""
    return {f"{obj.__module__}.{obj.__qualname__}": obj for obj in public_objects().values()
            if inspect.isclass(obj) and (dataclasses.is_dataclass(obj) or hasattr(obj, "_fields"))}


def public_constants() -> dict[str, Any]:
    return {label: obj for label, obj in public_objects().items()
            if isinstance(obj, (tuple, list, frozenset, set, dict)) and label.split(".")[-1].isupper()}


# ------------------------------------------------------------------ the checks
def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k in value for s in _strings(k)]
    if isinstance(value, (tuple, list, frozenset, set)):
        return [s for v in value for s in _strings(v)]
    return []


def _documented_choices(func: Callable, name: str) -> str:
    """The docstring's entry for parameter ``name`` (its first line and its description)."""
    doc = inspect.getdoc(inspect.unwrap(func)) or ""
    lines = doc.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"{name} :") or line.startswith(f"{name}:"):
            body = [line]
            for more in lines[i + 1:]:
                if more and not more.startswith(" "):
                    break
                body.append(more)
            return "\n".join(body)
    return ""


def _parameters(func: Callable) -> list[inspect.Parameter]:
    try:
        return list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):  # a builtin without a signature: nothing to check
        return []


def signature_violations(func: Callable, name: str | None = None) -> list[str]:
    """Every way ``func``'s signature breaks the page's rules for arguments, as sentences."""
    name = name or _home(func)
    out = []
    for p in _parameters(func):
        if p.name in VERSION_FLAGS and p.name not in ALLOWED_FLAGS.get(name, {}) and (
                isinstance(p.default, bool) or p.annotation in (bool, "bool", "bool | None")):
            out.append(f"{name}: the boolean flag {p.name}= chooses a version; it is a method= string "
                       "(for McNemar's tests \"chi2-yates\", \"chi2\", \"exact\", \"mid-p\")")
        elif p.name in FORBIDDEN_PARAMETERS:
            out.append(f"{name}: parameter {p.name!r} is spelled {FORBIDDEN_PARAMETERS[p.name]!r}")
        if p.name == "n_samples" and name not in N_SAMPLES_MEANS_CASES:
            out.append(f"{name}: 'n_samples' counts cases only in the cross-validation designs; "
                       "a draw count is 'n_resamples'")
        if p.name == "rng" and p.default is not inspect.Parameter.empty and p.default is not None:
            out.append(f"{name}: rng defaults to {p.default!r}, not None")
        for s in _strings(p.default if p.default is not inspect.Parameter.empty else None):
            if s in FORBIDDEN_CHOICES:
                out.append(f"{name}: {p.name}={s!r} is spelled {FORBIDDEN_CHOICES[s]!r}")
    return out


def multiplicity_violations(func: Callable, name: str | None = None) -> list[str]:
    """A ``method=`` (or other non-``adjust``) argument that chooses a multiple-testing procedure."""
    name = name or _home(func)
    out = []
    for p in _parameters(func):
        if p.name == "adjust" or p.name.endswith("_adjust"):
            continue
        default = p.default if isinstance(p.default, str) else None
        doc = _documented_choices(func, p.name).lower()
        named = sum(f'"{m}"' in doc or f"``{m}``" in doc for m in MULTIPLICITY)
        if (default in MULTIPLICITY and p.name in ("method", "correction", "posthoc_method")) or (
                p.name == "method" and named >= 2):
            out.append(f"{name}: {p.name}= chooses a multiple-testing procedure; it is adjust=")
    return out


def choice_violations(label: str, value: Any) -> list[str]:
    """Old option strings in a public choices constant, and a dict constant whose key is an old name of
    a draw count (``PAPER_SIZES["reps"]``; a ``seed`` key is the integer that seeds a whole run)."""
    out = [f"{label} holds {s!r}: spelled {FORBIDDEN_CHOICES[s]!r}" for s in _strings(value)
           if s in FORBIDDEN_CHOICES]
    if isinstance(value, dict):
        out += [f"{label} has the key {k!r}: spelled 'n_resamples'" for k in value
                if isinstance(k, str) and FORBIDDEN_PARAMETERS.get(k) == "n_resamples"]
    return out


_WRAPPER_CODE = _compat.renamed_keywords(old="new")(lambda new=None: new).__code__


def deprecation_violations(func: Callable, name: str | None = None) -> list[str]:
    """A function that accepts old keywords must do it through evallib._compat.renamed_keywords."""
    name = name or _home(func)
    old = getattr(func, "__deprecated_keywords__", None)
    if old is None:
        return []
    out = []
    if getattr(func, "__code__", None) is not _WRAPPER_CODE:
        out.append(f"{name}: __deprecated_keywords__ without evallib._compat.renamed_keywords")
    params = inspect.signature(func).parameters
    for o, n in old.items():
        if o in params or n not in params:
            out.append(f"{name}: renamed keyword {o!r} -> {n!r} does not match the signature")
    return out


def field_violations(cls: type, name: str | None = None) -> list[str]:
    """Result fields spelled otherwise than the page says."""
    name = name or f"{cls.__module__}.{cls.__qualname__}"
    fields = ([f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls)
              else list(getattr(cls, "_fields", ())))
    out = column_violations(fields, name)
    if "n_samples" in fields and "samples" in fields:  # the count of the draws in ``samples``
        out.append(f"{name}: 'n_samples' (the number of posterior draws) is spelled 'n_resamples'")
    return out


def column_violations(columns: Any, name: str) -> list[str]:
    """Table columns (or fields) spelled otherwise than the page says."""
    return [f"{name}: {c!r} is spelled {FORBIDDEN_FIELDS[c]!r}" for c in columns
            if isinstance(c, str) and c in FORBIDDEN_FIELDS]


def _warns_outside_compat() -> list[str]:
    """``warnings.warn(..., DeprecationWarning)`` anywhere in evallib but evallib/_compat.py."""
    out = []
    kinds = {"DeprecationWarning", "PendingDeprecationWarning", "FutureWarning"}
    for path in sorted((ROOT / "evallib").rglob("*.py")):
        if path.name == "_compat.py" and path.parent.name == "evallib":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "warn":
                names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
                if names & kinds:
                    out.append(f"{path.relative_to(ROOT)}:{node.lineno} warns of a deprecation itself")
    return out


# ------------------------------------------------------------------ the library follows the page
CALLABLES = public_callables()


def test_the_walk_finds_the_library():
    assert len(CALLABLES) > 250
    assert {"evallib.onetestset._mcnemar.mcnemar", "evallib.manydatasets._bayesian.bayesian_signed_rank",
            "evallib.items._means.item_mean"} <= set(CALLABLES)


def test_every_public_signature_follows_the_conventions():
    bad = [v for name, f in sorted(CALLABLES.items()) for v in signature_violations(f, name)]
    assert bad == [], "\n".join(bad)


def test_rng_defaults_to_none_everywhere():
    with_rng = {n: f for n, f in CALLABLES.items() if "rng" in inspect.signature(f).parameters}
    assert len(with_rng) > 50
    defaults = {n: inspect.signature(f).parameters["rng"].default for n, f in with_rng.items()}
    assert {n: d for n, d in defaults.items() if d is not None and d is not inspect.Parameter.empty} == {}


def test_choices_constants_spell_options_one_way():
    bad = [v for label, value in sorted(public_constants().items()) for v in choice_violations(label, value)]
    assert bad == [], "\n".join(bad)


def test_old_keywords_go_through_renamed_keywords_only():
    bad = [v for name, f in sorted(CALLABLES.items()) for v in deprecation_violations(f, name)]
    bad += _warns_outside_compat()
    assert bad == [], "\n".join(bad)
    assert sum(hasattr(f, "__deprecated_keywords__") for f in CALLABLES.values()) >= 38


def test_multiplicity_is_adjust_everywhere():
    bad = [v for name, f in sorted(CALLABLES.items()) for v in multiplicity_violations(f, name)]
    assert bad == [], "\n".join(bad)


def test_result_fields_follow_the_conventions():
    bad = [v for name, cls in sorted(public_records().items()) for v in field_violations(cls, name)]
    assert bad == [], "\n".join(bad)


def test_table_columns_follow_the_conventions():
    from evallib import pairwise_table, posthoc_friedman
    from evallib.studies import demsar_table_6

    tables = {"pairwise_table": pairwise_table({("A", "B"): (3, 9), ("A", "C"): (4, 4)}, 100),
              "posthoc_friedman": posthoc_friedman(demsar_table_6())}
    assert all(len(t.columns) for t in tables.values())
    bad = [v for name, t in tables.items() for v in column_violations(t.columns, name)]
    assert bad == [], "\n".join(bad)


# ------------------------------------------------------------------ the checks can fail
def _wrong(x, *, reps: int = 100, rng: Any = 0, method: str = "midp", seed=None, n_samples: int = 10):
    """A function spelled against the page."""


def _multiplicity(p, *, method: str = "holm"):
    """Adjusted p-values.

    Parameters
    ----------
    method : {"holm", "bonferroni", "bh"}
        The adjustment.
    """


def test_the_signature_check_catches_a_wrong_spelling():
    bad = signature_violations(_wrong, "demo._wrong")
    assert any("'reps'" in v and "n_resamples" in v for v in bad), bad
    assert any("rng defaults to 0" in v for v in bad), bad
    assert any("'midp'" in v and "'mid-p'" in v for v in bad), bad
    assert any("'seed'" in v for v in bad), bad
    assert any("'n_samples'" in v for v in bad), bad
    assert len(bad) == 5

    def right(x, *, n_resamples: int = 100, rng: Any = None, method: str = "mid-p"):
        """Spelled as the page says."""

    assert signature_violations(right, "demo.right") == []


def _flagged_mcnemar(b, c, *, correction: bool = True, exact: bool = False, mid_p: bool = False):
    """McNemar's test with its versions chosen by flags, as 0.1.0 wrote it: against the page."""


def test_the_signature_check_catches_a_version_chosen_by_a_flag():
    bad = signature_violations(_flagged_mcnemar, "demo._flagged_mcnemar")
    assert bad[0] == ("demo._flagged_mcnemar: the boolean flag correction= chooses a version; it is a method= "
                      'string (for McNemar\'s tests "chi2-yates", "chi2", "exact", "mid-p")')
    assert [v.split("flag ")[1].split("=")[0] for v in bad] == ["correction", "exact", "mid_p"], bad

    def annotated(x, *, exact: bool | None = None):
        """A tri-state flag still chooses a version."""

    assert len(signature_violations(annotated, "demo.annotated")) == 1

    def right(b, c, *, method: str = "chi2-yates", alternative: str = "two-sided", tie_correction: bool = True):
        """Spelled as the page says (a flag that is not a version is fine)."""

    assert signature_violations(right, "demo.right") == []
    # the real mcnemar keeps its old flags only through _compat.renamed_flags, outside its signature
    assert signature_violations(evallib.mcnemar, "evallib.mcnemar") == []
    assert evallib.mcnemar.__deprecated_flags__ == ("correction", "exact", "mid_p")


def test_the_checks_catch_chi_square_as_a_choice_and_an_old_key():
    def cochran(x, *, method: str = "chi-square"):
        """0.1.0's spelling of the chi-square method."""

    assert signature_violations(cochran, "demo.cochran") == ["demo.cochran: method='chi-square' is spelled 'chi2'"]
    assert choice_violations("demo.METHODS", ("chi-square", "permutation")) == [
        "demo.METHODS holds 'chi-square': spelled 'chi2'"]
    assert choice_violations("demo.SIZES", dict(n_test=10, reps=100)) == [
        "demo.SIZES has the key 'reps': spelled 'n_resamples'"]
    assert choice_violations("demo.SIZES", dict(n_test=10, n_resamples=100)) == []


def test_the_allowed_flags_are_on_the_page():
    page = (ROOT / "docs" / "conventions.md").read_text(encoding="utf-8")
    for name, flags in ALLOWED_FLAGS.items():
        assert name in CALLABLES, name
        for flag in flags:
            assert flag in inspect.signature(CALLABLES[name]).parameters
            assert f"`{name.rsplit('.', 1)[1]}`'s `{flag}`" in page, (name, flag)


def test_the_multiplicity_check_catches_method_holm():
    assert multiplicity_violations(_multiplicity, "demo._multiplicity") == [
        "demo._multiplicity: method= chooses a multiple-testing procedure; it is adjust="]

    def right(p, *, adjust: str = "holm", method: str = "exact"):
        """Spelled as the page says."""

    assert multiplicity_violations(right, "demo.right") == []


def test_the_choices_check_catches_an_old_option_string():
    assert choice_violations("demo.METHODS", ("exact", "mid_p")) == ["demo.METHODS holds 'mid_p': spelled 'mid-p'"]
    assert choice_violations("demo.METHODS", ("exact", "mid-p")) == []


def test_the_deprecation_check_catches_a_hand_made_alias():
    def hand_made(*, n_resamples: int = 10, **kw):
        return kw.pop("reps", n_resamples)

    hand_made.__deprecated_keywords__ = {"reps": "n_resamples"}
    assert deprecation_violations(hand_made, "demo.hand_made") == [
        "demo.hand_made: __deprecated_keywords__ without evallib._compat.renamed_keywords"]

    @_compat.renamed_keywords(reps="n_resamples")
    def through_compat(*, n_resamples: int = 10):
        return n_resamples

    assert deprecation_violations(through_compat, "demo.through_compat") == []


def test_the_field_check_catches_old_field_names():
    @dataclasses.dataclass(frozen=True)
    class Old:
        estimate: float
        std_error: float
        ci_low: float
        ci_high: float
        p_value: float

    @dataclasses.dataclass(frozen=True)
    class New:
        estimate: float
        se: float
        low: float
        high: float
        statistic: float
        pvalue: float
        pvalue_adj: float
        df: float

    assert field_violations(Old, "demo.Old") == [
        "demo.Old: 'std_error' is spelled 'se'", "demo.Old: 'ci_low' is spelled 'low'",
        "demo.Old: 'ci_high' is spelled 'high'", "demo.Old: 'p_value' is spelled 'pvalue'"]
    assert field_violations(New, "demo.New") == []

    @dataclasses.dataclass(frozen=True)
    class Posterior:
        samples: tuple
        n_samples: int

    assert field_violations(Posterior, "demo.Posterior") == [
        "demo.Posterior: 'n_samples' (the number of posterior draws) is spelled 'n_resamples'"]
    assert column_violations(["estimate", "p_adj", "pval"], "demo.table") == [
        "demo.table: 'p_adj' is spelled 'pvalue_adj'", "demo.table: 'pval' is spelled 'pvalue'"]
    assert column_violations(["alpha_adj", "pvalue"], "demo.table") == []  # a level, not a p-value
    assert not set(ALLOWED_FIELDS) & set(FORBIDDEN_FIELDS)
    page = (ROOT / "docs" / "conventions.md").read_text(encoding="utf-8")
    assert all(f"`{name}` is allowed" in page for name in ALLOWED_FIELDS)


# ------------------------------------------------------------------ the words (the page's last table)
#: Two authors' names joined by a hyphen: the page joins them by an en dash. An explicit list, because
#: one person's double-barrelled name keeps its hyphen (Waudby-Smith, Clarke-Pearson, Lippman-Hand).
TWO_AUTHORS = (
    "Bell-McCaffrey", "Benjamini-Hochberg", "Benjamini-Yekutieli", "Bergmann-Hommel", "Bonett-Price",
    "Bonferroni-Dunn", "Clopper-Pearson", "Quesenberry-Hurst", "Iman-Davenport", "Mann-Whitney",
    "Welch-Satterthwaite", "O'Brien-Fleming", "Skillings-Mack", "Agresti-Coull", "Agresti-Min",
    "Fay-Lumbard", "Wilcoxon-Holm", "Kolmogorov-Smirnov",
)
#: The page's *Never* words that cannot be innocent English, as regular expressions.
NEVER_WORDS = {
    "cannot be separated": r"cannot be separated",
    "differences are real": r"differences are real",
    "calls the difference real": r"calls the difference real",
    "no clear difference": r"no clear difference",
    "t test": r"\bt tests?\b",
    "+/-": r"\+/-",
    "per cent more": r"per cent more",
    **{name: r"(?<![\w-])" + re.escape(name) + r"(?!\w)" for name in TWO_AUTHORS},
}


def words_violations(text: str, where: str) -> list[str]:
    """The page's *Never* words in ``text``, one sentence each."""
    out = []
    for word, pattern in NEVER_WORDS.items():
        for m in re.finditer(pattern, text):
            line = text.count("\n", 0, m.start()) + 1
            out.append(f"{where}:{line}: {word!r} (docs/conventions.md, 'Words in notebooks and reports')")
    return out


def _notebook_text(path: Path) -> str:
    """A notebook's sources, text outputs and alt texts (images left out), one string."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    parts = []
    for cell in nb["cells"]:
        parts.append("".join(cell["source"]))
        for out in cell.get("outputs", []):
            parts.append("".join(out.get("text", "")))
            for kind, value in out.get("data", {}).items():
                if kind.startswith("text/"):
                    parts.append("".join(value))
            parts.append(json.dumps(out.get("metadata", {}), ensure_ascii=False))
    return "\n".join(parts)


def test_the_words_follow_the_page():
    """The library's source, the notebooks (sources, saved outputs and alt texts), the docs and the
    published report pages use the page's words."""
    found = []
    for path in sorted((ROOT / "evallib").rglob("*.py")):
        found += words_violations(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        found += words_violations(_notebook_text(path), str(path.relative_to(ROOT)))
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "docs" / "_extra").rglob("*.html"))]
    for path in docs:
        if path.name != "conventions.md":     # the page names the words it forbids
            found += words_violations(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert not found, "\n".join(found)


def test_the_words_check_catches_the_forbidden_words():
    text = ("Models a and b cannot be separated (paired t tests, Bonett-Price interval, +/- 2).\n"
            "O'Brien-Fleming boundaries; Waudby-Smith's sequence; Clarke-Pearson; Bonett\u2013Price.")
    found = words_violations(text, "x")
    assert len(found) == 5 and all(f.startswith("x:") for f in found)
    assert any("O'Brien-Fleming" in f and f.startswith("x:2:") for f in found)
