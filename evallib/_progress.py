"""Progress bars and the serial-or-parallel map of evallib's long computations.

Every long computation takes ``progress`` (a ``tqdm.auto`` bar, default off) and some
take ``n_jobs``. These two helpers are the one place that imports tqdm and joblib, and
only when a bar or a worker pool is actually wanted, so ``import evallib`` stays light.
A bar never touches the random streams: results are the same with and without it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = ["parallel_map", "progress_bar"]


class _NoBar:
    """What :func:`progress_bar` returns when no bar is wanted: every call does nothing."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: Any) -> None:
        pass


def progress_bar(show: bool, *, total: int, unit: str):
    """A ``tqdm.auto`` bar of ``total`` ``unit`` when ``show``, else a do-nothing bar.

    Use it as a context manager (``with progress_bar(...) as bar: ... bar.update(k)``),
    so that the bar is closed even when the computation raises.
    """
    if not show:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, unit=unit)


def parallel_map(func: Callable, arguments: Iterable[tuple], *, n_jobs: int = 1, total: int | None = None,
                 progress: bool = False, unit: str = "task") -> Iterator:
    """``func(*args)`` for each ``args`` in ``arguments``, in order, lazily.

    ``n_jobs == 1`` runs in this process; otherwise in ``n_jobs`` joblib worker
    processes (one task per batch, results yielded in order as they arrive), so
    ``func`` must be importable by name (a module-level function). With ``progress``
    a ``tqdm.auto`` bar of ``total`` ``unit`` counts the finished tasks.
    """
    if n_jobs == 1:
        results: Iterable = (func(*args) for args in arguments)
    else:
        from joblib import Parallel, delayed

        results = Parallel(n_jobs=n_jobs, return_as="generator", batch_size=1)(
            delayed(func)(*args) for args in arguments
        )
    if progress:
        from tqdm.auto import tqdm

        results = tqdm(results, total=total, unit=unit)
    return iter(results)
