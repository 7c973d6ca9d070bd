"""The five models of Berrar & Lozano (2013), section 7.

* Model #1: diagonal linear discriminant analysis (DLDA, eq. 6) on the 30
  genes with the smallest Welch t-test p-values in the learning set.
* Model #2: the same with the top 10 genes.
* Model #3: DLDA on the top 30 genes of a corrupted learning set in which
  five ER+ and five ER- labels were swapped (:func:`swap_labels`).
* Model #4: a fair coin (:func:`fair_coin`).
* Model #5: the class prior of the learning set, without covariates
  (:func:`class_prior_model`).

All randomness comes from an explicitly passed ``numpy.random.Generator``.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._validate import check_binary_labels, check_int, check_rng
from ._data import _apportion

__all__ = [
    "DLDA",
    "class_prior_model",
    "fair_coin",
    "fit_dlda_top_genes",
    "predict_top_genes",
    "swap_labels",
    "welch_pvalues",
    "welch_select",
]


def _as_matrix(X: object, name: str = "X") -> np.ndarray:
    arr = np.asarray(X.to_numpy() if isinstance(X, pd.DataFrame) else X, dtype=float)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-dimensional (samples x features), got shape {arr.shape}")
    return arr


def _check_xy(X: object, y: object) -> tuple[np.ndarray, np.ndarray]:
    Xa = _as_matrix(X)
    ya = check_binary_labels(y, "y")
    if Xa.shape[0] != ya.size:
        raise ValueError(
            f"X and y must have the same number of samples, got {Xa.shape[0]} and {ya.size}"
        )
    return Xa, ya


# ---------------------------------------------------------------------------
# Gene selection
# ---------------------------------------------------------------------------


def welch_pvalues(X: object, y: object) -> np.ndarray:
    """Two-sided Welch t-test p-value of every feature (section 7).

    Parameters
    ----------
    X : array-like or pandas.DataFrame of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Two classes; each needs at least two samples.

    Returns
    -------
    numpy.ndarray of shape (n_features,)
        p-values of the unequal-variance t-test between the two classes: Welch's
        statistic ``(mean_a - mean_b) / sqrt(v_a / n_a + v_b / n_b)`` with the
        Welch–Satterthwaite degrees of freedom, every feature at once in numpy (what
        ``scipy.stats.ttest_ind(..., equal_var=False, axis=0)`` computes, without its
        per-call overhead: the case study's sliders re-run it). NaN where the test is
        undefined (a feature constant within both classes).
    """
    Xa, ya = _check_xy(X, y)
    classes = np.unique(ya)
    a, b = Xa[ya == classes[0]], Xa[ya == classes[1]]
    n_a, n_b = len(a), len(b)
    if min(n_a, n_b) < 2:
        raise ValueError("y must have at least 2 samples in each class for Welch's t-test")
    se_a, se_b = a.var(axis=0, ddof=1) / n_a, b.var(axis=0, ddof=1) / n_b
    se2 = se_a + se_b
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(se2)
        df = se2 ** 2 / (se_a ** 2 / (n_a - 1) + se_b ** 2 / (n_b - 1))
        p = 2.0 * stats.t.sf(np.abs(t), df)
    return np.where(se2 > 0, p, np.nan)


def _rank_pvalues(p: np.ndarray, k: int) -> np.ndarray:
    # NaN p-values (no variance in either class) are ranked last; the stable
    # sort breaks ties by column position.
    keyed = np.where(np.isnan(p), np.inf, p)
    return np.argsort(keyed, kind="stable")[:k].astype(np.intp)


def welch_select(X: object, y: object, k: int) -> np.ndarray:
    """Positions of the ``k`` features with the smallest Welch p-values.

    The gene selection of models #1-#3 (section 7): "using Welch's t-test, we
    selected n = 30 top-scoring genes, i.e. those with the smallest p-values
    for the discrimination between ER- and ER+ in the learning set".

    Parameters
    ----------
    X : array-like or pandas.DataFrame of shape (n_samples, n_features)
        Learning-set data only (selection must not see the test set).
    y : array-like of shape (n_samples,)
        Two classes, at least two samples each.
    k : int
        Number of features to keep, ``1 <= k <= n_features``.

    Returns
    -------
    numpy.ndarray of int, shape (k,)
        Column positions in increasing order of p-value. Ties are broken by
        column position (stable sort); features with an undefined p-value
        (zero variance in both classes) are ranked last.
    """
    p = welch_pvalues(X, y)
    k = check_int(k, "k", 1, p.size)
    return _rank_pvalues(p, k)


# ---------------------------------------------------------------------------
# DLDA
# ---------------------------------------------------------------------------


class DLDA:
    """Diagonal linear discriminant analysis, eq. (6) of Berrar & Lozano (2013).

    A sample ``x`` is assigned to the class ``c`` minimising

    .. math:: \\mathrm{dlda}(x, c) = \\sum_{i=1}^{p} (x_i - \\bar x_{ci})^2 / s_i^2,

    where :math:`\\bar x_{ci}` is the mean of feature ``i`` in class ``c`` and
    :math:`s_i^2` the pooled within-class variance
    :math:`\\sum_c \\sum_{x \\in c} (x_i - \\bar x_{ci})^2 / (n - K)`
    (``n`` samples, ``K`` classes).

    As in eq. (6) there is no class-prior term. Ties go to the first class
    in sorted label order. Features with :math:`s_i^2 = 0` (constant within
    every class) are left out of the sum, since eq. (6) is undefined for
    them. The learning algorithm is deterministic.

    Attributes
    ----------
    classes_ : numpy.ndarray
        Sorted class labels.
    means_ : numpy.ndarray of shape (n_classes, n_features)
        Class means :math:`\\bar x_{ci}`.
    var_ : numpy.ndarray of shape (n_features,)
        Pooled within-class variances :math:`s_i^2`.
    """

    def fit(self, X: object, y: object) -> "DLDA":
        """Estimate class means and pooled variances.

        Parameters
        ----------
        X : array-like or pandas.DataFrame of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Exactly two classes; ``n_samples`` must exceed the number of
            classes (the pooled variance divides by ``n - K``).

        Returns
        -------
        DLDA
            ``self``, fitted.
        """
        Xa, ya = _check_xy(X, y)
        if not np.isfinite(Xa).all():
            raise ValueError("X must contain only finite values")
        classes, inverse = np.unique(ya, return_inverse=True)
        n, k = Xa.shape[0], len(classes)
        if n <= k:
            raise ValueError(f"X must have more samples than classes ({k}), got {n}")
        means = np.vstack([Xa[inverse == c].mean(axis=0) for c in range(k)])
        resid = Xa - means[inverse]
        self.classes_ = classes
        self.means_ = means
        self.var_ = (resid**2).sum(axis=0) / (n - k)
        return self

    def _check_fitted(self) -> None:
        if not hasattr(self, "var_"):
            raise RuntimeError("this DLDA instance is not fitted yet; call fit(X, y) first")

    def discriminant(self, X: object) -> np.ndarray:
        """Eq. (6) for every sample and class.

        Parameters
        ----------
        X : array-like or pandas.DataFrame of shape (n_samples, n_features)

        Returns
        -------
        numpy.ndarray of shape (n_samples, n_classes)
            ``dlda(x, c)``; columns follow ``classes_``.
        """
        self._check_fitted()
        Xa = _as_matrix(X)
        if Xa.shape[1] != self.means_.shape[1]:
            raise ValueError(
                f"X must have {self.means_.shape[1]} features (as in fit), got {Xa.shape[1]}"
            )
        keep = self.var_ > 0
        diff = Xa[:, None, keep] - self.means_[None, :, keep]
        return (diff**2 / self.var_[keep]).sum(axis=2)

    def predict(self, X: object) -> np.ndarray:
        """Class minimising eq. (6); ties to the first class in sorted order.

        Parameters
        ----------
        X : array-like or pandas.DataFrame of shape (n_samples, n_features)

        Returns
        -------
        numpy.ndarray of shape (n_samples,)
            Predicted labels (values from ``classes_``).
        """
        scores = self.discriminant(X)
        return self.classes_[np.argmin(scores, axis=1)]


def _take_columns(X: object, cols: np.ndarray) -> np.ndarray:
    if isinstance(X, pd.DataFrame):
        return X.iloc[:, cols].to_numpy(dtype=float)
    return _as_matrix(X)[:, cols]


def fit_dlda_top_genes(X_learn: object, y_learn: object, k: int) -> tuple[DLDA, np.ndarray]:
    """Models #1-#3: Welch selection of ``k`` genes, then DLDA (section 7).

    Parameters
    ----------
    X_learn : array-like or pandas.DataFrame of shape (n_learn, n_genes)
        Learning set only; nothing from the test set is used.
    y_learn : array-like of shape (n_learn,)
    k : int
        Number of top genes (30 for models #1 and #3, 10 for model #2).

    Returns
    -------
    model : DLDA
        Fitted on the selected genes.
    genes : numpy.ndarray of int, shape (k,)
        Column positions of the selected genes, best first.
    """
    genes = welch_select(X_learn, y_learn, k)
    model = DLDA().fit(_take_columns(X_learn, genes), y_learn)
    return model, genes


def predict_top_genes(model: DLDA, genes: np.ndarray, X_test: object) -> np.ndarray:
    """Apply a model from :func:`fit_dlda_top_genes` to new samples.

    Parameters
    ----------
    model : DLDA
        The fitted model.
    genes : numpy.ndarray of int
        The gene positions returned with it (columns of the full matrix).
    X_test : array-like or pandas.DataFrame of shape (n_test, n_genes)
        Test samples with all genes, in the learning set's column order.

    Returns
    -------
    numpy.ndarray of shape (n_test,)
        Predicted labels.
    """
    return model.predict(_take_columns(X_test, np.asarray(genes, dtype=np.intp)))


# ---------------------------------------------------------------------------
# Models #3-#5: corruption, coin, prior
# ---------------------------------------------------------------------------


def swap_labels(y: object, n_per_class: int, *, rng: Any = None) -> np.ndarray:
    """Model #3's corruption: swap the labels of ``n_per_class`` cases per class.

    Section 7: "We randomly selected five ER+ and five ER- cases from the
    learning set and swapped their class label".

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels with exactly two classes.
    n_per_class : int
        Cases flipped in each class, ``0 <= n_per_class <= m``, where ``m`` is
        the size of the smaller class.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Chooses the cases (per class, in sorted label order).

    Returns
    -------
    numpy.ndarray of shape (n,)
        A new label array: the chosen cases of each class carry the other
        class's label; the class sizes are unchanged.
    """
    labels = check_binary_labels(y, "y")
    rng = check_rng(rng)
    classes, counts = np.unique(labels, return_counts=True)
    n_per_class = check_int(n_per_class, "n_per_class", 0, int(counts.min()))
    chosen = [
        rng.choice(np.flatnonzero(labels == c), size=n_per_class, replace=False)
        for c in classes
    ]
    out = labels.copy()
    out[chosen[0]] = classes[1]
    out[chosen[1]] = classes[0]
    return out


def fair_coin(
    n: int, *, classes: Sequence[object] = (0, 1), rng: Any = None
) -> np.ndarray:
    """Model #4: a fair coin, each label with probability 0.5 (section 7).

    Parameters
    ----------
    n : int
        Number of test cases, ``>= 0``.
    classes : sequence of two distinct labels, default (0, 1)
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator

    Returns
    -------
    numpy.ndarray of shape (n,)
        Independent draws from ``classes``.
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"n must be an int >= 0, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"n must be an int >= 0, got {n}")
    labels = np.asarray(classes)
    if labels.ndim != 1 or labels.size != 2 or labels[0] == labels[1]:
        raise ValueError(f"classes must hold exactly 2 distinct labels, got {classes!r}")
    rng = check_rng(rng)
    return labels[rng.integers(0, 2, size=int(n))]


def class_prior_model(
    y_learn: object, n_test: int, *, rng: Any = None
) -> np.ndarray:
    """Model #5: predict the learning set's class proportions (section 7).

    "As the learning set contains 69 cases of which 20 are ER-, the model
    predicted 20/69 x 50 = 14 test cases as ER- and 36 test cases as ER+."

    Parameters
    ----------
    y_learn : array-like
        Learning-set labels (two classes).
    n_test : int
        Number of test cases, ``>= 0``.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Decides which test cases receive which label.

    Returns
    -------
    numpy.ndarray of shape (n_test,)
        ``round(n_test * n_c / n_learn)`` labels of each class ``c`` (halves
        rounded up; the larger class takes the rounding remainder so the
        counts sum to ``n_test``), in random order.

    Notes
    -----
    The paper fixes only how many test cases get each label, not which
    ones. Here the assignment is a uniformly random permutation, so the
    model uses no covariate information, as the paper requires.
    """
    labels = check_binary_labels(y_learn, "y_learn")
    if isinstance(n_test, bool) or not isinstance(n_test, numbers.Integral):
        raise TypeError(f"n_test must be an int >= 0, got {type(n_test).__name__}")
    if n_test < 0:
        raise ValueError(f"n_test must be an int >= 0, got {n_test}")
    rng = check_rng(rng)
    classes, counts = np.unique(labels, return_counts=True)
    per_class = _apportion(int(n_test), counts)
    return rng.permutation(np.repeat(classes, per_class))
