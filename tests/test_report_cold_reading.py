"""Findings of a cold reading of the three report templates: sentences that were not true for
every file and option, fixed in the report code.

References: discordant counts and differences counted here on files built case by case,
scipy's binomial law (McNemar's mid-p, :func:`test_report._mid_p`) with statsmodels' Holm
adjustment, a one-way analysis of variance written out with numpy, pandas' own ranking of
Demšar's Table 6, and nbconvert's Markdown renderer for what reaches the page.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests
from test_report import _mid_p

from evallib.report import (
    classifier_measures,
    load_predictions,
    pairwise_comparison,
    summary_text,
)


# ------------------------------------------------------------------ the predictions report
def _errors_frame(n: int, errors: dict[str, set[int]]) -> pd.DataFrame:
    """0/1 labels (alternating) and one classifier per entry, wrong exactly on the given cases."""
    y = np.arange(n) % 2
    frame = pd.DataFrame({"label": y})
    for name, wrong in errors.items():
        mask = np.isin(np.arange(n), sorted(wrong))
        frame[f"pred_{name}"] = np.where(mask, 1 - y, y)
    return frame


def test_the_largest_significant_difference_is_named_not_the_largest_of_all():
    """a vs b: 0 and 12 discordant cases (3 points, mid-p 0.00024); a vs c: 30 and 50 (5 points,
    mid-p 0.03, Holm 0.07): the largest difference is not significant, and the summary's
    "largest" must be a vs b's."""
    a = set(range(40))
    b = a | set(range(40, 52))
    c = set(range(10)) | set(range(100, 150))
    frame = _errors_frame(400, {"a": a, "b": b, "c": c})
    disc = {("a", "b"): (0, 12), ("a", "c"): (30, 50), ("b", "c"): (42, 50)}
    reject = multipletests([_mid_p(*bc) for bc in disc.values()], method="holm")[0]
    assert reject.tolist() == [True, False, False]  # the reference: only a vs b
    data = load_predictions(frame)
    pairs = pairwise_comparison(data)
    assert pairs.iloc[0]["pair"] == ("a", "c") and not pairs.iloc[0]["reject"]  # largest first, not significant
    text = summary_text(data, measures=classifier_measures(data), pairwise=pairs)
    assert "1 of the pairwise differences is significant at alpha = 0.05 (a vs b); a makes 3.0 percentage " \
           "points fewer errors than b" in text
    assert "5.0 percentage points fewer errors" not in text


def test_pairs_with_few_disagreements_are_not_called_wide():
    """a vs b disagree on 3 cases of 400: the interval of the difference is narrow (it cannot pass
    3/400 by much), so the summary must not call it wide; it says the comparison rests on little."""
    frame = _errors_frame(400, {"a": set(range(40)), "b": set(range(40)) | {100, 101, 102}})
    data = load_predictions(frame)
    pairs = pairwise_comparison(data)
    row = pairs.iloc[0]
    assert row["b"] + row["c"] == 3 and row["diff_high"] - row["diff_low"] < 0.04
    text = summary_text(data, measures=classifier_measures(data), pairwise=pairs)
    assert "intervals are wide" not in text
    assert ("1 pair rests on fewer than 25 disagreements (flagged in section 3): only those cases tell two "
            "classifiers apart, so that comparison rests on little evidence") in text


# ------------------------------------------------------------------ text from the file, in all three
NAMES = ["see http://example.com/x", "[l](https://e.com)", "<https://e.com>", "<img src=x onerror=alert(1)>",
         "*b* _i_ `c` $m$ ~s~", "a|b #h", "&amp; &lt;", "gpt-4o: run 2"]


@pytest.mark.parametrize("name", NAMES)
def test_text_from_the_file_reaches_the_page_as_written(name):
    """Each report's escaper, rendered by the page's own Markdown renderer: no element (no link,
    no image, no emphasis, no maths) is made from the text, and the page shows it as written."""
    import html
    import re

    from evallib.htmlexport import markdown_to_html
    from evallib.report.datasets_text import md_escape
    from evallib.report.items_sections import md_text
    from evallib.report.text import md

    for escape in (md, md_text, md_escape):
        page = markdown_to_html(f"Model {escape(name)} leads.").strip()
        assert page.startswith("<p>") and page.endswith("</p>"), (escape.__name__, page)
        inner = page[3:-4]
        assert not re.search(r"<[A-Za-z/]", inner), (escape.__name__, page)  # no element at all
        assert html.unescape(inner) == f"Model {name} leads.", (escape.__name__, page)
