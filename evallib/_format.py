"""How a p-value is printed: one rule for the library's result texts, its tables and the reports.

:func:`format_p` writes a p-value in a sentence (``"p = 0.034"``), :func:`pvalue_cell` in a table
cell (``"0.034"``). The rule: two significant digits, trailing zeros kept (Python's alternate form
of ``g``, ``f"{p:#.2g}"``: ``0.80``, ``0.00050``, ``1.0``, ``2.1e-05``), never printed as 0: below
:data:`P_FLOOR` a p-value reads ``p < 1e-15``, and never rounded up to 1: a p-value below 1 that two
digits would print as ``1.0`` gets three (``0.999``, ``0.996``), and one that three would print as
``1.00`` reads ``p > 0.999``; only ``p = 1`` prints ``1.0``. A p-value that could not be computed
reads ``p = nan``. Next to a verdict at a level ``alpha`` (a test rejects when ``p <= alpha``), a
p-value is never printed on the wrong side of ``alpha`` nor as ``alpha`` itself unless it is: digits
are added until the printed value is (``0.0501`` for 0.0501 at 0.05, not ``0.050``; ``0.04999`` for
0.04999), and past five significant digits it reads ``p > 0.05`` or ``p < 0.05``. Every ``.text()``,
``.describe()`` and summary of evallib, and the three reports (through
:mod:`evallib.report._prose`), print p-values with these two functions.

An adjusted p-value has one spelling, *adjusted p* (the concept the conventions page calls
``pvalue_adj``): :func:`format_adjusted_p` writes it in a sentence (``"adjusted p = 0.034
(Holm)"``) and :func:`adjusted_p_header` heads its table column (``"adjusted p (Holm; McNemar's
mid-p test)"``), never ``"Holm p"``, ``"p (adj.)"`` or ``"Holm-adjusted p"``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

__all__ = ["ADJUSTED_P", "P_FLOOR", "adjusted_p_header", "format_adjusted_p", "format_p", "pvalue_cell", "signed_interval",
           "signed_number", "threshold_text"]

#: The one spelling of an adjusted p-value in sentences and table headers.
ADJUSTED_P = "adjusted p"

#: p-values below this are printed as ``p < 1e-15``: double precision resolves a tail
#: probability next to 1 only to about this, and no finite test set supports more digits.
P_FLOOR = 1e-15


def _p_relation(p: float, floor: float, exact: bool = False, alpha: float | None = None) -> str:
    """``"= 0.034"``, ``"= 2.1e-05"``, ``"= 0.999"``, ``"> 0.999"``, ``"< 1e-15"`` or ``"= nan"``;
    with ``exact``, a short exact decimal that the rule would round down is printed as it is; with
    ``alpha``, a p-value is printed on its own side of ``alpha`` (:func:`_beside_alpha`)."""
    p = float(p)
    if math.isnan(p):
        return "= nan"
    if p < floor:
        return f"< {floor:.0e}"
    if p < 1 and f"{p:#.2g}" == "1.0":  # 0.95 <= p < 1: two digits would round it up to 1
        text = "> 0.999" if f"{p:#.3g}" == "1.00" else f"= {p:#.3g}"
    else:
        text = f"= {p:#.2g}"
    short = f"{p:.4g}"   # an exact test's p such as 0.0625 = 2 * 0.5**5 must not read as the smaller 0.062
    if exact and 0 < p < 1 and text.startswith("= ") and float(short) == p and float(text[2:]) < p:
        text = f"= {short}"
    if alpha is not None and text.startswith("= "):
        text = _beside_alpha(p, text, float(alpha))
    return text


#: The most significant digits a p-value gets to show on which side of alpha it lies.
_ALPHA_DIGITS = 5


def side_digits(value: float, bound: float, render: Callable[[int], str], digits: Iterable[int], *,
                scale: float = 1.0) -> str | None:
    """The first of ``render(d)`` for ``d`` in ``digits`` whose printed number lies on the same side of
    ``bound`` as ``value``, and on it only when ``value`` is: the one rule behind every number printed
    beside a threshold it is read against (a p-value beside alpha, a bound beside the smallest
    difference that matters, a share beside a rule's limit). ``scale`` divides the printed number
    first (100 for per cent). None when no ``d`` is enough.

    Parameters
    ----------
    value : float
        The number printed.
    bound : float
        The threshold it is read against, in ``value``'s units.
    render : callable
        ``render(d)``: ``value`` printed with ``d`` digits (decimals or significant digits), a
        string ``float`` reads.
    digits : iterable of int
        The digits to try, in order.
    scale : float, default 1.0
        The printed number divided by ``scale`` is in ``value``'s units.

    Returns
    -------
    str or None
        The first rendering on ``value``'s side of ``bound``.

    Examples
    --------
    >>> side_digits(0.0501, 0.05, lambda d: f"{0.0501:#.{d}g}", range(2, 6))
    '0.0501'
    >>> side_digits(0.0996, 0.1, lambda d: f"{100 * 0.0996:.{d}f}", range(1, 7), scale=100)
    '9.96'
    """
    value, bound = float(value), float(bound)
    side = (value > bound) - (value < bound)
    for d in digits:
        text = render(d)
        shown = float(text) / scale
        if (shown > bound) - (shown < bound) == side:
            return text
    return None


def _beside_alpha(p: float, text: str, alpha: float) -> str:
    """``text`` (``"= 0.050"``) when the printed value lies on p's side of ``alpha`` and equals
    ``alpha`` only when p does (:func:`side_digits`); otherwise p with more significant digits, up to
    :data:`_ALPHA_DIGITS`, then ``"> alpha"`` or ``"< alpha"``."""
    candidates = [text[2:]] + [f"{p:#.{d}g}" for d in range(3, _ALPHA_DIGITS + 1)]   # as printed, then longer
    shown = side_digits(p, alpha, candidates.__getitem__, range(len(candidates)))
    return f"= {shown}" if shown is not None else f"{'>' if p > alpha else '<'} {alpha:g}"


def format_p(p: float, floor: float = P_FLOOR, *, exact: bool = False, alpha: float | None = None) -> str:
    """A p-value in a sentence: two significant digits, trailing zeros kept, never printed as 0.

    Parameters
    ----------
    p : float
        The p-value, in [0, 1] (NaN when it could not be computed).
    floor : float, default :data:`P_FLOOR`
        p-values below it are printed as ``p < floor`` (one significant digit).
    exact : bool, default False
        The p-value is an exact test's, a short exact decimal (up to 4 significant digits, such
        as ``0.0625``, ``0.125``): one that two digits would round down is printed as it is,
        since ``0.062`` would read smaller than it is.
    alpha : float, optional
        The level of a verdict printed beside the p-value (a test rejects when ``p <= alpha``):
        the p-value is then printed on its own side of ``alpha``, and as ``alpha`` only when it
        is, with up to five significant digits (``"p = 0.0501"`` for 0.0501 at 0.05, not
        ``"p = 0.050"``), past them ``"p > 0.05"`` or ``"p < 0.05"``.

    Returns
    -------
    str
        ``"p = 0.034"``, ``"p = 0.80"`` (not ``0.8``), ``"p = 0.00050"``, ``"p = 1.0"``,
        ``"p = 2.1e-05"`` (Python's ``f"{p:#.2g}"``), ``"p < 1e-15"`` below ``floor``, or
        ``"p = nan"``; a p-value below 1 is never printed as 1: ``"p = 0.999"`` for 0.9989 (three
        digits where two would round it up), ``"p > 0.999"`` from 0.9995 on.

    Examples
    --------
    >>> format_p(0.0342), format_p(0.8036), format_p(0.000497), format_p(1.0)
    ('p = 0.034', 'p = 0.80', 'p = 0.00050', 'p = 1.0')
    >>> format_p(2.1e-5), format_p(0.0), format_p(3e-5, floor=1e-4), format_p(float("nan"))
    ('p = 2.1e-05', 'p < 1e-15', 'p < 1e-04', 'p = nan')
    >>> format_p(0.9989), format_p(0.9999), format_p(0.949)
    ('p = 0.999', 'p > 0.999', 'p = 0.95')
    >>> format_p(0.0625), format_p(0.0625, exact=True), format_p(0.034, exact=True)
    ('p = 0.062', 'p = 0.0625', 'p = 0.034')
    >>> format_p(0.0501), format_p(0.0501, alpha=0.05), format_p(0.04999, alpha=0.05)
    ('p = 0.050', 'p = 0.0501', 'p = 0.04999')
    >>> format_p(0.050000001, alpha=0.05), format_p(0.05, alpha=0.05), format_p(0.0166, alpha=0.05 / 3)
    ('p > 0.05', 'p = 0.050', 'p = 0.0166')
    """
    return "p " + _p_relation(p, floor, exact, alpha)


def pvalue_cell(p: float, floor: float = P_FLOOR, *, exact: bool = False, alpha: float | None = None) -> str:
    """A p-value in a table cell, by the rule of :func:`format_p`, without the ``p``.

    Parameters
    ----------
    p : float
        The p-value, in [0, 1] (NaN when it could not be computed).
    floor : float, default :data:`P_FLOOR`
        p-values below it are printed as ``< floor``.
    exact : bool, default False
        As in :func:`format_p`.
    alpha : float, optional
        As in :func:`format_p`.

    Returns
    -------
    str
        ``"0.034"``, ``"0.050"``, ``"1.0"``, ``"2.1e-05"``, ``"< 1e-15"`` or ``"nan"``.

    Examples
    --------
    >>> pvalue_cell(0.0342), pvalue_cell(0.05), pvalue_cell(1e-20), pvalue_cell(1.0)
    ('0.034', '0.050', '< 1e-15', '1.0')
    """
    text = _p_relation(p, floor, exact, alpha)
    return text[2:] if text.startswith("= ") else text


def format_adjusted_p(p: float, adjustment: str | None, floor: float = P_FLOOR, *, exact: bool = False,
                      alpha: float | None = None) -> str:
    """An adjusted p-value in a sentence, the adjustment named after it.

    Parameters
    ----------
    p : float
        The adjusted p-value (the unadjusted one when ``adjustment`` is None).
    adjustment : str or None
        The procedure's name as a reader reads it (``"Holm"``, ``"Benjamini–Hochberg, false
        discovery rate"``); None: the p-value is not adjusted, and the text says so.
    floor : float, default :data:`P_FLOOR`
        As in :func:`format_p`.
    exact : bool, default False
        As in :func:`format_p`: the p-values adjusted are an exact test's, so a short exact decimal
        (``0.0625``) is printed as it is.
    alpha : float, optional
        As in :func:`format_p`: the family-wise level the adjusted p-value is read against, so that
        it is printed on its own side of it (``0.1013`` at 0.1 as ``0.1013``, not ``0.10``).

    Returns
    -------
    str

    Examples
    --------
    >>> format_adjusted_p(0.0342, "Holm"), format_adjusted_p(0.5, None)
    ('adjusted p = 0.034 (Holm)', 'p = 0.50 (unadjusted)')
    >>> format_adjusted_p(0.0625, "Holm", exact=True)
    'adjusted p = 0.0625 (Holm)'
    >>> format_adjusted_p(0.1013, "Holm"), format_adjusted_p(0.1013, "Holm", alpha=0.1)
    ('adjusted p = 0.10 (Holm)', 'adjusted p = 0.101 (Holm)')
    """
    if adjustment is None:
        return f"{format_p(p, floor, exact=exact, alpha=alpha)} (unadjusted)"
    return f"{ADJUSTED_P} {_p_relation(p, floor, exact, alpha)} ({adjustment})"


def adjusted_p_header(adjustment: str | None, test: str | None = None) -> str:
    """The header of a table column of adjusted p-values: the one spelling, then the adjustment
    and the test behind the p-values.

    Parameters
    ----------
    adjustment : str or None
        The procedure's name (``"Holm"``); None: the column holds unadjusted p-values.
    test : str, optional
        The test whose p-values were adjusted (``"McNemar's mid-p test"``).

    Returns
    -------
    str

    Examples
    --------
    >>> adjusted_p_header("Holm", "McNemar's mid-p test"), adjusted_p_header("Nemenyi")
    ("adjusted p (Holm; McNemar's mid-p test)", 'adjusted p (Nemenyi)')
    >>> adjusted_p_header(None, "DeLong's test")
    "p (unadjusted; DeLong's test)"
    """
    what = "; ".join(w for w in ("unadjusted" if adjustment is None else adjustment, test) if w)
    return f"{'p' if adjustment is None else ADJUSTED_P} ({what})"


def share_relation(share: float, n_draws: int) -> str:
    """A share of Monte Carlo draws (such as a posterior probability) as printed after its name.

    Three decimals (``"= 0.123"``); a share above 0 that rounds to 0.000 reads ``"< 0.001"`` and
    one below 1 that rounds to 1.000 reads ``"> 0.999"``, so that a share is never printed as the
    exact 0 or 1 it is not. A share of exactly 0 (1), none (all) of the draws, reads ``"< 0.001"``
    (``"> 0.999"``) too when the draws bound it there (``3 / n_draws <= 0.001``, the rule of three's
    95% bound), and ``"= 0.000"`` (``"= 1.000"``) when they are too few to.

    Parameters
    ----------
    share : float
        In [0, 1].
    n_draws : int
        The number of draws the share is taken over.

    Returns
    -------
    str
        ``"= 0.123"``, ``"< 0.001"`` or ``"> 0.999"``.

    Examples
    --------
    >>> [share_relation(p, 50_000) for p in (0.0, 0.00014, 0.123, 0.99986, 1.0)]
    ['< 0.001', '< 0.001', '= 0.123', '> 0.999', '> 0.999']
    >>> share_relation(0.0, 1_000)
    '= 0.000'
    """
    p = float(share)
    bounded = 3 / n_draws <= 0.001
    if (p == 0.0 and bounded) or 0.0 < p < 0.0005:
        return "< 0.001"
    if (p == 1.0 and bounded) or 0.9995 <= p < 1.0:
        return "> 0.999"
    return f"= {p:.3f}"


def share_text(share: float, n_draws: int) -> str:
    """:func:`share_relation` without its ``"= "`` (a figure's label, a table cell): ``"0.123"``.

    Parameters
    ----------
    share : float
        In [0, 1].
    n_draws : int
        The number of draws the share is taken over.

    Returns
    -------
    str
        ``"0.123"``, ``"< 0.001"`` or ``"> 0.999"``.

    Examples
    --------
    >>> share_text(0.99986, 50_000), share_text(0.25, 50_000)
    ('> 0.999', '0.250')
    """
    return share_relation(share, n_draws).removeprefix("= ")


def threshold_text(value: float, decimals: int = 3, *, up: bool = True) -> str:
    """A threshold printed so that the claim made of it holds at the printed number: rounded up
    (``up=True``) for "detected with 80% power from X on", down for "below X the power is less".

    Rounding to the nearest can print a number on the wrong side: a minimum detectable difference
    of 0.04535 printed as 0.045 claims 80% power at a difference where the power is 0.79.

    Parameters
    ----------
    value : float
        The threshold; infinite values print as ``"inf"``.
    decimals : int, default 3
        Decimals printed.
    up : bool, default True
        Round up (the claim holds at and above the threshold) or down (below it).

    Returns
    -------
    str
        The threshold with ``decimals`` decimals.

    Examples
    --------
    >>> threshold_text(0.04535), threshold_text(0.08755, up=False), threshold_text(0.045)
    ('0.046', '0.087', '0.045')
    """
    value = float(value)
    if not math.isfinite(value):
        return f"{value}"
    scaled = value * 10 ** decimals
    nearest = round(scaled)
    if math.isclose(scaled, nearest, rel_tol=0, abs_tol=1e-9):   # already on the grid: no float noise moves it
        rounded = nearest
    else:
        rounded = math.ceil(scaled) if up else math.floor(scaled)
    return f"{rounded / 10 ** decimals:.{decimals}f}"


def signed_number(value: float, decimals: int = 3) -> str:
    """A signed number with ``decimals`` decimals, more (up to 6) when a value that is not 0 would
    otherwise print as ``+0.000`` or ``-0.000``: the side of 0 is what a verdict reads.

    Examples
    --------
    >>> signed_number(0.0307), signed_number(-0.0000374), signed_number(0.0)
    ('+0.031', '-0.00004', '+0.000')
    """
    return f"{value + 0.0:+.{_signed_digits((value,), decimals)}f}"


def signed_interval(low: float, high: float, decimals: int = 3) -> str:
    """An interval as ``[low, high]``, signed, with the same decimals at both ends: ``decimals``,
    more (up to 6) when an end that is not 0 would otherwise print as ``+-0.000``, so that an
    interval which contains 0 never reads as one that starts at it.

    Examples
    --------
    >>> signed_interval(-0.0000374, 0.0609), signed_interval(-0.00448, 0.06535)
    ('[-0.00004, +0.06090]', '[-0.004, +0.065]')
    """
    d = _signed_digits((low, high), decimals)
    return f"[{low + 0.0:+.{d}f}, {high + 0.0:+.{d}f}]"


def _signed_digits(values: Iterable[float], decimals: int) -> int:
    digits = decimals
    while digits < 6 and any(x != 0 and round(x, digits) == 0 for x in values):
        digits += 1
    return digits
