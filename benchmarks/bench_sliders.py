"""Benchmark: every slider of every lesson moved, kernel-side, figure rendered.

Each lesson (``notebooks/0*.ipynb``, or the notebooks named on the command line) is
executed in a fresh ``python3`` kernel with the inline matplotlib backend (the one a
reader's JupyterLab uses: MPLBACKEND is removed from the kernel's environment). Then, in
that kernel, every control that has a value (sliders, dropdowns, toggles) is moved from
its start value to ``MOVES`` values not shown before (1, 2, 3 steps away: the next
options, or +step each; downwards at the end of its range; fewer if the control has
fewer), put back after each move (not timed), and the time of each assignment is
measured: the widget's observers run synchronously, so it includes the callback, the
figure's drawing and its PNG rendering — what a reader waits for, less the browser's
display. Values not shown before, so no cache of the lesson's answers the move.

Target: 0.1 s per move (the 'instant' limit of a direct manipulation), judged on each
control's median move: one move's wall time on a shared two-core machine varies by a
third from run to run, and the median of three is steadier. Prints per control the
median and the slowest move's wall time and the kernel's median CPU time, the slowest
control, how many exceed the target, and over all moves the median, the count over
0.1 s and the slowest single move. Then every control is toured, moved up to five steps
and back, and what is drawn on all the kernel's figures is counted before and after: a
callback that draws over its last drawing instead of replacing it leaves artists behind
(a stale mark on the figure, and every later move slower). Exits 1 if a control's
median is over the target or a control leaves artists.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_sliders.py [NOTEBOOK...]``.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

import nbclient
import nbformat

from evallib.report._kernel import PatientKernelManager

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 0.100
#: moves timed per control, each to a value not shown before (fewer if the control has fewer)
MOVES = 3

PROBE = r'''
import json as _json, time as _time
import ipywidgets as _w
from ipywidgets.widgets.widget import _instances as _inst

def _targets(w, k=1):
    """Up to k distinct values 1, 2, ... steps from w.value (the next options, or +step each;
    downwards at the end of the range); [] if w cannot move."""
    if getattr(w, "disabled", False):
        return []
    v = w.value
    if hasattr(w, "options") and not isinstance(w, _w.SelectMultiple):
        labels = list(getattr(w, "_options_values", None) or [])
        i = labels.index(v) if v in labels else 0
        ahead = labels[i + 1:] if i + 1 < len(labels) else labels[:i][::-1]
        return ahead[:k]
    if isinstance(w, (_w.IntSlider, _w.FloatSlider, _w.BoundedIntText, _w.BoundedFloatText)):
        up = [v + j * w.step for j in range(1, k + 1) if v + j * w.step <= w.max]
        return up or [v - j * w.step for j in range(1, k + 1) if v - j * w.step >= w.min]
    if isinstance(w, _w.FloatLogSlider):
        up = [v * w.base ** (j * w.step) for j in range(1, k + 1) if v * w.base ** (j * w.step) <= w.base ** w.max]
        return up or [v / w.base ** (j * w.step) for j in range(1, k + 1)
                      if v / w.base ** (j * w.step) >= w.base ** w.min]
    if isinstance(w, (_w.IntRangeSlider, _w.FloatRangeSlider)):
        lo, hi = v
        up = [(lo, hi + j * w.step) for j in range(1, k + 1) if hi + j * w.step <= w.max]
        return up or [(lo - j * w.step, hi) for j in range(1, k + 1) if lo - j * w.step >= w.min]
    if isinstance(w, (_w.Checkbox, _w.ToggleButton)):
        return [not v]
    return []

def _step(w):
    t = _targets(w, 1)
    return t[0] if t else None

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
    _old, _walls, _cpus = _widget.value, [], []
    _to = _targets(_widget, MOVES)
    for _new in _to:                 # each move from the start value to a value not shown before
        _t, _c = _time.perf_counter(), _time.process_time()
        _widget.value = _new
        _walls.append(_time.perf_counter() - _t)
        _cpus.append(_time.process_time() - _c)
        _widget.value = _old
    if not _to:
        continue
    _rows.append({"control": _widget.description or type(_widget).__name__, "kind": type(_widget).__name__,
                  "from": repr(_old), "to": repr(_to), "walls": _walls, "cpus": _cpus})
    _moved.append(_widget)
# then each control toured (moved several steps and back): nothing may be left on any figure
for _row, _widget in zip(_rows, _moved):
    _row["left"] = _tour(_widget)
print("SLIDERS" + _json.dumps(_rows))
'''


def measure(path: Path) -> list[dict]:
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(f"MOVES = {MOVES}\n" + PROBE))
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
    for r in rows:
        r["seconds"], r["max"] = statistics.median(r["walls"]), max(r["walls"])
        r["cpu"] = statistics.median(r["cpus"])
    print(f"\nEvery control moved to {MOVES} values not shown before (fewer if it has fewer), one at a time from "
          f"its start, kernel-side with its output rendered; median and slowest move (target {1000 * TARGET_S:.0f} ms "
          "for the median):")
    print(f"  {'notebook':<34} {'control':<22} {'kind':<18} {'moves':>5} {'median':>7} {'max':>7} {'CPU':>6} {'left':>5}")
    for r in rows:
        flag = ("  SLOW" if r["seconds"] > TARGET_S else "") + ("  LEAVES ARTISTS" if r["left"] else "")
        print(f"  {r['notebook']:<34} {r['control'][:22]:<22} {r['kind']:<18} {len(r['walls']):5d} "
              f"{1000 * r['seconds']:7.1f} {1000 * r['max']:7.1f} {1000 * r['cpu']:6.1f} {r['left']:5d}{flag}")
    if not rows:
        print("  no controls found")
        return 0
    slow = [r for r in rows if r["seconds"] > TARGET_S]
    worst = max(rows, key=lambda r: r["seconds"])
    worst_cpu = max(rows, key=lambda r: r["cpu"])
    single = max(rows, key=lambda r: r["max"])
    walls = sorted(w for r in rows for w in r["walls"])
    print(f"\nslowest median: {worst['notebook']} '{worst['control']}' {1000 * worst['seconds']:.0f} ms wall "
          f"(target {1000 * TARGET_S:.0f} ms); {len(slow)} of {len(rows)} controls over the target; "
          f"most CPU: {worst_cpu['notebook']} '{worst_cpu['control']}' {1000 * worst_cpu['cpu']:.0f} ms; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"all {len(walls)} moves: median {1000 * statistics.median(walls):.0f} ms, "
          f"{sum(w > TARGET_S for w in walls)} over {1000 * TARGET_S:.0f} ms, slowest single move "
          f"{1000 * single['max']:.0f} ms ({single['notebook']} '{single['control']}')")
    left = [r for r in rows if r["left"]]
    print(f"artists left on the figures after moving each control up to five steps and back: "
          f"{'none' if not left else ', '.join(repr(r['notebook'] + ' ' + r['control']) for r in left)}")
    return 1 if slow or left else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
