"""Run notebooks without stalling on a missed ZMQ wake-up.

papermill and nbclient talk to the kernel through ``jupyter_client``'s asyncio
channels, which wait for a message with one ``await socket.poll(timeout)``. ZeroMQ
signals readiness through an edge-triggered file descriptor, and now and then the
event loop misses that edge: the kernel has replied, but the poll only returns when
its timeout expires (with no timeout, never). Here that showed up as notebook cells
that finished in a second but were reported after the whole cell timeout (pyzmq
27.3: 3 stalls in about 180 runs of a small widget notebook; rarer, not absent, with
26.x, and more frequent on a loaded machine).

:class:`PatientKernelManager` gives papermill and nbclient channels that poll in
short steps and, between steps, ask the socket itself whether a message is waiting
(reading ``zmq.EVENTS`` also re-arms the edge), so a missed wake-up costs at most
:data:`POLL_STEP` seconds. Pass it as ``kernel_manager_class`` to
``papermill.execute_notebook`` or ``nbclient.NotebookClient``.
"""

from __future__ import annotations

import time
import typing as t
from queue import Empty

import zmq
from jupyter_client.asynchronous.client import AsyncKernelClient
from jupyter_client.channels import AsyncZMQSocketChannel
from jupyter_client.manager import AsyncKernelManager
from traitlets import DottedObjectName, Type

__all__ = ["POLL_STEP", "PatientChannel", "PatientKernelClient", "PatientKernelManager", "wait_readable"]

#: longest single poll, in seconds: the most a missed wake-up can delay a message.
POLL_STEP = 0.5


async def wait_readable(socket: t.Any, timeout: float | None, *, step: float = POLL_STEP) -> bool:
    """Wait until ``socket`` has a message to read, or ``timeout`` seconds pass.

    Polls in steps of at most ``step`` seconds; after each step that reports nothing,
    asks the socket directly (``zmq.EVENTS``), which sees a message whose wake-up the
    event loop missed. ``timeout=None`` waits for ever. Returns ``True`` when a message
    is waiting, ``False`` on timeout.
    """
    deadline = None if timeout is None else time.monotonic() + max(0.0, float(timeout))
    while True:
        wait = step if deadline is None else min(step, max(0.0, deadline - time.monotonic()))
        if await socket.poll(int(wait * 1000)):
            return True
        if socket.getsockopt(zmq.EVENTS) & zmq.POLLIN:
            return True
        if deadline is not None and time.monotonic() >= deadline:
            return False


class PatientChannel(AsyncZMQSocketChannel):
    """An asyncio channel whose :meth:`get_msg` cannot sleep through a waiting message."""

    async def get_msg(self, timeout: float | None = None) -> dict[str, t.Any]:  # type: ignore[override]
        """Return the next message, or raise ``queue.Empty`` after ``timeout`` seconds."""
        assert self.socket is not None
        if await wait_readable(self.socket, timeout):
            return await self._recv()
        raise Empty


class PatientKernelClient(AsyncKernelClient):
    """``AsyncKernelClient`` with :class:`PatientChannel` for shell, iopub, stdin and control."""

    shell_channel_class = Type(PatientChannel)  # type: ignore[assignment]
    iopub_channel_class = Type(PatientChannel)  # type: ignore[assignment]
    stdin_channel_class = Type(PatientChannel)  # type: ignore[assignment]
    control_channel_class = Type(PatientChannel)  # type: ignore[assignment]


class PatientKernelManager(AsyncKernelManager):
    """``AsyncKernelManager`` whose clients are :class:`PatientKernelClient`."""

    client_class = DottedObjectName("evallib.report.PatientKernelClient", config=True)
    client_factory = Type(PatientKernelClient, klass=AsyncKernelClient, config=True)
