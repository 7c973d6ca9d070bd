"""evallib.lessons.live: one output per widget, rendered once, frozen into the saved notebook."""

from __future__ import annotations

import io
import weakref
from pathlib import Path

import pytest

widgets = pytest.importorskip("ipywidgets")
nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

from evallib.lessons.live import figure, freeze_widget_outputs, live_output, panel, render_png  # noqa: E402


def test_render_png_is_the_figure_at_its_dpi_without_tight_bbox():
    import matplotlib.image as mpimg

    fig = figure(figsize=(4, 2.5), dpi=50)
    fig.subplots().plot([0, 1], [1, 0])
    img = mpimg.imread(io.BytesIO(render_png(fig)), format="png")
    # the full canvas (a tight bounding box would crop it): 4 x 2.5 inches at 50 dpi
    assert img.shape[:2] == (125, 200)


def test_a_live_figure_keeps_one_agg_renderer_across_renders():
    # the renderer is what matplotlib's text-measurement cache is keyed on: a figure
    # saved without its own canvas gets a new one each time and measures every text again
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = figure(figsize=(4, 2.5), dpi=50)
    fig.subplots().set_title("a title")
    canvas = fig.canvas
    assert isinstance(canvas, FigureCanvasAgg)
    first = render_png(fig)
    renderer = canvas.get_renderer()
    assert render_png(fig) == first
    assert fig.canvas is canvas and canvas.get_renderer() is renderer


def test_render_png_closes_a_pyplot_figure_but_it_stays_drawable():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    render_png(fig)
    assert fig.number not in plt.get_fignums()
    ax.plot([0, 1])
    assert render_png(fig)[1:4] == b"PNG"


def test_live_output_calls_render_with_values_and_fixed_and_rerenders_on_move():
    calls = []
    slider = widgets.IntSlider(value=3, min=0, max=10)
    box = live_output(lambda k, scale: calls.append(k * scale), {"k": slider}, fixed={"scale": 2})
    slider.value = 4
    assert calls == [6, 8]
    assert box.render_seconds >= 0


def test_live_output_shows_a_value_error_as_text(capsys):
    def render(k):
        raise ValueError(f"k must be even; got {k}")

    live_output(render, {"k": widgets.IntSlider(value=3)})
    assert "k must be even; got 3" in capsys.readouterr().out


@pytest.mark.parametrize("bad, error", [({}, ValueError), ([widgets.IntSlider()], ValueError)])
def test_live_output_rejects_bad_controls(bad, error):
    with pytest.raises(error, match="controls"):
        live_output(lambda **kw: None, bad)


def test_live_output_rejects_a_non_callable():
    with pytest.raises(TypeError, match="render must be callable"):
        live_output("plot", {"k": widgets.IntSlider()})


def test_panel_aligns_descriptions_and_widths_and_checks_columns():
    a = widgets.IntSlider(description="short")
    b = widgets.FloatSlider(description="a much longer label")
    grid = panel({"a": a, "b": b}, columns=2)
    assert a.style.description_width == b.style.description_width
    assert a.layout.width == b.layout.width
    assert len(grid.layout.grid_template_columns.split()) == 2
    for bad in (0, 4, 1.5, True):
        with pytest.raises(ValueError, match="columns must be 1, 2 or 3"):
            panel([a], columns=bad)


@pytest.mark.slow  # starts a kernel: make test runs it, make check leaves it out
def test_freeze_replaces_each_widget_view_by_its_captured_output_once(tmp_path):
    """A real kernel run (nbclient stores the widget state): the saved cell shows the
    figure and the text the Output widget captured, once, and no widget state is left."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "import ipywidgets as widgets\n"
        "from evallib.lessons.live import figure, live_output\n"
        "fig = figure((3, 2)); ax = fig.subplots(); line, = ax.plot([0, 1], [0, 0])\n"
        "def draw(k):\n"
        "    line.set_ydata([0, k])\n"
        "    return f'k = {k}', fig\n"
        "live_output(draw, {'k': widgets.IntSlider(value=3)}, alt='A line of slope k.')\n"),
        nbformat.v4.new_code_cell("print('after')")]
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbclient.NotebookClient(nb, kernel_name="python3", timeout=120,
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    assert "widgets" in nb.metadata
    frozen = freeze_widget_outputs(nb)
    nbformat.validate(frozen)
    outputs = frozen.cells[0].outputs
    kinds = [(o["output_type"], sorted(o.get("data", {}))) for o in outputs]
    assert kinds == [("stream", []), ("display_data", ["image/png", "text/plain"])], kinds
    assert "".join(outputs[0]["text"]) == "k = 3\n"
    assert outputs[1]["metadata"]["image/png"]["alt"] == "A line of slope k."
    assert "widgets" not in frozen.metadata
    assert frozen.metadata.kernelspec["display_name"] == "Python 3 (ipykernel)"
    assert [o["output_type"] for o in frozen.cells[1].outputs] == ["stream"]


def test_freeze_joins_a_print_the_kernel_flushed_in_two_messages():
    """ipykernel can send one print as two stream messages on a busy machine (seen in CI);
    the frozen cell holds one stream per name, text unchanged, other outputs kept in order."""
    part = {"output_type": "stream", "name": "stdout", "text": "aft"}
    rest = {"output_type": "stream", "name": "stdout", "text": ["er", "\n"]}
    err = {"output_type": "stream", "name": "stderr", "text": "warn\n"}
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "source": "",
                     "outputs": [part, rest, err, dict(part), dict(rest)]}], "metadata": {}}
    out = freeze_widget_outputs(nb)["cells"][0]["outputs"]
    assert [(o["name"], o["text"]) for o in out] == [("stdout", "after\n"), ("stderr", "warn\n"),
                                                     ("stdout", "after\n")]


def test_freeze_drops_views_without_output_widgets_and_keeps_other_outputs():
    view = {"output_type": "display_data", "metadata": {},
            "data": {"application/vnd.jupyter.widget-view+json": {"model_id": "s1", "version_major": 2,
                                                                   "version_minor": 0},
                     "text/plain": "IntSlider(value=1)"}}
    text = {"output_type": "stream", "name": "stdout", "text": "hello\n"}
    nb = {"cells": [{"cell_type": "code", "outputs": [view, text], "source": "", "metadata": {}}],
          "metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {
              "state": {"s1": {"model_name": "IntSliderModel", "state": {}}}}}}}
    out = freeze_widget_outputs(nb)
    assert out["cells"][0]["outputs"] == [text]
    assert "widgets" not in out["metadata"]


def test_lessons_are_saved_frozen():
    """No lesson keeps widget state or a widget view (they would show as a stale copy or
    an 'Error displaying widget' box to a reader without a kernel)."""
    from pathlib import Path

    for path in sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("0*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        assert "widgets" not in nb.metadata, path.name
        views = [o for c in nb.cells for o in c.get("outputs", [])
                 if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
        assert not views, path.name


def test_a_live_figure_keeps_its_first_layout_and_relayout_opts_out():
    fig = figure((4, 3))
    ax = fig.subplots()
    ax.set_ylabel("a label")
    render_png(fig)
    position = ax.get_position().bounds
    assert fig.get_layout_engine() is None or type(fig.get_layout_engine()).__name__ == "PlaceHolderLayoutEngine"
    ax.set_ylabel("a much longer label\nover two lines")
    render_png(fig)
    assert ax.get_position().bounds == position          # not laid out again
    again = figure((4, 3), relayout=True)
    ax2 = again.subplots()
    ax2.set_ylabel("a label")
    render_png(again)
    first = ax2.get_position().bounds
    ax2.set_ylabel("a much longer label\nover two lines")
    render_png(again)
    assert ax2.get_position().bounds != first            # constrained layout made room


def test_a_ready_image_gets_the_alt_text(monkeypatch):
    from IPython.display import Image

    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj, **kw: shown.append(obj))
    fig = figure((2, 2))
    png = render_png(fig)
    live_output(lambda k: Image(data=png, format="png"), {"k": widgets.IntSlider()}, alt="A blank square.")
    assert shown[-1].alt == "A blank square." and shown[-1].data == png


def test_freeze_writes_what_jupyterlab_saves_and_is_idempotent():
    cell = {"cell_type": "code", "source": "", "outputs": [], "execution_count": 1,
            "metadata": {"execution": {"iopub.status.idle": "2026-01-01T00:00:00Z"},
                         "jupyter": {"source_hidden": True, "outputs_hidden": True}, "tags": ["solutions"]}}
    nb = {"cells": [cell], "metadata": {}}
    once = freeze_widget_outputs(nb)
    meta = once["cells"][0]["metadata"]
    assert "execution" not in meta and meta["collapsed"] is True
    import copy
    assert freeze_widget_outputs(copy.deepcopy(once)) == once


def test_clear_artists_keeps_ticks_and_resets_the_data_limits():
    from evallib.lessons.live import clear_artists

    fig = figure((4, 3))
    ax = fig.subplots()
    ax.errorbar([0, 1, 2], [10, 20, 30], yerr=5)
    ax.text(0, 0, "note")
    ax.legend(["x"])
    render_png(fig)
    ticks = ax.xaxis.get_major_ticks()[0]
    clear_artists(ax)
    assert not (ax.lines or ax.collections or ax.texts) and ax.get_legend() is None
    assert not ax.containers                                # the errorbar's container too
    for _ in range(5):                                      # a callback's redraws: the Axes does not grow
        ax.bar([0, 1], [1, 2], yerr=0.1)
        clear_artists(ax)
    assert not (ax.containers or ax.patches or ax.lines or ax.collections)
    ax.plot([0, 1], [0.1, 0.2])
    render_png(fig)
    assert ax.xaxis.get_major_ticks()[0] is ticks           # the tick objects survive
    low, high = ax.get_ylim()
    assert low > 0.05 and high < 0.25                      # the old data (10..35) no longer sets the limits


def test_show_figure_displays_one_png_with_alt_and_closes_a_pyplot_figure(monkeypatch):
    import matplotlib.pyplot as plt
    from IPython.display import Image

    import evallib.lessons.live as live

    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    live.show_figure(fig, alt="A rising line.")
    assert len(shown) == 1 and isinstance(shown[0], Image) and shown[0].alt == "A rising line."
    assert shown[0].data[1:4] == b"PNG" and not plt.fignum_exists(fig.number)
    # the alt text reaches the output's metadata (what JupyterLab and the HTML export read)
    assert shown[0]._repr_png_()[1] == {"alt": "A rising line."}
    # cropped to what is drawn, as the inline backend shows it: a legend beside the axes is kept
    import matplotlib.image as mpimg

    fig, ax = plt.subplots(figsize=(4, 3), dpi=50)
    ax.plot([0, 1], [0, 1], label="a label long enough to reach beyond the figure")
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1))
    live.show_figure(fig, alt="A line with its legend beside it.")
    assert mpimg.imread(io.BytesIO(shown[-1].data), format="png").shape[1] > 4 * 50
    with pytest.raises(ValueError, match="alt must be a non-empty"):
        live.show_figure(figure(), alt=" ")
    with pytest.raises(TypeError, match="fig must be a matplotlib Figure"):
        live.show_figure(ax, alt="x")


@pytest.mark.parametrize("name", sorted(p.stem for p in (Path(__file__).resolve().parents[1] / "notebooks").glob("0*.ipynb")))
def test_every_saved_image_of_a_lesson_has_alt_text(name):
    """Each PNG saved in these lessons, a widget's or a static figure's, carries its alt text
    (``metadata["image/png"]["alt"]``): ``live_output(..., alt=...)`` and ``show_figure(fig, alt=...)``
    give one, ``plt.show()`` none, and a screen reader then only announces "image"."""
    import json

    from conftest import ROOT

    nb = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))
    images = [(i, out) for i, cell in enumerate(nb["cells"]) if cell["cell_type"] == "code"
              for out in cell.get("outputs", []) if "image/png" in out.get("data", {})]
    assert images, f"{name} saves no image"
    missing = [i for i, out in images
               if not str(out.get("metadata", {}).get("image/png", {}).get("alt", "")).strip()]
    assert not missing, f"{name}: the images of cells {missing} have no alt text"


def test_making_a_panel_freezes_what_the_kernel_holds(monkeypatch):
    """Objects alive when a panel is made are left out of later collections (gc.freeze), and the
    garbage of before is collected first, not frozen."""
    import gc

    class Node:
        pass

    cycle = Node()
    cycle.me = cycle                    # garbage only a collection frees
    probe = weakref.ref(cycle)
    del cycle
    kept = [Node() for _ in range(10)]
    gc.unfreeze()
    try:
        live_output(lambda v: None, {"v": widgets.IntSlider(value=1)})
        assert probe() is None                       # collected before the freeze
        assert gc.get_freeze_count() >= len(kept)    # the survivors are frozen
    finally:
        gc.unfreeze()
