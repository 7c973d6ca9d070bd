"""The scores as results (issue 14, section 3) in the report: a scores-only file.

References: scikit-learn's ``roc_auc_score`` and ``brier_score_loss``, and a direct
O(n^2) DeLong variance written out here (placements by comparing every pair of cases).
"""

from __future__ import annotations

from conftest import run_main

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import brier_score_loss, roc_auc_score

from evallib.report import Skipped, load_predictions, pairwise_comparison, score_comparison

ROOT = Path(__file__).resolve().parents[1]


def scores_only(n: int = 300, seed: int = 4) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    out = pd.DataFrame({"label": np.where(y, "yes", "no")})
    for name, shift in (("strong", 1.6), ("weak", 0.7)):
        out[f"score_{name}"] = np.round(1 / (1 + np.exp(-(rng.normal(size=n) + shift * y - shift / 2))), 3)
    out["score_margin"] = np.round(rng.normal(size=n) + 1.0 * y, 3)  # not a probability
    return out


def direct_delong(y: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """AUC difference and its DeLong standard error, by comparing every pair (O(n^2))."""
    def placements(s):
        pos, neg = s[y], s[~y]
        psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
        return psi.mean(axis=1), psi.mean(axis=0), psi.mean()

    va, wa, auc_a = placements(a)
    vb, wb, auc_b = placements(b)
    m, n = y.sum(), (~y).sum()
    s10 = np.cov(np.vstack([va, vb]))
    s01 = np.cov(np.vstack([wa, wb]))
    var = (s10[0, 0] + s10[1, 1] - 2 * s10[0, 1]) / m + (s01[0, 0] + s01[1, 1] - 2 * s01[0, 1]) / n
    return auc_a - auc_b, float(np.sqrt(var))


def test_scores_only_file():
    frame = scores_only()
    data = load_predictions(frame, pos_label="yes")
    assert isinstance(pairwise_comparison(data), Skipped)
    res = score_comparison(data, alpha=0.05, adjust="holm")
    y = frame["label"].to_numpy() == "yes"
    for row in res.auc.itertuples():
        assert row.estimate == pytest.approx(roc_auc_score(y, frame[f"score_{row.name}"]))
    pair = res.auc_pairs[(res.auc_pairs["a"] == "strong") & (res.auc_pairs["b"] == "weak")].iloc[0]
    diff, se = direct_delong(y, frame["score_strong"].to_numpy(), frame["score_weak"].to_numpy())
    assert pair["difference"] == pytest.approx(diff) and pair["se"] == pytest.approx(se, rel=1e-9)
    assert pair["pvalue"] == pytest.approx(2 * stats.norm.sf(abs(diff) / se), rel=1e-9)
    losses = res.losses.set_index("name")
    assert losses.loc["strong", "brier"] == pytest.approx(brier_score_loss(y, frame["score_strong"]))
    assert not losses.loc["margin", "is_probability"]
    assert len(res.notes) == 1 and res.notes[0].startswith("margin is not a probability")
    s = res.summary()
    assert "**strong** leads" in s and "scores for 'yes'" in s and "DeLong" in s


@pytest.mark.slow
def test_scores_only_report_through_the_cli(tmp_path):
    frame = scores_only()
    path = tmp_path / "scores.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "r.html"
    proc = run_main(["report", str(path), "-o", str(out),
                           "--pos-label", "yes", "-q"], cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    html = out.read_text()
    y = frame["label"].to_numpy() == "yes"
    for name in ("strong", "weak", "margin"):
        assert f"{roc_auc_score(y, frame[f'score_{name}']):.3f}" in html
    assert "Skipped: only 0 classifiers with predicted labels" in html
    assert "margin is not a probability" in html and "Ranked by AUC" in html
    assert html.count("<img ") == 1  # the ROC curves
