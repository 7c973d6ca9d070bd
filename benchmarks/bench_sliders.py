"""Benchmark: every slider of every lesson moved one step, kernel-side, figure rendered.

Each lesson (``notebooks/0*.ipynb``, or the notebooks named on the command line) is
executed in a fresh ``python3`` kernel with the inline matplotlib backend (the one a
reader's JupyterLab uses: MPLBACKEND is removed from the kernel's environment). Then, in
that kernel, every control that has a value (sliders, dropdowns, toggles) is moved one
step (to the next option, or by its step; backwards at the end of its range) and the
time of that assignment is measured: the widget's observers run synchronously, so it
includes the callback, the figure's drawing and its PNG rendering — what a reader
waits for, less the browser's display. Each control is then put back (not timed).

Target: 0.1 s per move (the 'instant' limit of a direct manipulation). Prints every
control's wall time and the kernel's CPU time for the move (the CPU time is steadier on a
shared machine: the wall time grows with other jobs' load), the slowest, and how many
exceed the target in wall time. Then every control is toured, moved up to five steps
and back, and the artists on all the kernel's figures are counted before and after: a
callback that draws over its last drawing instead of replacing it leaves artists behind
(a stale mark on the figure, and every later move slower). Exits 1 if a control is over
the target or leaves artists.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_sliders.py [NOTEBOOK...]``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import nbclient
import nbformat

from evallib._kernel import PatientKernelManager

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 0.100

PROBE = r'''
import json as _json, time as _time
import ipywidgets as _w
from ipywidgets.widgets.widget import _instances as _inst

def _step(w):
    """The value one step from w.value (next option / +step), or None if w cannot move."""
    if getattr(w, "disabled", False):
        return None
    if hasattr(w, "options") and not isinstance(w, _w.SelectMultiple):
        labels = list(getattr(w, "_options_values", None) or [])
        if len(labels) < 2:
            return None
        i = labels.index(w.value)
        return labels[i + 1] if i + 1 < len(labels) else labels[i - 1]
    if isinstance(w, (_w.IntSlider, _w.FloatSlider, _w.FloatLogSlider, _w.BoundedIntText, _w.BoundedFloatText)):
        if isinstance(w, _w.FloatLogSlider):
            up = w.value * w.base ** w.step
        else:
            up = w.value + w.step
        return up if up <= w.max else w.value - (w.value * (w.base ** w.step - 1) if isinstance(w, _w.FloatLogSlider) else w.step)
    if isinstance(w, (_w.IntRangeSlider, _w.FloatRangeSlider)):
        lo, hi = w.value
        return (lo, hi + w.step) if hi + w.step <= w.max else (lo - w.step, hi)
    if isinstance(w, (_w.Checkbox, _w.ToggleButton)):
        return not w.value
    return None

import gc as _gc
from matplotlib.figure import Figure as _Figure

def _artists():
    """What is drawn on every figure alive in the kernel: the figures' and their Axes' children
    (lines, patches, collections, texts, legends...) and containers. Not tick objects: their
    number follows the axis limits, and a cached render leaves the limits of the last drawing."""
    _gc.collect()
    figs = [o for o in _gc.get_objects() if issubclass(type(o), _Figure)]   # type(): a dead weak proxy is no error
    return sum(len(f.get_children()) + sum(len(a.get_children()) + len(a.containers) for a in f.axes)
               for f in figs)

def _tour(w, moves=5):
    """Move w through up to `moves` successive steps, then back to where it was: artists added."""
    start, before = w.value, _artists()
    for _ in range(moves):
        new = _step(w)
        if new is None or new == start:
            break
        w.value = new
    w.value = start
    return _artists() - before

_rows, _moved = [], []
for _widget in list(_inst.values()):
    if not isinstance(_widget, _w.ValueWidget) or isinstance(_widget, (_w.Output, _w.Label, _w.HTML, _w.HTMLMath)):
        continue
    if not _widget._trait_notifiers.get("value"):
        continue                     # nothing observes it: a display-only widget
    _new = _step(_widget)
    if _new is None:
        continue
    _old = _widget.value
    _t, _c = _time.perf_counter(), _time.process_time()
    _widget.value = _new
    _dt, _dc = _time.perf_counter() - _t, _time.process_time() - _c
    _widget.value = _old
    _rows.append({"control": _widget.description or type(_widget).__name__, "kind": type(_widget).__name__,
                  "from": repr(_old), "to": repr(_new), "seconds": _dt, "cpu": _dc})
    _moved.append(_widget)
# then each control toured (moved several steps and back): nothing may be left on any figure
for _row, _widget in zip(_rows, _moved):
    _row["left"] = _tour(_widget)
print("SLIDERS" + _json.dumps(_rows))
'''


def measure(path: Path) -> list[dict]:
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=900,
                                     kernel_manager_class=PatientKernelManager,
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    for out in nb.cells[-1].outputs:
        text = out.get("text", "")
        if "SLIDERS" in text:
            return json.loads(text.split("SLIDERS", 1)[1].splitlines()[0])
    raise RuntimeError(f"{path.name}: the probe printed no result: {nb.cells[-1].outputs}")


def main(argv: list[str]) -> int:
    os.environ.pop("MPLBACKEND", None)      # the kernel must render as a reader's does (inline)
    paths = [Path(a) for a in argv] or sorted((ROOT / "notebooks").glob("0*.ipynb"))
    rows = []
    for path in paths:
        start = time.perf_counter()
        found = measure(path)
        for r in found:
            r["notebook"] = path.name
        rows += found
        print(f"{path.name}: {len(found)} controls moved (notebook run and probe {time.perf_counter() - start:.0f} s)",
              flush=True)
    print(f"\nEvery control moved one step, kernel-side with its output rendered (target {1000 * TARGET_S:.0f} ms):")
    print(f"  {'notebook':<34} {'control':<22} {'kind':<18} {'wall ms':>8} {'CPU ms':>7} {'left':>5}")
    for r in rows:
        flag = ("  SLOW" if r["seconds"] > TARGET_S else "") + ("  LEAVES ARTISTS" if r["left"] else "")
        print(f"  {r['notebook']:<34} {r['control'][:22]:<22} {r['kind']:<18} {1000 * r['seconds']:8.1f} "
              f"{1000 * r['cpu']:7.1f} {r['left']:5d}{flag}")
    if not rows:
        print("  no controls found")
        return 0
    slow = [r for r in rows if r["seconds"] > TARGET_S]
    worst = max(rows, key=lambda r: r["seconds"])
    worst_cpu = max(rows, key=lambda r: r["cpu"])
    print(f"\nslowest: {worst['notebook']} '{worst['control']}' {1000 * worst['seconds']:.0f} ms wall "
          f"(target {1000 * TARGET_S:.0f} ms); {len(slow)} of {len(rows)} controls over the target; "
          f"most CPU: {worst_cpu['notebook']} '{worst_cpu['control']}' {1000 * worst_cpu['cpu']:.0f} ms; "
          f"load average {os.getloadavg()[0]:.1f}")
    left = [r for r in rows if r["left"]]
    print(f"artists left on the figures after moving each control up to five steps and back: "
          f"{'none' if not left else ', '.join(repr(r['notebook'] + ' ' + r['control']) for r in left)}")
    return 1 if slow or left else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
