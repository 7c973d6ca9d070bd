"""Live outputs for the notebooks' sliders: one output per widget, updated in place.

A notebook's interactive cell shows a panel of controls above one output. The output is
an :class:`ipywidgets.Output` seeded with the default render when the cell runs, and each
slider move re-renders *into that same output*; nothing else is printed or shown by the
cell, so a reader never sees a stale copy beside the live one (in JupyterLab or Voilà).
When a notebook is executed and saved for readers without a kernel (``make execute``, or
``python -m evallib.lessons NOTEBOOK...`` after an execution that stored widget state),
:func:`freeze_widget_outputs` replaces each widget view by the outputs its Output widgets
captured and drops the widget state, so the saved file shows that default render once,
in the same place, and a live kernel replaces it when the cell runs.

Speed. A slider should answer within about 0.1 s, figure included. Matplotlib's inline
backend makes a new figure per call and renders it with ``bbox_inches="tight"``, which
draws it twice. Here a callback may return the *same* :class:`~matplotlib.figure.Figure`
every time (made once with :func:`figure`, constrained layout, updated in place by
the callback), and it is rendered once to PNG at the figure's dpi. Making a panel also
collects the kernel's garbage and freezes the survivors (:func:`_settle_garbage_collector`):
a full garbage collection over a lesson's data took 0.11-0.12 s and fell on some move.

Only the callbacks are computation; they are evallib functions with their own tests
(``plot_...(..., ax=None)`` returning the Axes). This module is the plumbing between them
and the widgets, and is used only by the notebooks.

Examples
--------
>>> import ipywidgets as widgets
>>> from evallib.lessons.live import figure, live_output, render_png
>>> fig = figure(figsize=(4, 3))
>>> ax = fig.subplots()
>>> line, = ax.plot([0, 1], [0, 0])
>>> def draw(slope):
...     line.set_ydata([0, slope])
...     return "slope %.1f" % slope      # a str is printed; a Figure is shown as PNG
>>> box = live_output(draw, {"slope": widgets.FloatSlider(value=1.0, min=-2, max=2)})
slope 1.0
>>> box.children[0].children[0].value = -0.5   # a slider move re-renders in place
slope -0.5
>>> render_png(fig)[1:4]
b'PNG'
"""

from __future__ import annotations

import gc
import io
import time
import weakref
from collections.abc import Callable, Mapping
from typing import Any

from .._extras import require
from .._plotting import clear_artists

__all__ = ["figure", "panel", "live_output", "render_png", "show_figure", "freeze_widget_outputs", "clear_artists",
           "DESCRIPTION_WIDTH", "SLIDER_WIDTH"]

#: width of every control's description column: the tracks of one panel start aligned.
DESCRIPTION_WIDTH = "11em"
#: total width of a control (description + track + readout).
SLIDER_WIDTH = "30em"
#: figures made by :func:`figure` whose constrained layout is fixed after their first render.
_FREEZE_LAYOUT: weakref.WeakSet = weakref.WeakSet()


def figure(figsize: tuple[float, float] = (6.4, 3.6), *, dpi: float = 80, relayout: bool = False,
           **kwargs: Any):
    """A figure for a live output: constrained layout, outside pyplot's registry.

    Made from :class:`matplotlib.figure.Figure` directly, so the inline backend never
    shows it on its own (no second copy at the end of the cell) and pyplot keeps no
    reference to it. ``kwargs`` go to ``Figure``. It gets its own Agg canvas, kept for
    its lifetime: every render then uses the same renderer, whose measurements of the
    texts matplotlib caches (saving a figure without a canvas makes a new renderer each
    time, and measures every tick label and title again: a fifth of a render).

    Parameters
    ----------
    figsize : (float, float)
        Width and height in inches (default 6.4 x 3.6).
    dpi : float
        Pixels per inch of the rendered PNG (default 80: sharp on a projector, fast to render).
    relayout : bool
        False (default): the constrained layout is computed at the first render (the
        default values) and then kept, which halves the time of every later render (the
        layout engine draws the figure once more to measure it). True: laid out again at
        every render, for a figure whose labels change size a lot.
    **kwargs
        Further keyword arguments of :class:`matplotlib.figure.Figure`; ``layout``
        defaults to ``"constrained"``.

    Returns
    -------
    matplotlib.figure.Figure
        The figure, with its own Agg canvas attached and not registered with pyplot.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    kwargs.setdefault("layout", "constrained")
    fig = Figure(figsize=figsize, dpi=dpi, **kwargs)
    FigureCanvasAgg(fig)                   # attaches itself as fig.canvas
    if not relayout:
        _FREEZE_LAYOUT.add(fig)
    return fig


def render_png(fig) -> bytes:
    """The figure as PNG bytes, drawn once at its own dpi (no tight bounding box).

    Fast settings: light PNG compression, and the layout of a :func:`figure` fixed after its
    first render (unless made with ``relayout=True``). A figure made by pyplot is closed
    after rendering (the object stays usable and can be drawn again), so the inline
    backend does not show it a second time.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure to render, at ``fig.dpi``.

    Returns
    -------
    bytes
        The PNG file's bytes.
    """
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=fig.dpi, pil_kwargs={"compress_level": 1})
    if fig in _FREEZE_LAYOUT:
        fig.set_layout_engine(None)        # keeps the positions the first layout computed; no layout pass
        _FREEZE_LAYOUT.discard(fig)
    if plt.fignum_exists(getattr(fig, "number", -1)) and plt.figure(fig.number) is fig:
        plt.close(fig)
    return buf.getvalue()


def show_figure(fig, alt: str) -> None:
    """Display a static figure once, as a PNG with alternative text.

    For a figure outside any widget (drawn once with the notebook's parameters): where a
    cell would end with ``plt.show()``, which gives the image no ``alt``, call
    ``show_figure(fig, alt=...)``. The PNG is the one the inline backend would show (IPython's
    ``print_figure``: the figure's dpi, cropped to what is drawn, so a legend placed beside
    the axes is kept); a pyplot figure is then closed, so it is not shown a second time.
    ``alt`` is stored in the output's metadata, which JupyterLab, Voilà and the exported HTML
    put on the image for screen readers.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    alt : str
        What the figure shows, in words (non-empty); compute its numbers from the run.
    """
    import matplotlib.pyplot as plt
    require("IPython", "evallib.lessons.live")
    from IPython.core.pylabtools import print_figure
    from IPython.display import Image, display
    from matplotlib.figure import Figure

    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    if not isinstance(alt, str) or not alt.strip():
        raise ValueError("alt must be a non-empty description of the figure")
    data = print_figure(fig, "png", bbox_inches="tight")
    if plt.fignum_exists(getattr(fig, "number", -1)) and plt.figure(fig.number) is fig:
        plt.close(fig)
    display(Image(data=data, format="png", alt=alt))


def _show(result: Any, alt: str | None) -> None:
    """Display one callback result: a Figure as a PNG image, a str as text, else as is."""
    require("IPython", "evallib.lessons.live")
    from IPython.display import Image, display
    from matplotlib.figure import Figure

    if result is None:
        return
    if isinstance(result, (tuple, list)):
        for part in result:
            _show(part, alt)
        return
    if isinstance(result, Figure):
        display(Image(data=render_png(result), format="png", alt=alt or None))
    elif isinstance(result, Image):           # a ready image (e.g. rendered ahead and cached)
        if alt and not result.alt:
            result = Image(data=result.data, format=result.format, alt=alt)
        display(result)
    elif isinstance(result, str):
        print(result)
    else:
        display(result)


def panel(controls: Mapping[str, Any] | list, *, columns: int = 1,
          description_width: str = DESCRIPTION_WIDTH, width: str = SLIDER_WIDTH):
    """Controls laid out in a grid whose tracks start at one offset.

    Every control gets the same description width and total width (sliders,
    dropdowns and toggles alike), so a panel's tracks line up whatever their labels.

    Parameters
    ----------
    controls : mapping or list of ipywidgets
        The controls, in display order.
    columns : int
        Controls per row (1, 2 or 3; default 1).
    description_width, width : str
        CSS widths of the description column and of the whole control (defaults
        :data:`DESCRIPTION_WIDTH` and :data:`SLIDER_WIDTH`); set on each control in place.

    Returns
    -------
    ipywidgets.GridBox
        The controls in a grid of ``columns`` tracks of ``width`` each.
    """
    require("ipywidgets", "evallib.lessons.live")
    import ipywidgets as widgets

    if isinstance(columns, bool) or not isinstance(columns, int) or not 1 <= columns <= 3:
        raise ValueError(f"columns must be 1, 2 or 3; got {columns!r}")
    items = list(controls.values()) if isinstance(controls, Mapping) else list(controls)
    for w in items:
        if hasattr(w, "style") and hasattr(w.style, "description_width"):
            w.style.description_width = description_width
        w.layout.width = width
    return widgets.GridBox(items, layout=widgets.Layout(
        grid_template_columns=" ".join([width] * columns), grid_gap="2px 1.5em"))


def live_output(render: Callable[..., Any], controls: Mapping[str, Any], *,
                fixed: Mapping[str, Any] | None = None, alt: str | Callable[..., str] | None = None,
                columns: int = 1, errors: tuple[type[BaseException], ...] = (ValueError,)):
    """A panel of ``controls`` above one output that ``render`` fills, now and on every move.

    Parameters
    ----------
    render : callable
        Called as ``render(**values, **fixed)`` with every control's current value (by
        its key in ``controls``). It returns what to show: a matplotlib Figure (rendered
        once as PNG; return the same figure each time and update it in place for speed),
        a str (printed), any other displayable, a tuple of these, or None (it displayed
        its own output).
    controls : mapping of str to ipywidgets
        The controls, keyed by ``render``'s argument names; the panel shows them in this
        order.
    fixed : mapping, optional
        Further keyword arguments passed to ``render`` unchanged.
    alt : str or callable, optional
        Alternative text of the figure (screen readers, exported HTML); a callable gets the
        same keywords as ``render``.
    columns : int
        Controls per row in the panel.
    errors : tuple of exception types
        Exceptions of ``render`` shown as a message in the output (for example a
        combination of settings a formula does not allow), instead of a traceback.

    Returns
    -------
    ipywidgets.VBox
        The panel and the output; display it (the last expression of a cell is displayed).
        ``box.render_seconds`` holds the duration of the latest render.
    """
    require("ipywidgets", "evallib.lessons.live")
    import ipywidgets as widgets
    require("IPython", "evallib.lessons.live")
    from IPython import get_ipython
    from IPython.display import clear_output

    if not callable(render):
        raise TypeError(f"render must be callable; got {type(render).__name__}")
    if not isinstance(controls, Mapping) or not controls:
        raise ValueError("controls must be a non-empty mapping of argument name to widget")
    fixed = dict(fixed or {})
    out = widgets.Output()

    def update(change: Any = None) -> None:
        values = {name: w.value for name, w in controls.items()}
        values.update(fixed)
        start = time.perf_counter()
        with out:
            if get_ipython() is not None:   # outside a kernel there is nothing to clear
                clear_output(wait=True)
            try:
                result = render(**values)
            except errors as err:
                print(err)
            else:
                text = alt(**values) if callable(alt) else alt
                _show(result, text)
        box.render_seconds = time.perf_counter() - start

    box = widgets.VBox([panel(controls, columns=columns), out])
    for w in controls.values():
        w.observe(update, names="value")
    update()
    _settle_garbage_collector()
    return box


def _settle_garbage_collector() -> None:
    """Collect garbage now, then freeze what survives (``gc.freeze``), so that slider moves
    do not pay for full collections of the notebook's data.

    A lesson's kernel holds a few hundred thousand objects (data, models, cached
    simulations); a full ("generation 2") garbage collection scans them all, about 0.1 s,
    and it falls on whichever slider move happens to allocate past the threshold, doubling
    that move's wait. Frozen objects are left out of every later collection, so a full
    collection scans only what was made since. Called when a panel is made: the cell's
    own garbage is collected first, so none of it is frozen; objects that become garbage
    later are collected as usual (frozen ones that do are freed by reference counting,
    unless they sit in a reference cycle).
    """
    gc.collect()
    gc.freeze()


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def _coalesce_streams(outputs: list) -> list:
    """Join adjacent stream outputs of one name, as JupyterLab does when it saves.

    ipykernel may flush one ``print`` as two stream messages when the machine is busy; the
    saved file must not depend on that.
    """
    joined: list = []
    for out in outputs:
        prev = joined[-1] if joined else None
        if (out.get("output_type") == "stream" and prev is not None
                and prev.get("output_type") == "stream" and prev.get("name") == out.get("name")):
            text = prev["text"] if isinstance(prev["text"], str) else "".join(prev["text"])
            more = out["text"] if isinstance(out["text"], str) else "".join(out["text"])
            joined[-1] = type(prev)({**prev, "text": text + more})
        else:
            joined.append(out)
    return joined


def freeze_widget_outputs(nb: dict) -> dict:
    """Replace widget views by what their Output widgets captured; drop the widget state.

    ``nb`` is a notebook (an nbformat node or plain dict) executed with its widget state
    stored (nbclient's default). Each output that is a widget view is replaced by the
    outputs captured by the Output widgets inside it (depth first, in display order); a
    view without Output widgets (a bare slider) is dropped. The notebook's
    ``metadata.widgets`` is removed, so no stale widget state is saved. Adjacent stream
    outputs of one name are joined, so the file does not depend on how the kernel flushed.

    The rest makes the file what JupyterLab itself would save, so opening and saving it
    untouched changes no byte: the kernelspec is ``python3`` with JupyterLab's display
    name, a cell whose outputs are hidden also carries the legacy ``collapsed: true`` that
    JupyterLab writes beside ``jupyter.outputs_hidden``, and the execution timestamps
    nbclient records (``metadata.execution``, new at every run) are dropped. Returns
    ``nb``, changed in place; freezing twice changes nothing.

    Parameters
    ----------
    nb : dict
        The executed notebook (an nbformat node or a plain dict), changed in place.

    Returns
    -------
    dict
        ``nb`` itself, with the widget views replaced and the widget state removed.
    """
    state = (nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}) or {}).get("state", {})

    def captured(model_id: str, seen: set[str]) -> list:
        if model_id in seen or model_id not in state:
            return []
        seen.add(model_id)
        model = state[model_id]
        if model.get("model_name") == "OutputModel":
            return list(model.get("state", {}).get("outputs", []))
        found: list = []
        for child in model.get("state", {}).get("children", []):
            if isinstance(child, str) and child.startswith("IPY_MODEL_"):
                found += captured(child[len("IPY_MODEL_"):], seen)
        return found

    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        meta = cell.setdefault("metadata", {})
        meta.pop("execution", None)
        if meta.get("jupyter", {}).get("outputs_hidden"):
            meta["collapsed"] = True
        outputs = []
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(WIDGET_VIEW)
            if view is None:
                outputs.append(out)
            else:
                outputs += captured(view.get("model_id", ""), set())
        cell["outputs"] = _coalesce_streams(outputs)
    nb.setdefault("metadata", {}).pop("widgets", None)
    nb["metadata"]["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python",
                                    "name": "python3"}
    return nb


def _main(argv: list[str] | None = None) -> int:
    """``python -m evallib.lessons NOTEBOOK...``: freeze the widget outputs of executed notebooks."""
    import sys

    require("nbformat", "evallib.lessons.live")
    import nbformat

    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        print("usage: python -m evallib.lessons NOTEBOOK.ipynb ...", file=sys.stderr)
        return 2
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        nbformat.write(nbformat.from_dict(freeze_widget_outputs(nb)), path)
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
