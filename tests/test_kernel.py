"""evallib.report._kernel: notebook runs that a missed ZMQ wake-up cannot stall."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time

import nbformat
import nbclient
import zmq

from evallib.report._kernel import PatientChannel, PatientKernelClient, PatientKernelManager, wait_readable


def _run(coro):
    """``asyncio.run`` in a thread of its own: a browser test earlier in the same worker (Playwright's sync
    API) may leave an event loop running in the main thread, where ``asyncio.run`` refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


class _DeafSocket:
    """A socket whose poll never reports the message that ``zmq.EVENTS`` shows waiting."""

    def __init__(self, waiting_after: float | None):
        self.start = time.monotonic()
        self.waiting_after = waiting_after
        self.polls = 0

    async def poll(self, timeout_ms):
        self.polls += 1
        await asyncio.sleep(timeout_ms / 1000)
        return 0

    def getsockopt(self, option):
        assert option == zmq.EVENTS
        waiting = self.waiting_after is not None and time.monotonic() - self.start >= self.waiting_after
        return zmq.POLLIN if waiting else 0


def test_a_missed_wake_up_costs_at_most_one_step():
    sock = _DeafSocket(waiting_after=0.05)
    t0 = time.monotonic()
    assert _run(wait_readable(sock, None, step=0.1)) is True
    assert time.monotonic() - t0 < 1.0  # a plain poll(None) would never return


def test_timeout_still_applies():
    sock = _DeafSocket(waiting_after=None)
    t0 = time.monotonic()
    assert _run(wait_readable(sock, 0.3, step=0.1)) is False
    elapsed = time.monotonic() - t0
    assert 0.25 <= elapsed < 2.0 and sock.polls >= 3


def test_kernel_manager_hands_out_patient_clients_that_run_a_notebook():
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("print(6 * 7)")]
    seen = []
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=120,
                                     kernel_manager_class=PatientKernelManager,
                                     on_notebook_start=lambda **kw: seen.append(type(client.kc)))
    client.execute()
    assert seen == [PatientKernelClient]
    assert nb.cells[0].outputs[0]["text"].strip() == "42"


def test_patient_manager_builds_patient_channels():
    kc = PatientKernelManager(kernel_name="python3").client()
    assert isinstance(kc, PatientKernelClient)
    for name in ("shell", "iopub", "stdin", "control"):
        assert getattr(kc, f"{name}_channel_class") is PatientChannel
