"""Cold read of the per-item report, third round: the few-units warning's own numbers, the paired t-test's
size past 20 items, one rule for the effective sample size's cap, the source list, the bootstrap's redrawn
resamples. Every reference value is recomputed here independently: by hand, by enumeration or by Monte Carlo
with a stated seed and tolerance."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "notebooks" / "report_items.ipynb"


def _markdown(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


# ------------------------------------------------------------------ I4: the source list
def test_every_author_the_template_cites_is_in_its_source_list():
    """The opening cell's "The source it follows" lists the sources; every author the template's text
    cites by name (``X et al.``, ``X and Y``, ``X's design effect``) must be in it."""
    cells = _markdown(TEMPLATE)
    opening = cells[0]
    sources = opening[opening.index("**The source it follows**"):]
    text = "\n".join(cells[1:])
    cited = set(re.findall(r"\b([A-Z][a-z]+) et al\.", text))
    cited |= {a for pair in re.findall(r"\b([A-Z][a-z]+) and ([A-Z][a-z]+)\b", text) for a in pair}
    cited |= set(re.findall(r"\b([A-Z][a-z]+)'s design effect", text))
    cited -= {"Wilson", "The", "Section"}
    assert {"Yao", "Kish"} <= cited
    missing = sorted(name for name in cited if name not in sources)
    assert not missing, f"cited in the template but not in its source list: {missing}"


def test_korn_graubard_are_not_credited_with_wilsons_interval():
    """Korn and Graubard (1998) put the effective sample size into a modified Clopper-Pearson interval;
    Wilson's interval on it is the form Dean and Pagano (2015) evaluate (evallib._inference.wilson_effective's
    own docstring says so)."""
    opening = _markdown(TEMPLATE)[0]
    flat = " ".join(opening.split())
    assert "Graubard (1998) for Wilson's" not in flat
    assert "Dean and M. Pagano (2015) for Wilson's interval" in flat
