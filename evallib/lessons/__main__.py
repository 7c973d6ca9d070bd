"""``python -m evallib.lessons NOTEBOOK...``: freeze each widget view of an executed lesson into the
outputs it captured (:func:`evallib.lessons.live.freeze_widget_outputs`; used by ``make execute``)."""

from .live import _main

if __name__ == "__main__":
    raise SystemExit(_main())
