"""The reports' prose layer: how user text, p-values, levels, counts and lists are written.

All three reports (predictions: :mod:`~evallib.report._text`; many data sets:
:mod:`~evallib.report._datasets_text`; per item: :mod:`~evallib.report._items_sections`)
write their sentences and table cells with these helpers, so that each rule is stated once:

- :func:`escape` -- text from the user's file or options (names, classes, titles, paths)
  made safe for Markdown, and so for the HTML page; :func:`plot_text` -- the same text
  safe for a matplotlib label.
- :func:`format_p` and :func:`pvalue_cell` -- a p-value with two significant digits
  (``p = 0.034``), never printed as 0: below :data:`P_FLOOR` it reads ``p < 1e-15``. Their
  home is the statistics library's :mod:`evallib._format`, whose rule the library's own result
  texts follow too; they are imported here so that the reports use them by these names.
  :func:`format_adjusted_p` and :func:`adjusted_p_header` -- the one spelling of an adjusted
  p-value, *adjusted p*, in a sentence and in a table header (from the same home).
- :func:`level_text` -- the level of an interval, ``alpha = 0.05`` -> ``"95%"``.
- :func:`signed` -- a signed difference, ``"+0.0123"``; an exact zero ``"0"``.
- :func:`plural` -- ``"1 case"``, ``"2,000 cases"``, ``"3 classes"``.
- :func:`join_names` and :func:`quote_list` -- ``"a, b and c"``, at most ``limit`` names and
  then ``"and N more"``.
- :func:`tie_groups`, :func:`top_two` and :func:`tie_note` -- places held jointly: names with
  equal values form one group, and a summary that compares the top two says in words who ties
  for first or second place and which of them it compares, instead of letting the order of the
  file's columns decide unsaid.
- the numbers of the predictions report's sentences (:func:`bounds`, :func:`interval_points`,
  :func:`gap_points`, :func:`pct`, :func:`distinct_digits`) and the reading of an interval
  against the smallest difference that matters (:func:`relevance`, :func:`matters_clause`).

The module imports nothing from the reports, so every report module can import it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .._format import (  # noqa: F401  (the reports' p-value rule, by these names)
    ADJUSTED_P,
    P_FLOOR,
    adjusted_p_header,
    format_adjusted_p,
    format_p,
    pvalue_cell,
    share_relation,
    share_text,
    side_digits,
)

#: Markdown's characters that can start markup anywhere in a line: backslash, code,
#: emphasis, links and images, tables, strike-through, formulas, headings' hashes (the
#: underscore is handled apart: inside a word it starts no emphasis).
_MARKDOWN_SPECIAL = re.compile(r"([\\`*\[\]!|~$#])")


# ------------------------------------------------------------------ user text
def escape(text: Any) -> str:
    r"""Text from the user's file or options, safe to put into Markdown (and so into the HTML page).

    The page renders Markdown, which passes raw HTML through: a title ``<script>...`` would
    run. Here a ``<`` that could open a tag (before a letter, ``/``, ``!`` or ``?``) becomes
    ``&lt;`` and every ``>`` ``&gt;``, so that no element is made; an ``&`` that could start an
    entity becomes ``&amp;``; Markdown's punctuation (``\ ` * [ ] ! | ~ $ #``, and ``_`` at a
    word boundary) is backslash-escaped, so that no emphasis, code, link, image, table cell,
    formula or heading is made from the text; a character that is not printable (a newline,
    a tab) becomes a numeric character reference, so that a name cannot end a bullet or start
    a block; and the colon of ``://`` becomes ``&#58;``, or the renderer would turn
    ``http://...`` into a live link. The page shows the text as written, and prose such as
    ``p < 1e-15``, ``Forman & Cohen`` or ``snake_case`` stays as it reads.

    Examples
    --------
    >>> escape("<script>alert(1)</script> Q3")
    '&lt;script&gt;alert(1)&lt;/script&gt; Q3'
    >>> print(escape("a*b* [x](y) $5 _c_ snake_case p < 0.05 &amp;"))
    a\*b\* \[x\](y) \$5 \_c\_ snake_case p < 0.05 &amp;amp;
    >>> escape("see http://example.com"), escape("two\nlines")
    ('see http&#58;//example.com', 'two&#10;lines')
    """
    s = re.sub(r"&(?=#?[A-Za-z0-9]+;)", "&amp;", str(text))
    s = re.sub(r"<(?=[A-Za-z/!?])", "&lt;", s).replace(">", "&gt;")
    s = _MARKDOWN_SPECIAL.sub(r"\\\1", s)
    s = re.sub(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])", r"\\_", s)
    s = "".join(c if c.isprintable() else f"&#{ord(c)};" for c in s)
    return s.replace("://", "&#58;//")


def escape_bold(text: str) -> str:
    """Report prose whose only markup is ``**bold**``, everything else escaped by :func:`escape`
    (the names and classes the prose quotes come from the user's file).

    >>> escape_bold("**a_b** beats <c>")
    '**a_b** beats &lt;c&gt;'
    """
    return "**".join(escape(part) for part in text.split("**"))


def plot_text(text: Any) -> str:
    r"""Text from the user's file for a matplotlib label: ``$`` escaped, so that no name is read
    as a formula (matplotlib parses the text between two dollar signs as mathtext and fails on
    what is not valid TeX: a classifier called ``cost $\foo{ $`` would stop the report).

    >>> plot_text("a $b$")
    'a \\$b\\$'
    """
    return str(text).replace("$", r"\$")


# ------------------------------------------------------------------ words
def level_text(alpha: float, digits: int = 6) -> str:
    """The level ``1 - alpha`` of an interval in per cent, ``digits`` significant digits at most.

    >>> level_text(0.05), level_text(0.025), level_text(0.05 / 3, digits=4)
    ('95%', '97.5%', '98.33%')
    """
    return f"{100 * (1 - alpha):.{digits}g}%"


def signed(value: float, digits: int = 4) -> str:
    """A difference with its sign to ``digits`` decimals; an exact zero is ``"0"``, without a sign.

    A value that only rounds to zero keeps its sign (``-0.0000`` says it is negative and small);
    an exact zero, ``0.0`` or ``-0.0``, or a machine zero below ``1e-12`` (its rounding residue) has no
    sign to show.

    >>> signed(0.01234), signed(-0.0), signed(0.0), signed(-0.00001), signed(-3e-17)
    ('+0.0123', '0', '0', '-0.0000', '0')
    """
    value = float(value)
    if abs(value) < MACHINE_ZERO:   # an exact zero, or its rounding residue
        return "0"
    return f"{value:+.{digits}f}"


#: Below this absolute value a figure is a machine zero (a rounding residue of an exact 0), printed as ``"0"``.
MACHINE_ZERO = 1e-12


def plain(value: float, digits: int = 3) -> str:
    """A number to ``digits`` decimals, without a forced sign; a machine zero (``|value| < 1e-12``, the rounding
    residue of an exact 0) is ``"0"``, never ``"-0.000"``.

    A value that is small but not a machine zero keeps its sign, as :func:`signed` keeps it.

    >>> plain(-0.0891), plain(-8.1e-18), plain(0.0), plain(-0.0002)
    ('-0.089', '0', '0', '-0.000')
    """
    value = float(value)
    if abs(value) < MACHINE_ZERO:
        return "0"
    return f"{value:.{digits}f}"


def beside_bound(value: float, bound: float | None, digits: int = 4) -> str:
    """``value`` to ``digits`` decimals, or more where that would print it on the wrong side of
    ``bound`` or as ``bound`` itself (a smallest difference that matters, read against the value),
    up to 8; ``bound`` None: plain ``digits`` decimals.

    >>> beside_bound(0.029964, 0.03), beside_bound(0.0412, 0.03), beside_bound(0.03, 0.03), beside_bound(0.02996, None)
    ('0.02996', '0.0412', '0.0300', '0.0300')
    """
    value = float(value) + 0.0
    if bound is None:
        return f"{value:.{digits}f}"
    shown = side_digits(value, bound, lambda d: f"{value:.{d}f}", range(digits, 9))
    return shown if shown is not None else f"{value:.8f}"


def plural(count: int, word: str) -> str:
    """A count with its noun: ``"1 case"``, ``"2,000 cases"``, ``"3 classes"``.

    >>> plural(1, "case"), plural(2000, "case"), plural(3, "class")
    ('1 case', '2,000 cases', '3 classes')
    """
    if count == 1:
        return f"{count:,} {word}"
    return f"{count:,} {word}" + ("es" if word.endswith(("s", "x", "z", "ch", "sh")) else "s")


def join_names(names: Iterable[Any], limit: int | None = None) -> str:
    """Names joined by commas and a last "and"; beyond ``limit`` names, the first ``limit`` and
    how many more.

    >>> join_names(["a"]), join_names(["a", "b"]), join_names(["a", "b", "c"])
    ('a', 'a and b', 'a, b and c')
    >>> join_names("abcdefg", limit=5)
    'a, b, c, d, e and 2 more'
    """
    shown = [str(n) for n in names]
    if limit is not None and len(shown) > limit:
        shown = shown[:limit] + [f"{len(shown) - limit:,} more"]
    if len(shown) <= 2:
        return " and ".join(shown)
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def quote_list(values: Iterable[Any], limit: int = 8) -> str:
    """Values as Python writes them (``repr``), joined by :func:`join_names`: for error messages.

    >>> quote_list(["a", "b", 3])
    "'a', 'b' and 3"
    """
    return join_names((repr(v) for v in values), limit=limit)


# ------------------------------------------------------------------ places and ties
#: How many names a summary sentence lists before it says "and N more".
LISTED = 5
#: Two values whose difference is within this share of the larger magnitude (at least 1) are
#: one value: the same counts or scores reached through sums taken in another order.
TIE_RTOL = 1e-12


def tie_groups(values: Iterable[tuple[Any, float]], *, higher_is_better: bool = True,
               rtol: float = TIE_RTOL) -> list[list[Any]]:
    """Names grouped by equal value, the best group first, each group in the given order.

    A tie is a group, never an order: names whose values are equal (within ``rtol`` of the
    larger magnitude, at least 1) share a place, and inside a place they keep the order in
    which they were given (the file's columns).

    Parameters
    ----------
    values : iterable of (name, float)
        In the file's order.
    higher_is_better : bool
        Which end is first.
    rtol : float
        The tolerance of equality.

    Returns
    -------
    list of list
        The places, best first.

    Examples
    --------
    >>> tie_groups([("a", 0.7), ("b", 0.5), ("c", 0.9), ("d", 0.5), ("e", 0.5)])
    [['c'], ['a'], ['b', 'd', 'e']]
    >>> tie_groups([("a", 0.2), ("b", 0.1), ("c", 0.1)], higher_is_better=False)
    [['b', 'c'], ['a']]
    """
    items = [(name, float(v), i) for i, (name, v) in enumerate(values)]
    items.sort(key=lambda t: (-t[1] if higher_is_better else t[1], t[2]))
    groups: list[list[tuple[Any, float, int]]] = []
    for item in items:
        if groups and abs(item[1] - groups[-1][0][1]) <= rtol * max(1.0, abs(item[1]), abs(groups[-1][0][1])):
            groups[-1].append(item)
        else:
            groups.append([item])
    return [[name for name, _, _ in sorted(g, key=lambda t: t[2])] for g in groups]


def top_two(groups: Sequence[Sequence[Any]]) -> tuple[Any, Any]:
    """The two names a comparison of the top two takes from :func:`tie_groups`'s places: the
    first two of the first place, or the first place's one name and the first of the second.

    >>> top_two([["c"], ["a", "b"]]), top_two([["a", "b", "c"]])
    (('c', 'a'), ('a', 'b'))
    """
    names = [n for g in groups for n in g]
    return names[0], names[1]


def tie_note(groups: Sequence[Sequence[Any]], *, by: str, value: Callable[[Any], str] | None = None,
             chosen: str = "in the file's column order", limit: int | None = None) -> str:
    """The clause that says a tie for first or second place in words, and which two the
    comparison of the top two takes (:func:`top_two`); ``""`` when the first two places are
    held by one name each, or by two names tied for first (the comparison takes both).

    Parameters
    ----------
    groups : the places, from :func:`tie_groups` (names as they are to be printed).
    by : what the places are by (``"error rate"``, ``"average rank"``).
    value : optional, a name's value as printed, said once for the tied place.
    chosen : how the compared names were picked among the tied ones (``"in the file's column
        order"``, ``"by the higher mean score"``, ``"by the better (lower) mean score"``).
    limit : at most this many tied names are listed (:func:`join_names`).

    Returns
    -------
    str
        A clause without a full stop, or ``""``.

    Examples
    --------
    >>> tie_note([["a"], ["b", "c", "d"]], by="error rate", value=lambda n: "20%")
    "b, c and d have the same error rate (20%), in second place, so the comparison is of a with b, the first of them in the file's column order"
    >>> tie_note([["a", "b", "c"]], by="AUC")
    "a, b and c have the same AUC, in first place, so the comparison is of a and b, the first two of them in the file's column order"
    >>> tie_note([["a"], ["b"], ["c", "d"]], by="AUC"), tie_note([["a", "b"], ["c"]], by="AUC")
    ('', '')
    """
    if len(groups[0]) >= 3:
        place, tied = "first", groups[0]
        compared = f"of {tied[0]} and {tied[1]}, the first two of them {chosen}"
    elif len(groups[0]) == 1 and len(groups) > 1 and len(groups[1]) >= 2:
        place, tied = "second", groups[1]
        compared = f"of {groups[0][0]} with {tied[0]}, the first of them {chosen}"
    else:
        return ""
    shown = f" ({value(tied[0])})" if value is not None else ""
    # never "tie"/"tied" (docs/conventions.md): the names have the same value
    return (f"{join_names(tied, limit=limit)} have the same {by}{shown}, in {place} place, so the comparison is "
            f"{compared}")


# ------------------------------------------------------------------ numbers in sentences
def distinct_digits(lo: float, hi: float, digits: int, *, scale: float = 1.0, most: int = 8) -> int:
    """The fewest decimals, at least ``digits``, that print ``lo`` and ``hi`` differently
    (``most`` at most), so that an interval of non-zero width never reads "0.1 to 0.1".

    >>> distinct_digits(0.0011, 0.0014, 1, scale=100), distinct_digits(0.2, 0.5, 1, scale=100)
    (2, 1)
    >>> distinct_digits(-0.0000028, 0.0000028, 1, scale=100)  # not "-0.0 to 0.0"
    4
    """
    d = digits
    while d < most and float(f"{scale * lo:.{d}f}") == float(f"{scale * hi:.{d}f}"):  # -0.0 == 0.0
        d += 1
    return d


def bounds(lo: float, hi: float, digits: int = 3) -> str:
    """An interval as ``[low, high]`` with enough decimals to tell the bounds apart."""
    d = distinct_digits(lo, hi, digits) if lo != hi else digits
    return f"[{lo + 0.0:.{d}f}, {hi + 0.0:.{d}f}]"


def interval_points(lo: float, hi: float) -> str:
    """A difference's interval in percentage points, ``"0.12 to 0.15"``: one decimal, more
    when the bounds would otherwise print alike (the caller explains a zero width)."""
    d = distinct_digits(lo, hi, 1, scale=100.0) if lo != hi else 1
    return f"{100 * lo + 0.0:.{d}f} to {100 * hi + 0.0:.{d}f}"


def gap_points(value: float, lo: float, hi: float) -> tuple[str, str]:
    """A difference and its interval in percentage points, with the same (enough) decimals: enough to
    tell the two ends apart, and enough that an end which is not 0 does not print as ``0.0`` or
    ``-0.0`` (its side of 0 is what a verdict reads), up to 6.

    >>> gap_points(0.134, -0.000055, 0.268)
    ('13.40', '-0.01 to 26.80')
    >>> gap_points(0.021, -0.144, 0.185)
    ('2.1', '-14.4 to 18.5')
    """
    d = distinct_digits(lo, hi, 1, scale=100.0) if lo != hi else 1
    while d < 6 and any(v != 0 and round(100 * v, d) == 0 for v in (lo, hi)):
        d += 1
    return f"{100 * value + 0.0:.{d}f}", f"{100 * lo + 0.0:.{d}f} to {100 * hi + 0.0:.{d}f}"


def pct(v: float) -> str:
    """A proportion in per cent with one decimal, ``-0.0`` printed as ``0.0``."""
    return f"{100 * v + 0.0:.1f}"


# ------------------------------------------------------------------ the difference that matters
def relevance(low: float, high: float, delta: float | None) -> str:
    """An interval read against the smallest difference that matters, ``delta``.

    ``"matters"`` when the whole interval lies at or beyond ``delta`` from 0 (on one side),
    ``"negligible"`` when it lies strictly inside ``(-delta, delta)`` (every difference the
    data allow is too small to matter: an equivalence reading, as in two one-sided tests at
    the interval's level), ``"undecided"`` otherwise, ``""`` without ``delta``.

    References
    ----------
    D. J. Schuirmann (1987), A comparison of the two one-sided tests procedure and the power
    approach for assessing the equivalence of average bioavailability, J. Pharmacokinet.
    Biopharm. 15, 657-680 (an interval inside the margin shows equivalence).

    Examples
    --------
    >>> relevance(0.03, 0.05, 0.02), relevance(-0.01, 0.015, 0.02), relevance(-0.01, 0.03, 0.02)
    ('matters', 'negligible', 'undecided')
    """
    if delta is None:
        return ""
    if low >= delta or high <= -delta:
        return "matters"
    if -delta < low and high < delta:
        return "negligible"
    return "undecided"


def matters_clause(lo: float, hi: float, delta: float | None, *, interval: str = "interval") -> str:
    """How a difference's interval reads against the smallest difference that matters, as the
    end of a sentence (``""`` without one); ``interval`` names the interval read (``"joint
    interval"`` where the verdict is the family's)."""
    if delta is None:
        return ""
    points = f"{100 * delta:g} points"
    return {"matters": f"; the whole {interval} lies beyond the {points} that matter",
            "negligible": f"; the whole {interval} lies within ±{points}: too small to matter",
            "undecided": f"; the {interval} reaches past ±{points}, so whether the difference matters is open",
            }[relevance(lo, hi, delta)]
