"""The reports' one prose layer (evallib.report._prose): one escape, one p-value format, one
level, plural and list helper for all three reports, and the 0.1.0 names that still import.

References are written out by hand or come from the page's own Markdown renderer and the
standard library's ``html`` module, never from the helpers themselves."""

from __future__ import annotations

import html
import importlib
import re
import warnings

import pytest

from evallib.report import _prose
from evallib.report._prose import (
    escape,
    format_p,
    join_names,
    level_text,
    plot_text,
    plural,
    pvalue_cell,
    quote_list,
)

HOSTILE = ["<script>alert(1)</script>", "**bold** _it_ `code` $x^2$ ~~s~~", "[l](javascript:x) ![i](y)",
           "a|b # h", "https://e.com/x", "&lt; &amp; &#60;", "two\nlines\tand a tab", "snake_case 50% ± 1"]


@pytest.mark.parametrize("name", HOSTILE)
def test_escaped_text_renders_as_written_and_makes_no_element(name):
    from evallib.report.htmlexport import markdown_to_html

    page = markdown_to_html(f"Model {escape(name)} leads.").strip()
    inner = page[3:-4]
    assert page.startswith("<p>") and page.endswith("</p>") and not re.search(r"<[A-Za-z/]", inner), page
    # the page shows the text; a newline or tab may show as its numeric reference's character
    assert html.unescape(inner) == f"Model {name} leads.", page


def test_report_prose_keeps_its_own_wording():
    """Sentences of the predictions report pass through the escape whole: what they say stays."""
    for prose in ("p < 1e-15", "Forman & Cohen", "dlda30_swapped vs prior", "±2 points"):
        assert escape(prose) == prose


def test_p_values_have_two_significant_digits_and_a_floor():
    # written out: two significant digits with their trailing zeros (printf's %#.2g: 0.80, not 0.8),
    # "p < 1e-15" below the floor, never 0; never rounded up to 1 (three digits where two would,
    # "> 0.999" where three would too)
    cases = {0.0342: "0.034", 0.5: "0.50", 0.8036: "0.80", 0.000497: "0.00050", 0.05: "0.050", 1.0: "1.0",
             0.99996: "> 0.999", 0.9989: "0.999", 0.996: "0.996", 0.9504: "0.95", 0.9494: "0.95",
             0.9994: "0.999", 2.1e-05: "2.1e-05", 2e-05: "2.0e-05", 0.0: "< 1e-15", 1e-300: "< 1e-15",
             float("nan"): "nan"}
    for p, cell in cases.items():
        assert pvalue_cell(p) == cell
        assert format_p(p) == ("p " + cell if cell.startswith(("<", ">")) else "p = " + cell)
    assert format_p(3e-5, floor=1e-4) == "p < 1e-04" and pvalue_cell(0.004, floor=1e-4) == "0.0040"


def test_a_p_value_beside_a_verdict_is_printed_on_its_own_side_of_alpha():
    # a test rejects when p <= alpha; written out by hand: the shortest printing whose value lies
    # on p's side of alpha and equals alpha only when p does
    cases = {(0.0501, 0.05): "0.0501", (0.050102459732443094, 0.05): "0.0501", (0.04999, 0.05): "0.04999",
             (0.0496, 0.05): "0.0496", (0.0504, 0.05): "0.0504", (0.05, 0.05): "0.050", (0.034, 0.05): "0.034",
             (0.0166, 0.05 / 3): "0.0166", (0.0168, 0.05 / 3): "0.017", (0.00996, 0.01): "0.00996",
             (0.0500000001, 0.05): "> 0.05", (0.0499999999, 0.05): "< 0.05", (0.7, 0.05): "0.70"}
    for (p, alpha), cell in cases.items():
        assert pvalue_cell(p, alpha=alpha) == cell, (p, alpha)
        assert format_p(p, alpha=alpha) == ("p " + cell if cell.startswith(("<", ">")) else "p = " + cell)
        shown = float(cell.lstrip("<> =")) if cell[0].isdigit() else None
        if shown is not None:
            assert (shown <= alpha) == (p <= alpha)
    assert format_p(0.0501) == "p = 0.050"   # without alpha the two-digit rule stands


def test_the_per_item_report_prints_p_values_as_the_others_do():
    """Before 0.2.0 the per-item tables printed three digits (0.0342) where the others printed two."""
    import pandas as pd

    from evallib.report._items_sections import format_item_pairs

    pairs = pd.DataFrame({"a": ["x"], "b": ["y"], "estimate": [0.1], "low": [0.0], "high": [0.2],
                          "pvalue_adj": [0.0342], "reject": [True]})
    pairs.attrs.update(adjust="holm", interval_level=0.95, alpha=0.05)
    # one pair: its adjusted p-value is its own, so the header names no adjustment (brief rep-items12 #8)
    assert format_item_pairs(pairs).iloc[0]["p (paired t-test)"] == "0.034"


def test_levels_counts_and_lists():
    assert [level_text(a) for a in (0.05, 0.1, 0.025, 0.001)] == ["95%", "90%", "97.5%", "99.9%"]
    assert level_text(0.05 / 3, digits=4) == "98.33%"
    assert [plural(n, w) for n, w in ((1, "case"), (0, "case"), (12345, "pair"), (2, "class"))] == \
        ["1 case", "0 cases", "12,345 pairs", "2 classes"]
    assert [join_names(list("abc")[:k]) for k in (1, 2, 3)] == ["a", "a and b", "a, b and c"]
    assert join_names(list("abcdefgh"), limit=5) == "a, b, c, d, e and 3 more"
    assert join_names(list("abcde"), limit=5) == "a, b, c, d and e"
    assert quote_list(["x", 1, "y"]) == "'x', 1 and 'y'"
    assert plot_text("cost $5$") == "cost \\$5\\$"


# ------------------------------------------------------------------ the 0.1.0 names
OLD = [("evallib", "md", "escape"), ("evallib", "P_FLOOR", "P_FLOOR"), ("evallib", "format_p", "format_p"),
       ("evallib", "relevance", "relevance"), ("evallib.report", "md", "escape"),
       ("evallib.report", "P_FLOOR", "P_FLOOR"), ("evallib.report", "format_p", "format_p"),
       ("evallib.report", "relevance", "relevance"), ("evallib.report._text", "md", "escape"),
       ("evallib.report._text", "P_FLOOR", "P_FLOOR"), ("evallib.report._datasets_text", "md_escape", "escape"),
       ("evallib.report._items_sections", "md_text", "escape"),
       ("evallib.report._datasets_sections", "mpl_escape", "plot_text")]


@pytest.mark.parametrize(("module", "old", "new"), OLD)
def test_old_names_still_import_with_a_warning_naming_the_new_home(module, old, new):
    mod = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=rf"{re.escape(module)}\.{old} is deprecated.*_prose\.{new}"):
        obj = getattr(mod, old)
    assert obj is getattr(_prose, new)
    assert old not in getattr(mod, "__all__", [])


def test_pairwise_method_line_moved_out_of_the_flat_namespace():
    import evallib
    from evallib.report import _text as text

    for mod in (evallib, importlib.import_module("evallib.report")):
        with pytest.warns(DeprecationWarning, match="report._text.pairwise_method_line"):
            assert mod.pairwise_method_line is text.pairwise_method_line
        assert "pairwise_method_line" not in mod.__all__


def test_an_old_spelling_still_does_what_it_did():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from evallib import md, relevance
        from evallib.report import format_p as old_format_p
    assert md("<b>x</b>") == "&lt;b&gt;x&lt;/b&gt;"
    assert relevance(0.03, 0.05, 0.02) == "matters" and old_format_p(0.0342) == "p = 0.034"


def test_an_unknown_name_is_still_an_attribute_error():
    import evallib

    with pytest.raises(AttributeError):
        evallib.report.no_such_name  # noqa: B018
    with pytest.raises(AttributeError):
        evallib.no_such_name  # noqa: B018


def test_the_report_entry_points_are_exported():
    import evallib
    from evallib.report import _datasets_inputs as datasets_inputs
    from evallib.report import _datasets_runner as datasets_runner
    from evallib.report import _items_inputs as items_inputs
    from evallib.report import _items_runner as items_runner

    for name, mod in (("run_items_report", items_runner), ("run_datasets_report", datasets_runner),
                      ("load_item_scores", items_inputs), ("load_items", items_inputs),
                      ("read_inspect_logs", items_inputs), ("read_lm_eval_samples", items_inputs),
                      ("load_results", datasets_inputs)):
        assert name in evallib.report.__all__ and name in evallib.__all__
        assert getattr(evallib, name) is getattr(mod, name)


def test_the_library_and_the_reports_share_one_p_value_format():
    """One rule, one home (evallib._format): the reports' names are the library's functions, and a
    result's own text prints its p-value as a report does (a report summary and its section 3
    once read p = 0.00052 and p = 0.000516 for the same Cochran's Q)."""
    import numpy as np
    from scipy import stats

    from evallib import _format
    from evallib.onetestset import cochran_q

    assert (_prose.format_p, _prose.pvalue_cell, _prose.P_FLOOR) == (_format.format_p, _format.pvalue_cell,
                                                                      _format.P_FLOOR)
    correct = np.array([[1, 1, 0]] * 12 + [[1, 0, 0]] * 9 + [[1, 1, 1]] * 20 + [[0, 0, 0]] * 5)
    q = cochran_q(correct)
    # Cochran's Q by hand: k = 3, column totals C_j, row totals R_i
    k, col, row = 3, correct.sum(axis=0), correct.sum(axis=1)
    stat = (k - 1) * (k * np.sum(col ** 2) - col.sum() ** 2) / (k * row.sum() - np.sum(row ** 2))
    p = stats.chi2.sf(stat, k - 1)
    assert f"p = {p:#.2g}" in q.text() and format_p(q.pvalue) in q.text()


def test_no_library_text_formats_a_p_value_itself():
    """Every f-string of evallib/ that formats a p-value (a name, attribute or column called
    ``*pvalue*``) with a format spec does so in evallib/_format.py only: the others call
    format_p or pvalue_cell."""
    import ast
    from pathlib import Path

    root = Path(_prose.__file__).resolve().parents[1]

    def named_pvalue(node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return "pvalue" in node.id
        if isinstance(node, ast.Attribute):
            return "pvalue" in node.attr
        if isinstance(node, ast.Subscript):
            key = node.slice
            return isinstance(key, ast.Constant) and "pvalue" in str(key.value)
        return False

    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "_format.py" and path.parent == root:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FormattedValue) and node.format_spec is not None and named_pvalue(node.value):
                found.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    assert found == [], found
