"""Design 5: sequential comparisons -- looking at the results while they come in.

An evaluation that streams item by item, an A/B test of two classifiers in production, a nightly
job that checks a new model: each is looked at more than once, and a fixed-n test recomputed at
every look and stopped at the first p < alpha rejects a true null far more often than alpha
(Armitage, McPherson & Rowe 1969). Two remedies, both for a mean score in [0, 1] and for the
paired difference of two models on the same items:

- :mod:`._confseq` -- anytime-valid inference: confidence sequences that hold at every sample size
  at once (:func:`confidence_sequence`: Waudby-Smith & Ramdas' betting sequence, and the
  asymptotic one of Waudby-Smith et al. with Howard et al.'s normal-mixture boundary, with
  clusters), the matching always-valid p-values (:func:`sequential_pvalue`) and the picture
  against the fixed-n interval (:func:`plot_confidence_sequence`).
- :mod:`._groupseq` -- group-sequential designs: K looks and a maximum n planned in advance,
  with Lan & DeMets' alpha-spending boundaries (O'Brien–Fleming and Pocock types,
  Hwang–Shih-DeCani) by the recursive integration of Armitage, McPherson & Rowe
  (:func:`group_sequential_design`, :func:`group_sequential_test`, :func:`alpha_spent`).
- :mod:`._peeking` -- what peeking costs, by simulation: stopping at the first fixed-n p < alpha
  against the confidence sequence and the alpha-spending design (:func:`peeking_study`), and
  exactly on one observed stream under random label swaps (:func:`peeking_signflip_rate`).

Every public name is importable from ``evallib`` itself.
"""

# The submodules under private names first: a star import may bind a function of the same
# name over the module attribute.
from . import _confseq as _confseq
from . import _groupseq as _groupseq
from . import _peeking as _peeking
from ._confseq import *  # noqa: F401,F403
from ._groupseq import *  # noqa: F401,F403
from ._peeking import *  # noqa: F401,F403

__all__ = [*_confseq.__all__, *_groupseq.__all__, *_peeking.__all__]
