"""Plot plumbing shared by the evallib modules: one way to get the Axes to draw on.

Every public ``plot_...(..., ax=None)`` function draws on ``ax`` when given one, and
otherwise on a new figure of its own size; it returns the Axes. pyplot is imported only
here, and only when a new figure is needed, so ``import evallib`` stays light.
"""

from __future__ import annotations

from typing import Any

__all__ = ["get_axes"]


def get_axes(ax: Any = None, *, figsize: tuple[float, float] = (6.4, 3.6), projection: str | None = None):
    """Return ``ax``, or the Axes of a new ``figsize`` figure (``projection``, e.g. ``"3d"``)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=figsize)
    return fig.add_subplot(111, projection=projection)
