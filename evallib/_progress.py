"""Progress bars and the serial-or-parallel map of evallib's long computations.

Every long computation takes ``progress`` (a ``tqdm.auto`` bar, default off) and some
take ``n_jobs``. These two helpers are the one place that imports tqdm, and only when a
bar is actually wanted, so ``import evallib`` stays light. Worker processes come from the
standard library (:class:`concurrent.futures.ProcessPoolExecutor`), so the core install
needs no joblib. A bar never touches the random streams: results are the same with and
without it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ._validate import check_count

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

    ``n_jobs == 1`` runs in this process; otherwise in ``n_jobs`` worker processes
    (:class:`concurrent.futures.ProcessPoolExecutor`, one task per submission, results
    yielded in order), so ``func`` and its arguments must be picklable (``func`` a
    module-level function). With ``progress`` a ``tqdm.auto`` bar of ``total`` ``unit``
    counts the finished tasks.

    Raises
    ------
    TypeError, ValueError
        If ``n_jobs`` is not a whole number >= 1.

    Examples
    --------
    >>> import math
    >>> list(parallel_map(math.comb, [(5, 2), (6, 3)]))
    [10, 20]
    """
    n_jobs = check_count(n_jobs, "n_jobs", minimum=1)
    results: Iterable = (func(*args) for args in arguments) if n_jobs == 1 else _in_processes(func, arguments, n_jobs)
    if progress:
        from tqdm.auto import tqdm

        results = tqdm(results, total=total, unit=unit)
    return iter(results)


def _in_processes(func: Callable, arguments: Iterable[tuple], n_jobs: int) -> Iterator:
    """The results of ``func(*args)`` computed in ``n_jobs`` worker processes, in order.

    The pool is shut down when the results are exhausted or the generator is closed early
    (the tasks not yet started are cancelled).
    """
    # imported here: concurrent.futures.process imports multiprocessing, which import evallib
    # does not need
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=n_jobs)
    try:
        futures = [pool.submit(func, *args) for args in arguments]
        for future in futures:
            yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
