"""Plot plumbing shared by the evallib modules: one way to get the Axes to draw on, one to clear it.

Every public ``plot_...(..., ax=None)`` function draws on ``ax`` when given one, and
otherwise on a new figure of its own size; it returns the Axes. pyplot is imported only
here, and only when a new figure is needed, so ``import evallib`` stays light.
"""

from __future__ import annotations

from typing import Any

__all__ = ["get_axes", "clear_artists"]


def get_axes(ax: Any = None, *, figsize: tuple[float, float] = (6.4, 3.6), projection: str | None = None):
    """Return ``ax``, or the Axes of a new ``figsize`` figure (``projection``, e.g. ``"3d"``)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=figsize)
    return fig.add_subplot(111, projection=projection)


def clear_artists(ax) -> None:
    """Remove what was drawn on ``ax`` but keep the Axes, its labels and its tick objects.

    For a callback that redraws a plot with a ``plot_...(..., ax=ax)`` function: unlike
    ``ax.clear()``, which also throws away the axis' tick objects (re-creating them is
    often most of a redraw), this removes only the containers (bars, error bars, with
    their parts), lines, collections, patches, texts, images and the legend, and lets the
    next drawing set the data limits afresh, as after ``clear()``. Nothing drawn before
    is left on ``ax``, so a redraw never shows a stale mark and the Axes does not grow.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The Axes to empty in place; its title, axis labels, scales and tick objects stay.
    """
    for container in list(ax.containers):
        container.remove()                 # its bars, caps and lines too
    for artist in [*ax.lines, *ax.collections, *ax.patches, *ax.texts, *ax.images]:
        artist.remove()
    if ax.get_legend() is not None:
        ax.get_legend().remove()
    ax.ignore_existing_data_limits = True
    ax.set_autoscale_on(True)
