"""Design 4: per-item evaluation -- items scored 0/1 or in [0, 1], in clusters, sampled K times.

Benchmark and LLM evaluations score *items* with no label of their own; items come in
clusters (questions on one passage, pupils in one school), each item may be answered
several times, and many models are ranked on the same items. The unit of analysis is the
item (or its cluster), never the row: a verdict must not change with how many times an
item was written down.

Sources: E. Miller (2024), "Adding error bars to evals: a statistical approach to language
model evaluations", arXiv:2411.00640; M. Chen et al. (2021), "Evaluating large language
models trained on code", arXiv:2107.03374 (pass@k); the cluster-robust variance of
Liang & Zeger (1986) with the small-sample corrections of Bell & McCaffrey (2002).
Notebook 08 teaches it.
"""

__all__: list[str] = []
