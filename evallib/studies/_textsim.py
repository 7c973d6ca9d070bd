"""Section 5 of Keller, Bengio & Wong re-run on a synthetic text-categorisation task.

RCV1 cannot be downloaded here, so the experiment's *design* is re-run on a
population we generate:

* a **text-like binary task** (:class:`TextPopulation`): bag-of-words documents over
  a Zipf-distributed vocabulary, with topical words that mark the category. The
  positive class is the union of two sub-topics; a share of the negative documents
  (``conjunction``) mixes both sub-topics, which no linear rule over word counts
  separates from the positives but a Gaussian kernel can. ``label_noise`` flips the
  label of a share of documents whatever their words, so both learners get those
  wrong *together*: it sets how strongly their mistakes are correlated;
* **two real learners** (:func:`fit_learners`), trained on tf-idf vectors of the
  training set as in the paper: model A a linear SVM (scikit-learn ``LinearSVC``),
  model B a Gaussian-kernel SVM approximated by a Nystroem feature map of 300
  components followed by a linear SVM (``Nystroem`` + ``LinearSVC``: the exact
  kernel SVM is too slow for 790,900 predictions and the approximation keeps the
  kernel's non-linear decision surface);
* the **sizes** of the paper: 7,982 training documents, test sets of 7,909 and a
  "Dtrue" of 790,900 (:func:`build_experiment`; the notebook's defaults are
  smaller, the paper's one parameter away);
* the bootstrap of section 4 on the test set and the "truth" from 1,000 subsamples
  of Dtrue (:func:`run_setting`), giving a **Table 3 of our own** for three settings
  (:data:`SETTINGS`, :func:`table3`);
* the question the paper left open, answered the way a test is judged
  (:func:`size_coverage_study`): the percentile test's size (rejections when dF1 = 0)
  and the coverage of its interval for the true dF1, per test-set size, with Monte
  Carlo standard errors; :func:`calibration_study` repeats Table 3's own comparison
  (stated confidence against the share of Dtrue subsamples won), which sets 1 - p beside
  a replication frequency and so cannot show mis-calibration by itself (under an exact
  tie a calibrated test's confidence in the observed winner is uniform on [0.5, 1]
  while each model wins half the subsamples).

A test set's documents enter dF1 only through their eight joint events (Table 1),
so once the learners have classified a document only its event code is kept; a
subsample of Dtrue drawn with replacement is then a multinomial draw from Dtrue's
event frequencies (the test suite checks this equivalence for the bootstrap).

**Precomputed experiments.** Building one experiment at the notebook's sizes takes
about 2 s (sampling ~88,000 documents, fitting both learners, classifying the pool
and Dtrue), too slow for a slider. So the grid of :data:`GRID_PRIORS` x
:data:`GRID_NOISES` x the three :data:`SETTINGS` at :data:`GRID_SIZES` (270
experiments) is computed in advance by :func:`write_experiment_grid` (``make
textsim-grid``, or ``python -m evallib textsim-grid data/textsim_grid.npz``) and shipped
as ``data/textsim_grid.npz``: for each entry the pool's event codes and Dtrue's
eight event counts, from which the :class:`Experiment` is rebuilt exactly.
:func:`build_experiment` returns such a rebuilt experiment when its arguments are a
grid point at the grid's sizes (``precomputed=True``, the default) and computes
everything otherwise, or when the file is absent. The test suite recomputes
sampled entries and compares them with the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy import stats

from .._compat import renamed_keywords
from .._extras import require
from .._plotting import get_axes
from .._progress import parallel_map, progress_bar
from .._resources import data_path
from .._results import freeze_arrays
from .._validate import (
    check_alpha,
    check_choice,
    check_count,
    check_real,
    check_rng,
    sklearn_random_state,
)
from ..onetestset._bizarre import (
    F1Bootstrap,
    bootstrap_dcf_difference,
    bootstrap_f1_difference,
    dcf_difference,
    dcf_test,
    event_codes,
    f1_difference,
    f1_scores,
    f1_test_check,
    null_population,
)

__all__ = [
    "printed_eq12",
    "PAPER_SIZES",
    "PAPER_TABLE3",
    "SETTINGS",
    "GRID_PRIORS",
    "GRID_NOISES",
    "GRID_SIZES",
    "GRID_PATH",
    "TextSetting",
    "TextPopulation",
    "Learners",
    "Experiment",
    "SettingRun",
    "fit_learners",
    "build_experiment",
    "write_experiment_grid",
    "mistake_correlation",
    "dtrue_replicates",
    "run_setting",
    "table3",
    "format_table3",
    "calibration_study",
    "calibration_summary",
    "calibration_bins",
    "size_coverage_study",
    "size_coverage_summary",
    "size_coverage_verdict",
    "plot_size_coverage",
    "plot_tie_confidence",
    "dcf_comparison",
    "plot_replicates",
    "plot_calibration",
]

#: The sizes of section 5: training set, test set Dte, Dtrue, bootstrap replicates,
#: subsamples of Dtrue.
PAPER_SIZES = dict(n_train=7982, n_test=7909, n_true=790_900, n_resamples=10_000, n_subsamples=1000)

#: Table 3 as printed: bootstrap confidence, its direction, and the percentage on Dtrue.
PAPER_TABLE3 = pd.DataFrame(
    {"experiment": ["X", "Y", "Z"],
     "bootstrap confidence": [0.956, 0.542, 0.965],
     "direction": ["F1*B > F1*A", "F1*B > F1*A", "F1*A > F1*B"],
     "percentage on Dtrue": [0.924, 0.691, 0.825]}
)


@dataclass(frozen=True)
class TextSetting:
    """One category set of our own (the paper's X, Y, Z were sets of RCV1 categories).

    Attributes
    ----------
    name : ``"X"``, ``"Y"`` or ``"Z"``.
    description : what the setting is meant to show.
    topic_breadth : number of words in each topic's vocabulary (broad topics spread
        the evidence over many words, which the linear SVM on the full vocabulary
        uses better than the 300-component kernel approximation).
    topic_weight : share of a topical document's words drawn from its topic.
    conjunction : share of negative documents that mix both positive sub-topics
        (separable only by a non-linear rule: the kernel SVM's advantage).
    """

    name: str
    description: str
    topic_breadth: int
    topic_weight: float
    conjunction: float


#: The three settings of our Table 3: a clear winner (B, as in the paper's X), a near
#: tie (Y) and the other winner (A, as in Z). Tuned once so that at the paper's sizes
#: the population dF1 is a few standard deviations from 0 for X and Z and a fraction
#: of one for Y.
SETTINGS = {
    "X": TextSetting("X", "clear winner: B, the Gaussian-kernel SVM", 60, 0.33, 0.01),
    "Y": TextSetting("Y", "near tie", 120, 0.30, 0.0),
    "Z": TextSetting("Z", "the other winner: A, the linear SVM", 200, 0.27, 0.0),
}

#: Class priors of the precomputed grid (the notebook's prior slider: 0.05 to 0.5 by 0.05).
GRID_PRIORS = (0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50)
#: Label-noise levels of the precomputed grid (the notebook's noise slider).
GRID_NOISES = (0.0, 0.01, 0.02, 0.03, 0.05, 0.07, 0.10, 0.15, 0.20)
#: Sizes and seed of every precomputed experiment (the notebook's defaults).
GRID_SIZES = dict(n_train=7982, n_pool=20_000, n_true=60_000, seed=0)
#: Dtrue chunk size of the precomputed experiments (:func:`build_experiment`'s default).
GRID_CHUNK = 100_000
#: Where :func:`build_experiment` looks for the precomputed grid: the shipped data
#: (``data/`` of the repository; see evallib._resources), whatever the working directory.
GRID_PATH = data_path("textsim_grid.npz")
#: Grid points match when the prior and the noise are within this of a grid value
#: (a FloatSlider's 0.15000000000000002 is the grid's 0.15).
GRID_TOLERANCE = 1e-9


# ------------------------------------------------------------------ population
@dataclass(frozen=True)
class TextPopulation:
    """A synthetic text-categorisation task (one category against the rest).

    Documents are bags of words: ``5 + Poisson(mean_length - 5)`` tokens, each drawn
    from a Zipf background over ``vocab_size`` words, except that a topical document
    draws a ``topic_weight`` share of its tokens from its topic. Positives (share
    ``prior_pos``) are about sub-topic 1 or 2 (half each); of the negatives, a
    ``conjunction`` share mixes sub-topics 1 and 2, half of the rest are about an
    unrelated topic 3 and the others are background only. Finally each label is
    flipped with probability ``label_noise``.

    The vocabulary and topics are fixed by ``world_seed``; documents are drawn with
    the generator passed to :meth:`sample`.

    Attributes
    ----------
    setting : TextSetting
        The category set (one of :data:`SETTINGS`): topic breadth, topic weight and the
        conjunction share.
    prior_pos : float, default 0.25
        Share of positive documents before the label noise, in (0, 1).
    label_noise : float, default 0.02
        Probability that a document's label is flipped, in [0, 0.5).
    vocab_size : int, default 2000
        Number of distinct words, at least three times the setting's ``topic_breadth``.
    mean_length : int, default 40
        Mean number of tokens of a document, at least 6.
    world_seed : int, default 0
        Seed of the vocabulary's topics (which words each topic uses).
    """

    setting: TextSetting
    prior_pos: float = 0.25
    label_noise: float = 0.02
    vocab_size: int = 2000
    mean_length: int = 40
    world_seed: int = 0
    _world: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        check_choice(self.setting.name, "setting", tuple(SETTINGS))
        _check_prior_pos(self.prior_pos)
        _check_label_noise(self.label_noise)
        check_count(self.vocab_size, "vocab_size", minimum=3 * self.setting.topic_breadth)
        check_count(self.mean_length, "mean_length", minimum=6)
        rng = np.random.default_rng(self.world_seed)
        background = 1.0 / (np.arange(self.vocab_size) + 2.7) ** 1.1
        background /= background.sum()
        k = self.setting.topic_breadth
        topics = []
        for _ in range(3):
            words = rng.choice(self.vocab_size, k, replace=False)
            p = np.zeros(self.vocab_size)
            p[words] = 1.0 / np.sqrt(np.arange(k) + 1.0)
            topics.append(p / p.sum())
        object.__setattr__(self, "_world", (background, topics))

    def sample(self, n: int, rng: Any = None) -> tuple[sp.csr_matrix, np.ndarray]:
        """Draw ``n`` documents: a sparse count matrix ``(n, vocab_size)`` and labels 0/1.

        Parameters
        ----------
        n : int
            Number of documents, at least 1.
        rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, default None
            The documents' randomness, normalised by ``check_rng``; the world (vocabulary
            and topics) is ``world_seed``'s and does not depend on it.

        Returns
        -------
        X : scipy.sparse.csr_matrix, shape (n, vocab_size)
            Word counts (float64), one row per document.
        y : numpy.ndarray of int8, shape (n,)
            The labels, 1 for the category, after the label noise.
        """
        n = check_count(n, "n", minimum=1)
        rng = check_rng(rng)
        background, topics = self._world
        s = self.setting
        y = rng.random(n) < self.prior_pos
        length = 5 + rng.poisson(self.mean_length - 5, n)
        kind = np.zeros(n, dtype=np.int8)        # 0 background, 1/2 sub-topic, 3 both, 4 topic 3
        half = rng.random(n) < 0.5
        kind[y & half], kind[y & ~half] = 1, 2
        u = rng.random(n)
        neg = ~y
        kind[neg & (u < s.conjunction)] = 3
        kind[neg & (u >= s.conjunction) & (u < s.conjunction + (1 - s.conjunction) / 2)] = 4
        n_topic = np.where(kind > 0, rng.binomial(length, s.topic_weight), 0)
        doc_bg = np.repeat(np.arange(n), length - n_topic)
        words_bg = rng.choice(self.vocab_size, size=doc_bg.size, p=background)
        doc_t = np.repeat(np.arange(n), n_topic)
        topic_of = np.repeat(kind, n_topic).astype(np.int8)
        both = topic_of == 3
        topic_of[both] = np.where(rng.random(int(both.sum())) < 0.5, 1, 2)
        words_t = np.empty(doc_t.size, dtype=np.int64)
        for t, topic in zip((1, 2, 4), topics):
            m = topic_of == t
            words_t[m] = rng.choice(self.vocab_size, size=int(m.sum()), p=topic)
        rows = np.concatenate([doc_bg, doc_t])
        cols = np.concatenate([words_bg, words_t])
        X = sp.csr_matrix((np.ones(rows.size, dtype=np.float64), (rows, cols)), shape=(n, self.vocab_size))
        X.sum_duplicates()
        flip = rng.random(n) < self.label_noise
        return X, (y ^ flip).astype(np.int8)


# -------------------------------------------------------------------- learners
@dataclass(eq=False)
class Learners:
    """The tf-idf coding of the training set and the two fitted models.

    ``model_a``: linear SVM; ``model_b``: Gaussian-kernel SVM (Nystroem + linear SVM).

    Attributes
    ----------
    tfidf : sklearn.feature_extraction.text.TfidfTransformer
        The tf-idf coding (sublinear term frequencies), fitted on the training counts.
    model_a : sklearn.svm.LinearSVC
        Model A, the linear SVM on the tf-idf vectors.
    model_b : sklearn.pipeline.Pipeline
        Model B, ``Nystroem`` (RBF kernel) followed by a ``LinearSVC``.
    """

    tfidf: Any                  # sklearn's TfidfTransformer, fitted
    model_a: Any
    model_b: Any

    def predict(self, X: sp.spmatrix) -> tuple[np.ndarray, np.ndarray]:
        """Predictions (0/1) of model A and model B on the count matrix ``X``.

        Parameters
        ----------
        X : scipy.sparse matrix, shape (n, vocab_size)
            Word counts, as :meth:`TextPopulation.sample` draws them (coded by ``tfidf``
            here).

        Returns
        -------
        pred_a : numpy.ndarray of int8, shape (n,)
            Model A's predictions.
        pred_b : numpy.ndarray of int8, shape (n,)
            Model B's predictions.
        """
        Z = self.tfidf.transform(X)
        return self.model_a.predict(Z).astype(np.int8), self.model_b.predict(Z).astype(np.int8)


def fit_learners(X: sp.spmatrix, y: np.ndarray, *, gamma: float = 1.0, n_components: int = 300,
                 rng: Any = None) -> Learners:
    """Fit the tf-idf coding and the two models of section 5 on a training set.

    Model A: ``LinearSVC(C=1)``. Model B: an RBF kernel ``exp(-gamma ||x - x'||^2)`` on
    the l2-normalised tf-idf vectors, approximated by ``Nystroem(n_components)``,
    followed by ``LinearSVC(C=10)``. (The paper tuned the kernel SVM by
    cross-validation; gamma = 1 and C = 10 were chosen once on a separate training
    set of this population and are kept fixed, so a slider does not re-tune.)
    ``rng`` (None, an int, a SeedSequence or a Generator) gives scikit-learn's
    ``random_state`` through ``sklearn_random_state``.

    Parameters
    ----------
    X : scipy.sparse matrix, shape (n, vocab_size)
        The training documents' word counts (:meth:`TextPopulation.sample`).
    y : array-like of shape (n,)
        Their labels 0/1; both classes must occur (else ``ValueError``).
    gamma : float, default 1.0
        The RBF kernel's ``gamma`` in ``exp(-gamma ||x - x'||^2)``.
    n_components : int, default 300
        Landmarks of the Nystroem approximation of the kernel.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, default None
        One integer seed (``rng`` itself when an int) is the ``random_state`` of both SVMs
        and of the Nystroem landmarks.

    Returns
    -------
    Learners
        ``tfidf``, ``model_a`` and ``model_b``, fitted.
    """
    require("sklearn", "fit_learners")
    from sklearn.feature_extraction.text import TfidfTransformer
    from sklearn.kernel_approximation import Nystroem
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import LinearSVC

    seed = sklearn_random_state(rng)
    y = np.asarray(y)
    if len(np.unique(y)) != 2:
        raise ValueError("the training set must contain both classes; raise its size or prior_pos")
    tfidf = TfidfTransformer(sublinear_tf=True).fit(X)
    Z = tfidf.transform(X)
    model_a = LinearSVC(C=1.0, random_state=seed).fit(Z, y)
    model_b = make_pipeline(Nystroem(kernel="rbf", gamma=gamma, n_components=n_components, random_state=seed),
                            LinearSVC(C=10.0, random_state=seed)).fit(Z, y)
    return Learners(tfidf=tfidf, model_a=model_a, model_b=model_b)


# ------------------------------------------------------------------ experiment
def _check_prior_pos(value: Any) -> float:
    return check_real(value, "prior_pos", low=0, high=1, low_open=True, high_open=True)


def _check_label_noise(value: Any) -> float:
    return check_real(value, "label_noise", low=0, high=0.5, high_open=True)


@dataclass(frozen=True, eq=False)
class Experiment:
    """One trained pair of models and the held-out documents they classified.

    Attributes
    ----------
    population : the task.
    n_train : size of the training set.
    y_pool, pred_a_pool, pred_b_pool : labels and both models' predictions on the
        held-out pool from which test sets are drawn (Dte is its first ``n_test``).
    true_events : the eight event counts on Dtrue (disjoint from the pool).
    rng : the integer seed the whole experiment was built from (``build_experiment``'s
        ``rng`` when an int, otherwise the one drawn from it): pass it as ``rng`` again
        to rebuild the same experiment.
    """

    population: TextPopulation
    n_train: int
    y_pool: np.ndarray
    pred_a_pool: np.ndarray
    pred_b_pool: np.ndarray
    true_events: np.ndarray
    rng: int

    def __post_init__(self) -> None:
        freeze_arrays(self)

    @property
    def n_true(self) -> int:
        """Number of documents in Dtrue."""
        return int(self.true_events.sum())

    @property
    def pool_codes(self) -> np.ndarray:
        """Event code (0..7 for e1..e8) of every pool document."""
        return event_codes(self.y_pool, self.pred_a_pool, self.pred_b_pool)

    @property
    def true_f1(self) -> tuple[float, float]:
        """F1 of A and B on the whole of Dtrue."""
        return f1_scores(self.true_events)

    @property
    def true_difference(self) -> float:
        """dF1 = F1_B - F1_A on the whole of Dtrue (the best estimate of the truth)."""
        return float(f1_difference(self.true_events))

    def describe(self) -> str:
        """One line: both models' F1 on Dtrue and the correlation of their mistakes.

        Returns
        -------
        str
            ``"F1 on Dtrue: A <f1>, B <f1>; mistake correlation <phi>"`` (F1 to four
            decimals, :func:`mistake_correlation` to two).

        Examples
        --------
        >>> from evallib.studies import build_experiment
        >>> exp = build_experiment("Y", n_train=1500, n_pool=3000, n_true=6000, rng=1)
        >>> exp.describe().startswith("F1 on Dtrue: A 0.")
        True
        """
        f1_a, f1_b = self.true_f1
        return (f"F1 on Dtrue: A {f1_a:.4f}, B {f1_b:.4f}; "
                f"mistake correlation {mistake_correlation(self.true_events):.2f}")

    def test_set(self, n_test: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Dte: the first ``n_test`` pool documents (labels, predictions of A and B).

        Parameters
        ----------
        n_test : int
            Size of the test set, from 1 to the pool size.

        Returns
        -------
        y : numpy.ndarray of int8, shape (n_test,)
            The labels (0/1) of the first ``n_test`` pool documents.
        pred_a : numpy.ndarray of int8, shape (n_test,)
            Model A's predictions on them.
        pred_b : numpy.ndarray of int8, shape (n_test,)
            Model B's predictions on them.
        """
        n_test = check_count(n_test, "n_test", minimum=1)
        if n_test > self.y_pool.size:
            raise ValueError(f"n_test must be at most the pool size {self.y_pool.size}, got {n_test}")
        return self.y_pool[:n_test], self.pred_a_pool[:n_test], self.pred_b_pool[:n_test]


def mistake_correlation(events: Any) -> float:
    """Correlation (phi) of the two models' error indicators, from the eight counts.

    A errs on e2, e4 (misses) and e5, e7 (false alarms); B on e3, e4, e5 and e6.

    Parameters
    ----------
    events : array-like of 8 counts
        The joint event counts ``e1 .. e8`` of Table 1 (as ``Experiment.true_events``).

    Returns
    -------
    float
        The phi coefficient of the two error indicators, in [-1, 1]; 0 when a model makes
        no error or errs on every document (the correlation is then undefined).
    """
    ev = np.asarray(events, dtype=float)
    n = ev.sum()
    both = ev[3] + ev[4]
    ea = (ev[1] + ev[3] + ev[4] + ev[6]) / n
    eb = (ev[2] + ev[3] + ev[4] + ev[5]) / n
    cov = both / n - ea * eb
    den = np.sqrt(ea * (1 - ea) * eb * (1 - eb))
    return float(cov / den) if den > 0 else 0.0


def build_experiment(setting: str = "X", *, prior_pos: float = 0.25, label_noise: float = 0.02,
                     n_train: int = PAPER_SIZES["n_train"], n_pool: int = 20_000,
                     n_true: int = PAPER_SIZES["n_true"], rng: Any = None, chunk: int = GRID_CHUNK,
                     precomputed: bool = True) -> Experiment:
    """Generate the population, train A and B, and classify the pool and Dtrue.

    Results are cached on the arguments, so a slider that does not change them does
    not refit. Dtrue is generated and classified in chunks of ``chunk`` documents and
    only its eight event counts are kept.

    With ``precomputed=True`` (the default), when ``prior_pos`` is one of
    :data:`GRID_PRIORS` and ``label_noise`` one of :data:`GRID_NOISES` (each to within
    1e-9) and the sizes, seed and chunk are :data:`GRID_SIZES` and :data:`GRID_CHUNK`,
    the experiment is rebuilt from the shipped ``data/textsim_grid.npz`` (read once,
    on first use) instead of being computed: a few milliseconds instead of about 2 s.
    It is the experiment computing gives (the same pool labels and predictions and
    Dtrue counts, with the grid's value of the prior and noise in its ``population``)
    on the machine that wrote the file; another CPU's BLAS may put a handful of
    documents on the other side of a decision boundary (the test suite recomputes
    sampled entries and allows 0.1 %). Any other arguments, a missing file, or
    ``precomputed=False`` compute.

    Parameters
    ----------
    setting : ``"X"``, ``"Y"`` or ``"Z"`` (see :data:`SETTINGS`).
    prior_pos : share of positive documents, in (0, 1).
    label_noise : share of flipped labels, in [0, 0.5): raises the correlation of the
        two models' mistakes.
    n_train : training-set size (the paper: 7,982).
    n_pool : held-out documents from which test sets are drawn (Dte is the first
        ``n_test``; the calibration study draws random subsets).
    n_true : size of Dtrue (the paper: 790,900).
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator. Everything
        (vocabulary, documents, the Nystroem landmarks) is seeded by one integer: ``rng``
        itself when it is an int (then cached and looked up in the grid), otherwise one
        drawn from it (``sklearn_random_state``). ``Experiment.rng`` records it.
    chunk : Dtrue is generated in chunks of this many documents (it changes the
        random stream, so it is part of what a precomputed entry must match).
    precomputed : look the experiment up in the precomputed grid when the arguments
        are a grid point (see above); ``False`` always computes.

    Returns
    -------
    Experiment
        ``population``, ``n_train``, the pool's ``y_pool``, ``pred_a_pool`` and
        ``pred_b_pool`` (``n_pool`` documents each), Dtrue's eight ``true_events`` and
        the seed ``rng``.
    """
    check_choice(setting, "setting", tuple(SETTINGS))
    args = (setting, _check_prior_pos(prior_pos), _check_label_noise(label_noise),
            check_count(n_train, "n_train", minimum=20),
            check_count(n_pool, "n_pool", minimum=10), check_count(n_true, "n_true", minimum=100),
            sklearn_random_state(rng), check_count(chunk, "chunk", minimum=1000))
    if not isinstance(precomputed, (bool, np.bool_)):
        raise TypeError(f"precomputed must be True or False, got {precomputed!r}")
    if precomputed:
        found = _grid_lookup(*args)
        if found is not None:
            return found
    return _build(*args)


@lru_cache(maxsize=24)
def _build(setting: str, prior_pos: float, label_noise: float, n_train: int, n_pool: int, n_true: int,
           seed: int, chunk: int) -> Experiment:
    return _compute(setting, prior_pos, label_noise, n_train, n_pool, n_true, seed, chunk)


def _compute(setting: str, prior_pos: float, label_noise: float, n_train: int, n_pool: int, n_true: int,
             seed: int, chunk: int) -> Experiment:
    population = TextPopulation(SETTINGS[setting], prior_pos=prior_pos, label_noise=label_noise, world_seed=seed)
    rng = np.random.default_rng([seed, 7982])
    X, y = population.sample(n_train, rng)
    learners = fit_learners(X, y, rng=seed)
    Xp, yp = population.sample(n_pool, rng)
    pa, pb = learners.predict(Xp)
    events = np.zeros(8, dtype=np.int64)
    for start in range(0, n_true, chunk):
        Xt, yt = population.sample(min(chunk, n_true - start), rng)
        ta, tb = learners.predict(Xt)
        events += np.bincount(event_codes(yt, ta, tb), minlength=8)
    return Experiment(population=population, n_train=n_train, y_pool=yp, pred_a_pool=pa, pred_b_pool=pb,
                      true_events=events, rng=seed)


# ------------------------------------------------------------ precomputed grid
def _from_codes(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Labels and both predictions (int8) from event codes: the inverse of :func:`evallib.onetestset.event_codes`."""
    codes = np.asarray(codes)
    y = (codes < 4).astype(np.int8)
    a = np.isin(codes, (0, 2, 4, 6)).astype(np.int8)
    b = np.isin(codes, (0, 1, 4, 5)).astype(np.int8)
    return y, a, b


def _grid_entry(setting: str, prior_pos: float, label_noise: float, sizes: dict, chunk: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """One grid experiment computed at ``sizes``: pool event codes (uint8), Dtrue counts (int64)."""
    e = _compute(setting, prior_pos, label_noise, sizes["n_train"], sizes["n_pool"], sizes["n_true"],
                 sizes["seed"], chunk)
    return e.pool_codes.astype(np.uint8), e.true_events.astype(np.int64)


def write_experiment_grid(path: str | Path = GRID_PATH, *, n_jobs: int = 2, progress: bool = True) -> Path:
    """Compute every grid experiment and save them in one compressed ``.npz`` file.

    The grid is the three :data:`SETTINGS` x :data:`GRID_PRIORS` x :data:`GRID_NOISES`
    (270 experiments) at :data:`GRID_SIZES`, each built exactly as
    :func:`build_experiment` with ``precomputed=False`` builds it (about 2 s each;
    ``n_jobs`` worker processes, a ``tqdm.auto`` bar when ``progress``).
    Deterministic: a rerun on the same machine writes identical arrays.

    The file holds ``codes`` (uint8, one row of ``n_pool`` pool event codes 0..7 per
    entry, from which the labels and both predictions are recovered),
    ``true_events`` (int64, Dtrue's eight event counts per entry), the keys
    ``settings``, ``priors``, ``noises`` (one per entry) and the sizes ``n_train``,
    ``n_pool``, ``n_true``, ``seed`` and ``chunk`` it was built with.

    Parameters
    ----------
    path : str or pathlib.Path, default GRID_PATH
        The file to write, ending in ``.npz``, in an existing folder; the default is the
        shipped ``data/textsim_grid.npz`` that :func:`build_experiment` reads.
    n_jobs : int, default 2
        Worker processes, at least 1.
    progress : bool, default True
        Show a ``tqdm.auto`` bar over the 270 experiments.

    Returns
    -------
    pathlib.Path
        The path written.
    """
    if not isinstance(path, (str, Path)):
        raise TypeError(f"path must be a str or pathlib.Path, got {type(path).__name__}")
    path = Path(path)
    if not path.parent.is_dir():
        raise ValueError(f"path must be in an existing folder, but {path.parent} does not exist")
    if path.suffix != ".npz":
        raise ValueError(f"path must end in .npz (numpy.savez_compressed), got {path.name!r}")
    n_jobs = check_count(n_jobs, "n_jobs", minimum=1)
    keys = [(s, p, q) for s in SETTINGS for p in GRID_PRIORS for q in GRID_NOISES]
    sizes = dict(GRID_SIZES)
    parts = parallel_map(_grid_entry, ((*k, sizes, GRID_CHUNK) for k in keys), n_jobs=n_jobs,
                         total=len(keys), progress=bool(progress), unit="experiment")
    codes, events = zip(*parts)
    np.savez_compressed(
        path, codes=np.stack(codes), true_events=np.stack(events),
        settings=np.array([k[0] for k in keys]), priors=np.array([k[1] for k in keys], dtype=float),
        noises=np.array([k[2] for k in keys], dtype=float),
        **{k: np.int64(v) for k, v in sizes.items()}, chunk=np.int64(GRID_CHUNK),
    )
    return path


_GRID_FILES: dict[Path, dict] = {}


def _load_grid(path: Path) -> dict | None:
    """The grid file at ``path`` as a dict of arrays, read once; ``None`` if it is absent."""
    path = Path(path)
    if path not in _GRID_FILES:
        if not path.is_file():
            return None           # not cached: a grid written later is picked up
        with np.load(path, allow_pickle=False) as f:
            data = {k: f[k] for k in f.files}
        data["index"] = {(str(s), float(p), float(q)): i for i, (s, p, q) in
                         enumerate(zip(data["settings"], data["priors"], data["noises"]))}
        data["rebuilt"] = {}
        _GRID_FILES[path] = data
    return _GRID_FILES[path]


def _grid_lookup(setting: str, prior_pos: float, label_noise: float, n_train: int, n_pool: int, n_true: int,
                 seed: int, chunk: int) -> Experiment | None:
    """The precomputed experiment for these (validated) arguments, or ``None`` if there is none."""
    sizes = dict(n_train=n_train, n_pool=n_pool, n_true=n_true, seed=seed)
    if sizes != GRID_SIZES or chunk != GRID_CHUNK:
        return None
    prior = next((p for p in GRID_PRIORS if abs(p - prior_pos) <= GRID_TOLERANCE), None)
    noise = next((q for q in GRID_NOISES if abs(q - label_noise) <= GRID_TOLERANCE), None)
    if prior is None or noise is None:
        return None
    grid = _load_grid(GRID_PATH)
    if grid is None or any(int(grid[k]) != v for k, v in sizes.items()) or int(grid["chunk"]) != chunk:
        return None
    i = grid["index"].get((setting, prior, noise))
    if i is None:
        return None
    rebuilt = grid["rebuilt"]           # one Experiment object per entry, as the compute cache gives
    if i not in rebuilt:
        y, a, b = _from_codes(grid["codes"][i])
        population = TextPopulation(SETTINGS[setting], prior_pos=prior, label_noise=noise, world_seed=seed)
        rebuilt[i] = Experiment(population=population, n_train=n_train, y_pool=y, pred_a_pool=a, pred_b_pool=b,
                                true_events=grid["true_events"][i].astype(np.int64), rng=seed)
    return rebuilt[i]


# ----------------------------------------------------------- one setting, Table 3
def dtrue_replicates(experiment: Experiment, n: int, n_subsamples: int, rng: Any = None) -> np.ndarray:
    """dF1 on ``n_subsamples`` subsets of size ``n`` bootstrapped from Dtrue (section 5).

    Drawing ``n`` of Dtrue's documents with replacement and counting their events is
    one Multinomial(n, true_events / n_true) draw.

    Parameters
    ----------
    experiment : Experiment
        Its ``true_events`` are Dtrue.
    n : int
        Documents per subsample, at least 1 (the test-set size it stands beside).
    n_subsamples : int
        Number of subsamples, at least 1.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, default None
        Randomness of the multinomial draws, normalised by ``check_rng``.

    Returns
    -------
    numpy.ndarray of float, shape (n_subsamples,)
        ``dF1 = F1_B - F1_A`` on each subsample.
    """
    n = check_count(n, "n", minimum=1)
    n_subsamples = check_count(n_subsamples, "n_subsamples", minimum=1)
    ev = experiment.true_events
    return f1_difference(check_rng(rng).multinomial(n, ev / ev.sum(), size=n_subsamples))


@dataclass(frozen=True, eq=False)
class SettingRun:
    """The section 5 experiment for one setting: the bootstrap on Dte and the truth.

    Attributes
    ----------
    setting : the setting's name.
    bootstrap : the bootstrap percentile test on Dte.
    truth : dF1 on the subsamples of Dtrue.
    dtrue_frequency : share of the Dtrue subsamples in which the model the bootstrap
        favours (``bootstrap.winner``) wins: the second column of Table 3.
    true_difference : dF1 on the whole of Dtrue.
    """

    setting: str
    bootstrap: F1Bootstrap
    truth: np.ndarray
    dtrue_frequency: float
    true_difference: float

    def __post_init__(self) -> None:
        freeze_arrays(self)


def _frequency(truth: np.ndarray, winner: str) -> float:
    if winner == "B":
        return float(np.mean(truth > 0))
    if winner == "A":
        return float(np.mean(truth < 0))
    return float(max(np.mean(truth > 0), np.mean(truth < 0)))


@renamed_keywords(reps="n_resamples")
def run_setting(experiment: Experiment, *, n_test: int = PAPER_SIZES["n_test"], n_resamples: int = 10_000,
                n_subsamples: int = 1000, alpha: float = 0.05, rng: Any = None) -> SettingRun:
    """Run section 5 for one trained pair: bootstrap on Dte, truth on Dtrue.

    Dte is the first ``n_test`` documents of the experiment's pool; the truth uses
    ``n_subsamples`` subsets of the same size bootstrapped from Dtrue. ``rng`` (None, an
    int, a SeedSequence or a Generator) drives the bootstrap and then the subsets.

    Parameters
    ----------
    experiment : Experiment
        The trained pair, its pool and Dtrue (:func:`build_experiment`).
    n_test : int, default 7909
        Size of Dte, from 1 to the pool size (the paper's 7,909 by default).
    n_resamples : int, default 10_000
        Bootstrap replicates on Dte, at least 1 (``reps=`` is the deprecated name).
    n_subsamples : int, default 1000
        Dtrue subsamples of ``n_test`` documents for the truth, at least 1.
    alpha : float, default 0.05
        The percentile interval has coverage ``1 - alpha``, in (0, 1).
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, default None
        One generator (``check_rng``) for the bootstrap, then the subsamples.

    Returns
    -------
    SettingRun
        ``setting``, ``bootstrap`` (the percentile test on Dte), ``truth`` (dF1 on the
        Dtrue subsamples), ``dtrue_frequency`` and ``true_difference``.
    """
    y, a, b = experiment.test_set(n_test)
    rng = check_rng(rng)
    boot = bootstrap_f1_difference(y, a, b, n_resamples=n_resamples, alpha=alpha, rng=rng)
    truth = dtrue_replicates(experiment, y.size, n_subsamples, rng)
    return SettingRun(setting=experiment.population.setting.name, bootstrap=boot, truth=truth,
                      dtrue_frequency=_frequency(truth, boot.winner),
                      true_difference=experiment.true_difference)


def _direction(winner: str) -> str:
    return {"B": "F1*B > F1*A", "A": "F1*A > F1*B"}.get(winner, "tie")


def table3(runs: list[SettingRun]) -> pd.DataFrame:
    """Table 3 of our own, one row per setting, plus what the paper could not show.

    Parameters
    ----------
    runs : list of SettingRun
        One :func:`run_setting` result per setting, in the order of the rows.

    Returns
    -------
    pandas.DataFrame
        One row per run: ``experiment`` (the setting), ``bootstrap confidence`` (eq. 13
        in the observed winner's direction), ``direction``, ``percentage on Dtrue``
        (share of Dtrue subsamples agreeing), then ``dF1 on Dte``, its percentile
        interval ``interval low`` and ``interval high`` (level ``1 - alpha`` of the run),
        and ``dF1 on Dtrue`` (the whole of Dtrue).
    """
    rows = []
    for r in runs:
        b = r.bootstrap
        rows.append({
            "experiment": r.setting,
            "bootstrap confidence": b.confidence,
            "direction": _direction(b.winner),
            "percentage on Dtrue": r.dtrue_frequency,
            "dF1 on Dte": b.observed,
            "interval low": b.interval[0],
            "interval high": b.interval[1],
            "dF1 on Dtrue": r.true_difference,
        })
    return pd.DataFrame(rows)


_TABLE3_FORMATS = {"bootstrap confidence": "{:.1%}".format, "percentage on Dtrue": "{:.1%}".format,
                   **{c: "{:+.4f}".format for c in ("dF1 on Dte", "interval low", "interval high",
                                                    "dF1 on Dtrue")}}


def format_table3(table: pd.DataFrame) -> str:
    """Table 3 as text, as the paper prints it: shares in percent, differences signed.

    The two shares (``bootstrap confidence``, ``percentage on Dtrue``) print as
    percentages with one decimal, the dF1 columns with a sign and four decimals; any
    other column as it is. Works for :func:`table3`'s output and for
    :data:`PAPER_TABLE3` (which has only the first four columns).

    Parameters
    ----------
    table : a DataFrame with some of :func:`table3`'s columns.

    Returns
    -------
    str
        The table without its index.

    References
    ----------
    J. Keller, S. Bengio and S. Y. Wong, *Benchmarking non-parametric statistical
    tests*, IDIAP research report, Table 3.

    Examples
    --------
    >>> from evallib.studies import PAPER_TABLE3, format_table3
    >>> print(format_table3(PAPER_TABLE3))
    experiment bootstrap confidence   direction percentage on Dtrue
             X                95.6% F1*B > F1*A               92.4%
             Y                54.2% F1*B > F1*A               69.1%
             Z                96.5% F1*A > F1*B               82.5%
    """
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be a pandas DataFrame, got {type(table).__name__}")
    formats = {c: f for c, f in _TABLE3_FORMATS.items() if c in table.columns}
    return table.to_string(index=False, formatters=formats)


# ----------------------------------------------------------- calibration study
@renamed_keywords(reps="n_resamples")
def calibration_study(experiments: list[Experiment], *, test_sizes: tuple[int, ...] = (500, 2000, 7909),
                      repetitions: int = 100, n_resamples: int = 2000, n_subsamples: int = 1000,
                      alpha: float = 0.05, rng: Any = None, progress: bool = False) -> pd.DataFrame:
    """Repeat Table 3's comparison many times (stated confidence against Dtrue frequency).

    Note what it compares: the bootstrap's confidence in the observed winner is one minus
    a one-sided p-value, the Dtrue frequency is a replication probability; the two differ
    even for a calibrated test (Goodman 1992), so the gap is no measure of over-confidence.
    The test's size and coverage are in :func:`size_coverage_study`.

    For each experiment (trained pair) and test size ``n``, the truth is computed once
    from ``n_subsamples`` Dtrue subsamples of size ``n``; then ``repetitions`` test sets
    of ``n`` documents are drawn at random, without replacement, from the held-out
    pool (documents never seen in training and disjoint from Dtrue) and each gets the
    bootstrap percentile test with ``n_resamples`` replicates. A test set without a positive
    document (possible only for tiny sizes or priors) has no F1 and is skipped, so a
    group can hold fewer than ``repetitions`` rows (``calibration_summary`` counts them).
    ``progress`` shows a ``tqdm.auto`` bar over all ``len(experiments) x
    len(test_sizes) x repetitions`` bootstrap tests (default off).

    Parameters
    ----------
    experiments : list of Experiment
        The trained pairs (:func:`build_experiment`), one per setting or more.
    test_sizes : tuple of int, default (500, 2000, 7909)
        Test-set sizes, each at least 10 and at most the pool size; at least one.
    repetitions : int, default 100
        Test sets drawn per experiment and size, at least 1.
    n_resamples : int, default 2000
        Bootstrap replicates per test set, at least 1 (``reps=`` is the deprecated name).
    n_subsamples : int, default 1000
        Dtrue subsamples per experiment and size for the Dtrue frequency, at least 1.
    alpha : float, default 0.05
        Level of the percentile test (``significant``), in (0, 1).
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, default None
        One generator (``check_rng``) for every draw of the study.
    progress : bool, default False
        Show a ``tqdm.auto`` bar over the bootstrap tests.

    Returns
    -------
    pandas.DataFrame
        One row per repetition: ``setting``, ``test_size``, ``repetition``,
        ``observed`` (dF1 on the test set), ``winner``, ``confidence`` (the bootstrap's
        stated confidence in that winner, as in Table 3), ``dtrue_frequency`` (the
        share of Dtrue subsamples in which that winner wins), ``significant`` (0
        outside the percentile interval) and ``correct`` (the winner is the winner on
        the whole of Dtrue).
    """
    repetitions = check_count(repetitions, "repetitions", minimum=1)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    alpha = check_alpha(alpha)
    sizes = [check_count(n, "test_sizes", minimum=10) for n in test_sizes]
    if not sizes:
        raise ValueError("test_sizes must list at least one test-set size")
    rng = check_rng(rng)
    rows = []
    bar = progress_bar(bool(progress), total=len(experiments) * len(sizes) * repetitions, unit="test")
    for exp in experiments:
        codes = exp.pool_codes
        true_d = exp.true_difference
        true_winner = "B" if true_d > 0 else "A" if true_d < 0 else "tie"
        for n in sizes:
            if n > codes.size:
                raise ValueError(f"test_sizes must not exceed the pool size {codes.size}, got {n}")
            truth = dtrue_replicates(exp, n, n_subsamples, rng)
            for r in range(repetitions):
                bar.update(1)
                pick = rng.choice(codes.size, n, replace=False)
                c = codes[pick]
                y = c < 4
                a = np.isin(c, (0, 2, 4, 6))
                b = np.isin(c, (0, 1, 4, 5))
                if not y.any():
                    continue   # no positive document: F1 undefined, the test cannot be run
                boot = bootstrap_f1_difference(y, a, b, n_resamples=n_resamples, alpha=alpha, rng=rng)
                rows.append({
                    "setting": exp.population.setting.name, "test_size": n, "repetition": r,
                    "observed": boot.observed, "winner": boot.winner, "confidence": boot.confidence,
                    "dtrue_frequency": _frequency(truth, boot.winner),
                    "significant": boot.reject, "correct": boot.winner == true_winner,
                })
    bar.close()
    return pd.DataFrame(rows)


def calibration_summary(study: pd.DataFrame) -> pd.DataFrame:
    """Per setting and test size: mean stated confidence vs mean frequency on Dtrue.

    Parameters
    ----------
    study : pandas.DataFrame
        The table of :func:`calibration_study` (its ``setting``, ``test_size``,
        ``confidence``, ``dtrue_frequency``, ``correct`` and ``significant`` columns).

    Returns
    -------
    pandas.DataFrame
        One row per setting and test size: ``setting``, ``test_size``, ``stated`` (mean
        bootstrap confidence), ``on Dtrue`` (mean share of Dtrue subsamples agreeing
        with the stated winner), ``gap`` (stated minus on Dtrue: positive means the
        stated confidence is higher; see :func:`calibration_study` for why that is no
        measure of over-confidence), ``right winner`` (share of repetitions naming the
        winner on the whole of Dtrue), ``significant`` (share with 0 outside the
        interval) and ``repetitions`` (test sets with a positive document).
    """
    g = study.groupby(["setting", "test_size"])
    out = pd.DataFrame({
        "stated": g["confidence"].mean(),
        "on Dtrue": g["dtrue_frequency"].mean(),
        "right winner": g["correct"].mean(),
        "significant": g["significant"].mean(),
        "repetitions": g.size(),
    })
    out.insert(2, "gap", out["stated"] - out["on Dtrue"])
    return out.reset_index()


def calibration_bins(study: pd.DataFrame, edges: tuple[float, ...] = (0.5, 0.8, 0.9, 0.95, 0.99, 1.0)) -> pd.DataFrame:
    """Reliability table: pooled over settings, per test size and stated-confidence bin.

    For repetitions whose stated confidence falls in ``[edges[i], edges[i+1])`` (the
    last bin closed), the mean stated confidence, the mean frequency on Dtrue, the
    share naming the true winner, and the count.

    Parameters
    ----------
    study : pandas.DataFrame
        The table of :func:`calibration_study`.
    edges : tuple of float, default (0.5, 0.8, 0.9, 0.95, 0.99, 1.0)
        The bins' edges: at least two, increasing, in [0, 1]; a confidence outside
        them goes to the first or the last bin.

    Returns
    -------
    pandas.DataFrame
        One row per test size and non-empty bin: ``test_size``, ``bin`` (an ordered
        categorical labelled ``"[0.50, 0.80)"``, ...), ``stated``, ``on Dtrue``,
        ``right winner`` and ``count``.
    """
    edges = np.asarray(edges, dtype=float)
    if edges.ndim != 1 or edges.size < 2 or np.any(np.diff(edges) <= 0) or edges[0] < 0 or edges[-1] > 1:
        raise ValueError("edges must be at least two increasing numbers in [0, 1]")
    labels = [f"[{lo:.2f}, {hi:.2f}{']' if i == edges.size - 2 else ')'}" for i, (lo, hi) in
              enumerate(zip(edges[:-1], edges[1:]))]
    idx = np.clip(np.searchsorted(edges, study["confidence"].to_numpy(), side="right") - 1, 0, edges.size - 2)
    d = study.assign(bin=pd.Categorical(np.array(labels)[idx], categories=labels, ordered=True))
    g = d.groupby(["test_size", "bin"], observed=True)
    return pd.DataFrame({
        "stated": g["confidence"].mean(),
        "on Dtrue": g["dtrue_frequency"].mean(),
        "right winner": g["correct"].mean(),
        "count": g.size(),
    }).reset_index()


# ------------------------------------------------ the test's size and coverage
@renamed_keywords(reps="n_resamples")
def size_coverage_study(experiments: list[Experiment], *, test_sizes: tuple[int, ...] = (500, 2000, 7909),
                        repetitions: int = 1000, n_resamples: int = 1000, alpha: float = 0.05, rng: Any = None,
                        progress: bool = False) -> pd.DataFrame:
    """The checks that answer the paper's question: the F1 test's size and coverage.

    For each experiment (its Dtrue taken as the population) and test-set size ``n``,
    :func:`evallib.onetestset.f1_test_check` draws ``repetitions`` test sets of ``n``
    documents and runs the bootstrap percentile test (``n_resamples`` replicates) on each:

    * **coverage**: how often the ``1 - alpha`` interval contains dF1 on all of Dtrue
      (nominal ``1 - alpha``);
    * **rejects**: how often it declares the models different (its power when dF1 is not 0);
    * **size**: the same rejection rate on the setting's null twin
      (:func:`evallib.onetestset.null_population`: the two models' discordant events
      averaged, so dF1 = 0 exactly while the prior and the shared mistakes stay),
      to be compared with ``alpha``.

    Each rate comes with its Monte Carlo standard error ``sqrt(r (1 - r) / repetitions)``.

    Parameters
    ----------
    experiments : list of :class:`Experiment`
    test_sizes : test-set sizes, each ``>= 10``.
    repetitions : simulated test sets per setting, size and population, ``>= 2``.
    n_resamples : bootstrap replicates per test set, ``>= 1``.
    alpha : one minus the interval's level, in (0, 1).
    rng : None, int, SeedSequence or numpy.random.Generator
    progress : show a ``tqdm.auto`` bar over the settings and sizes.

    Returns
    -------
    pandas.DataFrame
        One row per setting and test size: ``setting``, ``test_size``, ``dF1``
        (on Dtrue), ``coverage``, ``coverage_se``, ``rejects``, ``rejects_se``,
        ``size``, ``size_se``, ``repetitions``.

    References
    ----------
    Keller, Bengio & Wong, *Benchmarking non-parametric statistical tests*, IDIAP, section 5
    (the question left open: "whether it includes an intrinsic bias"); S. N. Goodman (1992),
    *A comment on replication, p-values and evidence*, Statistics in Medicine 11, 875-879
    (why Table 3's comparison cannot answer it).
    """
    repetitions = check_count(repetitions, "repetitions", minimum=2)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    alpha = check_alpha(alpha)
    sizes = [check_count(n, "test_sizes", minimum=10) for n in test_sizes]
    if not sizes:
        raise ValueError("test_sizes must list at least one test-set size")
    gen = check_rng(rng)
    rows = []
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=len(experiments) * len(sizes), unit="setting x size")
    for exp in experiments:
        null = null_population(exp.true_events)
        for n in sizes:
            real = f1_test_check(exp.true_events, n, repetitions=repetitions, n_resamples=n_resamples, alpha=alpha, rng=gen)
            tie = f1_test_check(null, n, repetitions=repetitions, n_resamples=n_resamples, alpha=alpha, rng=gen)
            rows.append({"setting": exp.population.setting.name, "test_size": n, "dF1": real.true_difference,
                         "coverage": real.coverage, "coverage_se": real.coverage_se,
                         "rejects": real.rejection, "rejects_se": real.rejection_se,
                         "size": tie.rejection, "size_se": tie.rejection_se, "repetitions": repetitions})
            if bar is not None:
                bar.update(1)
    if bar is not None:
        bar.close()
    return pd.DataFrame(rows)


def _flag_probabilities(nominal: float, repetitions: np.ndarray, k: float) -> np.ndarray:
    """Chance that a perfect test's rate, ``Binomial(R, nominal) / R``, lands more than
    ``k`` nominal standard errors ``sqrt(nominal (1 - nominal) / R)`` from ``nominal``:
    exact binomial tails, one per entry of ``repetitions`` (4.96% for ``R = 1000`` and a
    nominal 5% or 95% at ``k = 2``; the normal approximation's 4.55% is too low)."""
    out = []
    for r in np.asarray(repetitions, dtype=float):
        r = int(r)
        half = k * np.sqrt(nominal * (1 - nominal) * r)       # in counts
        law = stats.binom(r, nominal)
        # strictly beyond: X > r p + half, or X < r p - half
        upper = law.sf(np.floor(r * nominal + half + 1e-9))
        lower = law.cdf(np.ceil(r * nominal - half - 1e-9) - 1)
        out.append(float(upper + lower))
    return np.array(out)


def _at_least(count: int, probabilities: np.ndarray) -> float:
    """P(at least ``count`` successes) among independent trials with these chances
    (the Poisson-binomial law, by convolution)."""
    law = np.array([1.0])
    for p in probabilities:
        law = np.convolve(law, [1 - p, p])
    return float(law[count:].sum()) if count > 0 else 1.0


def _check_study_summary(study: Any, alpha: Any, k: Any, extra: set[str]) -> tuple[float, float, str]:
    """Validate a size_coverage_study table and the level and bar of a summary of it; k in words."""
    if not isinstance(study, pd.DataFrame):
        raise TypeError(f"study must be a pandas DataFrame, got {type(study).__name__}")
    missing = ({"setting", "test_size", "coverage", "size", "repetitions"} | extra) - set(study.columns)
    if missing:
        raise ValueError(f"study must have the columns of size_coverage_study; missing {sorted(missing)}")
    if study.empty:
        raise ValueError("study must have at least one row")
    alpha = check_alpha(alpha)
    k = check_real(k, "k", low=0, low_open=True)
    return alpha, k, {1.0: "one", 2.0: "two", 3.0: "three", 4.0: "four"}.get(float(k), f"{k:g}")


def _row_deviations(rates: Any, nominal: float, repetitions: np.ndarray) -> np.ndarray:
    """Each row's rate minus ``nominal``, in standard errors of a nominal rate over its repetitions."""
    return (np.asarray(rates, dtype=float) - nominal) / np.sqrt(nominal * (1 - nominal) / repetitions)


def size_coverage_summary(study: pd.DataFrame, *, alpha: float = 0.05, k: float = 2.0) -> str:
    """What a :func:`size_coverage_study` table says, as Markdown bullets.

    For the size (nominal ``alpha``) and the coverage (nominal ``1 - alpha``): the range
    over the table's rows, and the setting x size combinations more than ``k`` Monte Carlo
    standard errors from the nominal rate, each way. The standard error is taken at the
    nominal rate, ``sqrt(r0 (1 - r0) / repetitions)``, so a flag is a two-sided test of
    "this rate is the nominal one", and a perfect test is flagged by chance in the share
    of the checks that the binomial law of its rate gives (4.96% at ``k = 2`` and 1,000
    repetitions, where the normal approximation would say 4.55%); the summary says how
    many flags that makes among the table's ``2 x rows`` checks. Last, the power (``rejects``) at the
    smallest and the largest test size.

    Parameters
    ----------
    study : the DataFrame returned by :func:`size_coverage_study`.
    alpha : the level the study was run at, in (0, 1).
    k : how many standard errors make a flag, > 0.

    Returns
    -------
    str
        Four Markdown bullet lines.

    References
    ----------
    Keller, Bengio & Wong, *Benchmarking non-parametric statistical tests*, IDIAP, section 5.

    Examples
    --------
    >>> import pandas as pd
    >>> from evallib.studies import size_coverage_summary
    >>> study = pd.DataFrame({"setting": ["X", "X"], "test_size": [500, 8000],
    ...                       "coverage": [0.92, 0.95], "size": [0.05, 0.03],
    ...                       "rejects": [0.1, 0.9], "repetitions": [1000, 1000]})
    >>> print(size_coverage_summary(study).splitlines()[0])  # doctest: +NORMALIZE_WHITESPACE
    - **Size** (nominal 5%): between 3.0% and 5.0% over the 2 combinations of setting and test size. More
      than two standard errors above 5% (too many false alarms): none; below (conservative): X at 8,000 (3.0%).
    """
    alpha, k, words = _check_study_summary(study, alpha, k, {"rejects"})
    reps = study["repetitions"].to_numpy(dtype=float)

    def flags(rates: pd.Series, nominal: float, sign: int) -> str:
        out = sign * _row_deviations(rates, nominal, reps) > k
        hits = [f"{s} at {n:,} ({r:.1%})" for s, n, r, o in
                zip(study["setting"], study["test_size"], rates, out) if o]
        return ", ".join(hits) or "none"

    n = len(study)
    size, cov = study["size"], study["coverage"]
    level = 1 - alpha
    chances = np.concatenate([_flag_probabilities(alpha, reps, k), _flag_probabilities(level, reps, k)])
    expected = float(chances.sum())
    lo, hi = chances.min(), chances.max()
    share = f"{lo:.2%}" if np.isclose(lo, hi) else f"{lo:.2%} to {hi:.2%}"
    small = study[study["test_size"] == study["test_size"].min()]["rejects"]
    big = study[study["test_size"] == study["test_size"].max()]["rejects"]
    return "\n".join([
        f"- **Size** (nominal {100 * alpha:g}%): between {size.min():.1%} and {size.max():.1%} over the {n} "
        f"combinations of setting and test size. More than {words} standard errors above {100 * alpha:g}% (too many "
        f"false alarms): {flags(size, alpha, 1)}; below (conservative): {flags(size, alpha, -1)}.",
        f"- **Coverage** (nominal {100 * level:g}%): between {cov.min():.1%} and {cov.max():.1%}. More than {words} "
        f"standard errors below {100 * level:g}% (interval too narrow): {flags(cov, level, -1)}; "
        f"above: {flags(cov, level, 1)}.",
        f"- Each such check lands more than {words} standard errors out by chance alone in "
        f"{share} of cases (the binomial law of a nominal rate), so among {2 * n} checks about {expected:.1f} flags are expected "
        f"even for a perfect test; a pattern (for example, flags only at the smallest test size) is what matters.",
        f"- **Power** (rejections of dF1 = 0 on the real populations): {small.min():.0%}–{small.max():.0%} at "
        f"{study['test_size'].min():,} documents, {big.min():.0%}–{big.max():.0%} at {study['test_size'].max():,}.",
    ])


def size_coverage_verdict(study: pd.DataFrame, *, alpha: float = 0.05, k: float = 2.0) -> str:
    """The verdict of a :func:`size_coverage_study`, per test-set size, as Markdown.

    For each test-set size the rates are pooled over the settings (their mean), and the
    pooled coverage and size are compared with their nominal values ``1 - alpha`` and
    ``alpha`` in units of the standard error a nominal rate would have,
    ``sqrt(r0 (1 - r0) / (m R))`` for ``m`` settings of ``R`` repetitions each. A pooled
    rate more than ``k`` of them away fails: the interval *under-covers* (or
    over-covers), the test has *too many false alarms* (or is conservative). With ``c``
    pooled checks (coverage and size at each test size) one of them crosses ``k`` by chance
    more often than a single check would, so each failure also says whether it crosses the
    Sidak bar ``k_c = Phi^-1(1 - q_c / 2)``, ``q_c = 1 - (1 - 2 (1 - Phi(k)))^(1/c)``, that a
    perfect test crosses in any of the ``c`` checks with the single check's chance (2.66
    standard errors for ``c = 6`` at ``k = 2``): "firm" beyond it, "may be chance" short of it. Then the
    flags of single rows (as in :func:`size_coverage_summary`) are counted against the
    number a perfect test would give, with the probability of at least that many (each
    check's chance from the binomial law of a nominal rate, the checks independent: the
    study draws every row's test sets afresh).

    Parameters
    ----------
    study : the DataFrame returned by :func:`size_coverage_study`.
    alpha : the level the study was run at, in (0, 1).
    k : how many standard errors make a failure, > 0.

    Returns
    -------
    str
        Markdown: a verdict line for the coverage, one for the size, one for the count of
        flags.

    Examples
    --------
    >>> import pandas as pd
    >>> from evallib.studies import size_coverage_verdict
    >>> study = pd.DataFrame({"setting": ["X", "Y", "X", "Y"], "test_size": [500, 500, 8000, 8000],
    ...                       "coverage": [0.92, 0.93, 0.95, 0.951], "size": [0.05, 0.052, 0.049, 0.05],
    ...                       "repetitions": [1000] * 4})
    >>> print(size_coverage_verdict(study).splitlines()[0])  # doctest: +NORMALIZE_WHITESPACE
    - **Coverage**: the 95% interval under-covers at 500 documents (pooled over 2 settings: 92.5% ± 0.5%,
      2.5 points = 5.1 standard errors short of 95%; beyond 2.52, the bar for 4 checks together: firm); it
      holds at 8,000 (95.0%), within two standard errors.
    """
    alpha, k, words = _check_study_summary(study, alpha, k, set())

    # Several pooled checks (coverage and size at each test size): one of them crosses k by
    # chance more often than a single check does. The Sidak bar k_all keeps the chance that a
    # perfect test crosses it in *any* of them at the single check's 2 (1 - Phi(k)).
    n_pooled = 2 * study["test_size"].nunique()
    single = 2 * stats.norm.sf(k)
    k_all = float(stats.norm.isf(-np.expm1(np.log1p(-single) / n_pooled) / 2))

    def judge(what: str, nominal: float, low_word: str, high_word: str) -> str:
        bad, good = [], []
        for n, part in study.groupby("test_size", sort=True):
            m = len(part)
            rate = float(part[what].mean())
            se = float(np.sqrt(nominal * (1 - nominal) / part["repetitions"].sum()))
            z = (rate - nominal) / se
            if abs(z) > k:
                word = low_word if z < 0 else high_word
                said = any(b.startswith(word) for b in bad)     # "... and at 2,000", not the word again
                firm = (f"beyond {k_all:.2f}, the bar for {n_pooled} checks together: firm" if abs(z) > k_all else
                        f"short of {k_all:.2f}, the bar for {n_pooled} checks together: it may be chance")
                bad.append(f"{'' if said else word + ' '}at {int(n):,} documents (pooled over {m} setting{'s' * (m > 1)}: "
                           f"{rate:.1%} ± {se:.1%}, {100 * abs(rate - nominal):.1f} points = {abs(z):.1f} "
                           f"standard errors {'short of' if z < 0 else 'above'} {100 * nominal:g}%; {firm})")
            else:
                good.append((int(n), rate))
        held = ", ".join(f"{n:,} ({r:.1%})" for n, r in good)
        if not bad:
            return f"holds at every test size, within {words} standard errors of {100 * nominal:g}%: {held}."
        tail = f"; it holds at {held}, within {words} standard errors." if good else "."
        return " and ".join(bad) + tail

    level = 1 - alpha
    reps = study["repetitions"].to_numpy(dtype=float)
    flagged = sum(int(np.sum(np.abs(_row_deviations(study[what], nominal, reps)) > k))
                  for what, nominal in (("coverage", level), ("size", alpha)))
    checks = 2 * len(study)
    chances = np.concatenate([_flag_probabilities(level, reps, k), _flag_probabilities(alpha, reps, k)])
    chance = _at_least(flagged, chances)
    reading = ("more than chance explains" if chance < 0.05 else "no more than chance would give")
    return "\n".join([
        f"- **Coverage**: the {100 * level:g}% interval {judge('coverage', level, 'under-covers', 'over-covers')}",
        f"- **Size**: the test {judge('size', alpha, 'is conservative', 'has too many false alarms')}",
        f"- **Single rows**: {flagged} of the {checks} checks lie more than {words} standard errors from "
        f"nominal, where a perfect test gives {chances.sum():.1f} on average and {flagged} or more with "
        f"probability {chance:.2g}: {reading}.",
    ])


def plot_size_coverage(table: pd.DataFrame, ax: Any = None, *, what: str = "coverage",
                       alpha: float = 0.05) -> Any:
    """Coverage (or size) of the percentile test against the test-set size, per setting.

    Draws the rates of :func:`size_coverage_study` with bars of two Monte Carlo
    standard errors either side, and the nominal level (``1 - alpha`` for coverage,
    ``alpha`` for size) as a dotted line.

    Parameters
    ----------
    table : pandas.DataFrame
        The table of :func:`size_coverage_study` (``setting``, ``test_size`` and the
        chosen rate with its ``_se`` column).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure if None.
    what : {"coverage", "size"}, default "coverage"
        Which rate to draw.
    alpha : float, default 0.05
        The level the study was run at, in (0, 1); it places the nominal line.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on.
    """
    check_choice(what, "what", ("coverage", "size"))
    alpha = check_alpha(alpha)
    ax = get_axes(ax, figsize=(5.5, 3.6))
    settings = list(dict.fromkeys(table["setting"]))
    shift = 0.03
    for k, name in enumerate(settings):
        part = table[table["setting"] == name]
        x = part["test_size"].to_numpy(float) * np.exp(shift * (k - (len(settings) - 1) / 2))
        ax.errorbar(x, part[what], yerr=2 * part[f"{what}_se"], fmt="o-", capsize=3, label=f"setting {name}")
    nominal = 1 - alpha if what == "coverage" else alpha
    ax.axhline(nominal, color="grey", ls=":", lw=1.2, label=f"nominal {100 * nominal:g}%")
    ax.set_xscale("log")
    sizes = sorted(set(table["test_size"]))
    ax.set_xticks(sizes)
    ax.set_xticklabels([f"{n:,}" for n in sizes])
    ax.minorticks_off()
    ax.set_xlabel("test-set size")
    ax.set_ylabel("coverage of the true dF1" if what == "coverage" else "rejection rate when dF1 = 0")
    ax.set_title("Percentile interval: coverage (bars: 2 Monte Carlo SE)" if what == "coverage"
                 else "Percentile test: size (bars: 2 Monte Carlo SE)", fontsize=10)
    ax.legend(fontsize=8)
    return ax


def plot_tie_confidence(confidence: Any, ax: Any = None, *, bins: int = 10) -> Any:
    """Histogram of the stated confidence in the observed winner when dF1 = 0 exactly.

    ``confidence`` is :attr:`evallib.onetestset.F1TestCheck.confidence` of a null
    population. For a calibrated test it is uniform on [0.5, 1] (dotted line): one
    minus a one-sided p-value that is uniform under the null.

    Parameters
    ----------
    confidence : array-like of float, shape (m,)
        The stated confidences, finite and at least one.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure if None.
    bins : int, default 10
        Number of equal bins on [0.5, 1].

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on.
    """
    values = np.asarray(confidence, dtype=float)
    if values.ndim != 1 or values.size == 0 or not np.all(np.isfinite(values)):
        raise ValueError("confidence must be a non-empty one-dimensional array of finite numbers")
    ax = get_axes(ax, figsize=(5.5, 3.4))
    ax.hist(values, bins=np.linspace(0.5, 1.0, bins + 1), density=True, color="tab:blue", alpha=0.6,
            label=f"{values.size:,} test sets")
    ax.axhline(2.0, color="grey", ls=":", lw=1.2, label="uniform on [0.5, 1]")
    ax.set_xlim(0.5, 1.0)
    ax.set_xlabel("stated confidence in the test set's winner (eq. 13)")
    ax.set_ylabel("density")
    ax.set_title("Under an exact tie", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    return ax


# ------------------------------------------------------------------------ DCF
@renamed_keywords(reps="n_resamples")
def dcf_comparison(experiment: Experiment, *, n_test: int = PAPER_SIZES["n_test"], cost_fn: float = 1.0,
                   cost_fp: float = 1.0, prior_pos: float = 0.5, n_resamples: int = 10_000, n_subsamples: int = 1000,
                   rng: Any = None) -> pd.DataFrame:
    """DCF_A - DCF_B on Dte: eq. (8), eq. (9), a bootstrap, and the spread on Dtrue.

    Rows: the independent test (eq. 8), the paired test (eq. 9), the class-stratified
    bootstrap (:func:`evallib.onetestset.bootstrap_dcf_difference`) and the standard
    deviation of the difference over ``n_subsamples`` Dtrue subsamples of the same size
    (the "truth" the three estimates of spread try to match). Columns: ``difference``,
    ``se`` (the standard deviation of the difference), ``statistic`` (z = difference / se),
    ``pvalue`` (two-sided normal) and, for the bootstrap,
    the 95% interval.

    Parameters
    ----------
    experiment : Experiment
        The trained pair; Dte is its first ``n_test`` pool documents.
    n_test : int, default 7909
        Size of Dte, from 1 to the pool size.
    cost_fn, cost_fp : float, default 1.0
        The costs of a miss and of a false alarm, each >= 0 and not both 0.
    prior_pos : float, default 0.5
        The prior ``P(p)`` of a positive in the DCF, in (0, 1).
    n_resamples : int, default 10_000
        Bootstrap replicates, at least 1 (``reps=`` is the deprecated name).
    n_subsamples : int, default 1000
        Dtrue subsamples of ``n_test`` documents, at least 2 (those without a positive
        or without a negative are dropped).
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, default None
        One generator (``check_rng``) for the bootstrap, then the subsamples.

    Returns
    -------
    pandas.DataFrame
        Four rows, ``method`` ``"independent, eq. (8)"``, ``"paired, eq. (9)"``,
        ``"bootstrap (stratified)"`` and ``"Dtrue subsamples (truth)"`` (the difference
        on all of Dtrue, the subsamples' standard deviation and their 2.5% and 97.5%
        quantiles), with the columns ``difference``, ``se``, ``statistic``, ``pvalue``,
        ``interval low`` and ``interval high`` (NaN for the two tests).
    """
    y, a, b = experiment.test_set(n_test)
    kw = dict(cost_fn=cost_fn, cost_fp=cost_fp, prior_pos=prior_pos)
    rng = check_rng(rng)
    ind = dcf_test(y, a, b, paired=False, **kw)
    par = dcf_test(y, a, b, paired=True, **kw)
    boot = bootstrap_dcf_difference(y, a, b, n_resamples=n_resamples, rng=rng, **kw)
    ev = experiment.true_events
    sub = rng.multinomial(y.size, ev / ev.sum(), size=check_count(n_subsamples, "n_subsamples", minimum=2))
    sub = sub[(sub[:, :4].sum(1) > 0) & (sub[:, 4:].sum(1) > 0)]
    true_vals = dcf_difference(sub, **kw)

    def row(name, diff, sd, lo=np.nan, hi=np.nan):
        z = diff / sd if sd > 0 else 0.0
        return {"method": name, "difference": diff, "se": sd, "statistic": z, "pvalue": 2 * stats.norm.sf(abs(z)),
                "interval low": lo, "interval high": hi}

    return pd.DataFrame([
        row("independent, eq. (8)", ind.difference, ind.se),
        row("paired, eq. (9)", par.difference, par.se),
        row("bootstrap (stratified)", boot.observed, boot.se, *boot.interval),
        row("Dtrue subsamples (truth)", float(dcf_difference(ev, **kw)), float(np.std(true_vals, ddof=1)),
            *np.quantile(true_vals, [0.025, 0.975])),
    ])


# ------------------------------------------------------------------------ plots
def plot_replicates(run: SettingRun, ax=None, *, bins: int = 40):
    """Figure 1 redrawn: histogram of dF1* on Dte beside dF1 on the Dtrue subsamples.

    The shaded band is the bootstrap's percentile interval (eq. 14), the dashed line
    dF1 on the whole of Dtrue.

    Parameters
    ----------
    run : SettingRun
        One :func:`run_setting` result (its bootstrap replicates and ``truth``).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure if None.
    bins : int, default 40
        Number of bins, shared by the two histograms.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on.
    """
    ax = get_axes(ax, figsize=(7, 3.6))
    b = run.bootstrap
    both = np.concatenate([b.replicates, run.truth])
    edges = np.histogram_bin_edges(both, bins=bins)
    ax.hist(b.replicates, bins=edges, density=True, alpha=0.55, color="tab:blue",
            label=f"bootstrap on Dte ({b.replicates.size:,} replicates)")
    ax.hist(run.truth, bins=edges, density=True, histtype="step", lw=1.8, color="tab:orange",
            label=f"Dtrue subsamples ({run.truth.size:,})")
    ax.axvspan(*b.interval, color="tab:blue", alpha=0.10, label=f"{100 * (1 - b.alpha):g}% percentile interval")
    ax.axvline(0, color="black", lw=1)
    ax.axvline(run.true_difference, color="tab:orange", ls="--", lw=1.2, label="dF1 on all of Dtrue")
    ax.set_xlabel("dF1 = F1_B - F1_A")
    ax.set_ylabel("density")
    ax.set_title(f"Setting {run.setting}: bootstrap confidence {b.confidence:.1%} ({_direction(b.winner)}), "
                 f"on Dtrue {run.dtrue_frequency:.1%}", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    return ax


def plot_calibration(study: pd.DataFrame, ax=None,
                     edges: tuple[float, ...] = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0)):
    """Reliability diagram: mean frequency on Dtrue against stated confidence, per test size.

    Points below the diagonal are over-confident bins.

    Parameters
    ----------
    study : pandas.DataFrame
        The table of :func:`calibration_study`, binned by :func:`calibration_bins`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure if None.
    edges : tuple of float, default (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0)
        The bins' edges, as for :func:`calibration_bins`.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on.
    """
    ax = get_axes(ax, figsize=(5, 4.5))
    table = calibration_bins(study, edges)
    for n, part in table.groupby("test_size"):
        ax.plot(part["stated"], part["on Dtrue"], "o-", label=f"test size {n:,}")
    ax.plot([0.5, 1], [0.5, 1], color="grey", lw=1, ls=":", label="calibrated")
    ax.set_xlim(0.48, 1.01)
    ax.set_ylim(0.0, 1.02)
    ax.set_xlabel("stated confidence (bootstrap, eq. 13)")
    ax.set_ylabel("frequency on Dtrue subsamples")
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title("Is the percentile test's confidence right?", fontsize=10)
    return ax


def printed_eq12(events: Any) -> Any:
    """Eq. (12) of Keller, Bengio & Wong exactly as the extracted text prints it (notebook 03).

    ``2 [ (e1 + e3) / (N_p + e1 + e3 + e4 + e6) - (e1 + e2) / (N_p + e1 + e2 + e4 + e5) ]``
    with ``N_p = e1 + e2 + e3 + e4``. It is *not* F1_B - F1_A under the paper's Table 1;
    :func:`evallib.f1_difference` is (the rebuilt equation).

    Parameters
    ----------
    events : array_like
        The eight joint event counts ``e1 .. e8`` (last axis of length 8), as
        :func:`evallib.joint_events` returns them.

    Returns
    -------
    float or numpy.ndarray
        The printed expression, one value per row of eight counts.

    References
    ----------
    Keller, M., Bengio, S. & Wong, S. Y. Benchmarking non-parametric statistical tests.
    IDIAP Research Report, eq. (12).

    Examples
    --------
    >>> from evallib import f1_difference
    >>> events = [40, 5, 8, 30, 3, 4, 2, 908]
    >>> round(float(printed_eq12(events)), 4), round(float(f1_difference(events)), 4)
    (0.0228, -0.0392)
    """
    ev = np.asarray(events, dtype=float)
    if ev.ndim < 1 or ev.shape[-1] != 8 or not np.all(np.isfinite(ev)) or (ev < 0).any():
        raise ValueError(f"events must hold eight non-negative counts e1..e8 per row, got shape {ev.shape}")
    e = [ev[..., i] for i in range(8)]
    n_p = e[0] + e[1] + e[2] + e[3]
    return 2.0 * ((e[0] + e[2]) / (n_p + e[0] + e[2] + e[3] + e[5])
                  - (e[0] + e[1]) / (n_p + e[0] + e[1] + e[3] + e[4]))
