"""A test that hangs must fail with a picture of what it waits for, never stall CI.

pytest-timeout (pyproject: ``timeout``) ends a test that runs too long: it prints every thread's
stack and ends the xdist worker, which xdist reports as a crash and replaces, so the rest of the
suite still runs. A thread's stack of an asyncio test only shows the event loop waiting in
``select``, though; what hangs is a coroutine. So a little before pytest-timeout fires, this
watchdog asks the test's event loop (from a timer thread, with ``call_soon_threadsafe``) to print
every task and the chain of awaits each one is suspended in, with every thread's stack (a loop that
is itself blocked cannot answer). An xdist worker's stderr is captured and lost when pytest-timeout
ends it, so the watchdog also writes to a file in ``HANG_DIR``, which the controller prints in its
summary (tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import threading
import traceback
from types import FrameType

#: seconds before pytest-timeout's own limit at which the tasks are printed
LEAD = 30.0
#: the environment variable naming the folder the controller reads the workers' reports from
HANG_DIR = "MEADHALL_HANG_DIR"


def _awaits(coro: object) -> list[str]:
    """The chain of awaits a suspended coroutine waits in, outermost first."""
    lines: list[str] = []
    for _depth in range(64):
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None) or getattr(coro, "ag_frame", None)
        if frame is not None:
            code = frame.f_code
            lines.append(f'  File "{code.co_filename}", line {frame.f_lineno}, in {code.co_name}')
        nxt = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None) or getattr(coro, "ag_await", None)
        if nxt is None:
            if not hasattr(coro, "cr_frame") and not hasattr(coro, "gi_frame"):  # a future, not a coroutine
                lines.append(f"  waiting on {coro!r:.300}")
            break
        coro = nxt
    return lines


def describe_tasks(loop: asyncio.AbstractEventLoop) -> str:
    """Every task of ``loop`` with where it is suspended (called in the loop's own thread)."""
    out = []
    for task in sorted(asyncio.all_tasks(loop), key=lambda t: t.get_name()):
        out.append(f"task {task.get_name()} {task!r:.200}")
        out.extend(_awaits(task.get_coro()))
    return "\n".join(out) or "no tasks"


def describe_threads() -> str:
    """Every thread's stack, as pytest-timeout prints them."""
    names = {t.ident: t.name for t in threading.enumerate()}
    out = []
    for ident, frame in sys._current_frames().items():
        out.append(f"thread {names.get(ident, ident)}")
        out.append("".join(traceback.format_stack(frame)).rstrip())
    return "\n".join(out)


def _running_loop_of(thread_id: int) -> asyncio.AbstractEventLoop | None:
    """The event loop a thread is running, found on its stack (a diagnostic, not an API)."""
    frame: FrameType | None = sys._current_frames().get(thread_id)
    while frame is not None:
        candidate = frame.f_locals.get("self")
        if isinstance(candidate, asyncio.AbstractEventLoop) and candidate.is_running():
            return candidate
        frame = frame.f_back
    return None


class Watchdog:
    """Reports a test's threads and asyncio tasks if it is still running after ``after`` s."""

    def __init__(self, nodeid: str, after: float) -> None:
        self.nodeid = nodeid
        self.thread_id = threading.get_ident()
        self.timer = threading.Timer(max(after, 1.0), self._fire)
        self.timer.daemon = True

    def start(self) -> None:
        self.timer.start()

    def cancel(self) -> None:
        self.timer.cancel()

    def _fire(self) -> None:
        loop = _running_loop_of(self.thread_id)
        header = f"\n=== watchdog: {self.nodeid} is still running"
        threads = f"--- its threads ---\n{describe_threads()}\n=== end of watchdog ===\n"
        if loop is None:
            self._write(f"{header}; no event loop is running in its thread ===\n{threads}")
            return
        # the stacks now, in case the loop is blocked and never runs ``dump``
        self._write(f"{header} ===\n{threads}")

        def dump() -> None:
            self._write(f"{header}; its asyncio tasks ===\n{describe_tasks(loop)}\n=== end of watchdog ===\n")

        try:
            loop.call_soon_threadsafe(dump)
        except RuntimeError:  # the loop closed in between
            pass

    def _write(self, text: str) -> None:
        """To stderr (pytest-timeout shows it when it ends a run without xdist) and into
        ``HANG_DIR`` (an xdist worker's stderr dies with it; the controller prints the folder)."""
        try:
            sys.stderr.write(text)
            sys.stderr.flush()
            folder = os.environ.get(HANG_DIR)
            if folder:
                name = re.sub(r"[^A-Za-z0-9_.-]+", "_", self.nodeid)[-150:]
                with open(os.path.join(folder, f"{os.getpid()}-{name}.txt"), "a", encoding="utf-8") as f:
                    f.write(text)
        except Exception:  # noqa: BLE001 - a diagnostic must never break the run
            traceback.print_exc()


#: seconds the tasks a test left behind get to end once cancelled, when its event loop closes
TEARDOWN_PATIENCE = 20.0


class TasksWouldNotEnd(Exception):  # not RuntimeError: pytest-asyncio turns that into a warning
    """Tasks left behind by a test did not end within TEARDOWN_PATIENCE of being cancelled."""


def bounded_cancel_all_tasks(loop: asyncio.AbstractEventLoop) -> None:
    """``asyncio.runners._cancel_all_tasks`` (what closing pytest-asyncio's loop runs) with a
    limit: a task that swallows its cancellation made the original wait for ever, so that the test
    never ended and CI stalled. Tasks still running after TEARDOWN_PATIENCE are printed and dropped
    (the loop closes without them), and the test errors in its teardown."""
    to_cancel = asyncio.all_tasks(loop)
    if not to_cancel:
        return
    for task in to_cancel:
        task.cancel()
    _done, stuck = loop.run_until_complete(asyncio.wait(to_cancel, timeout=TEARDOWN_PATIENCE))
    for task in to_cancel - stuck:
        if not task.cancelled() and task.exception() is not None:
            loop.call_exception_handler({"message": "unhandled exception during asyncio.run() shutdown",
                                         "exception": task.exception(), "task": task})
    if stuck:
        text = describe_tasks(loop)
        for task in stuck:
            asyncio.tasks._unregister_task(task)  # type: ignore[attr-defined]  # the loop closes without it
        raise TasksWouldNotEnd(f"{len(stuck)} task(s) did not end within {TEARDOWN_PATIENCE} s of being "
                               f"cancelled when the test's event loop closed:\n{text}")
