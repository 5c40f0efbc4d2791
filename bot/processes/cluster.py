"""``meadhall cluster``: run P ``meadhall run`` processes over all shards and restart one that dies.

Every process gets ``--shard-count N --shard-ids …`` (:func:`bot.processes.shards.plan`: round robin) and
the same configuration, so all share one database (PostgreSQL; see docs/deploy.md). A process
that exits is started again after ``restart_delay`` seconds (doubling up to a minute while it
keeps dying within ``stable_after`` seconds of its start); SIGTERM or SIGINT stops every process
and the cluster.

API::

    cluster = Cluster(commands, restart_delay=1.0)    # one argv list per process
    exit_code = cluster.run(until=None)               # blocks; until(): stop when true (tests)
    cluster.stop()
    cluster.restarts                                  # how often each process was started again
"""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence

from bot.processes.shards import plan

log = logging.getLogger(__name__)


def run_commands(config: str | None, shard_count: int, processes: int, extra: Sequence[str] = ()) -> list[list[str]]:
    base = [sys.executable, "-m", "bot.cli"] + (["--config", config] if config else [])
    return [[*base, "run", "--shard-count", str(shard_count), "--shard-ids", ",".join(map(str, ids)), *extra]
            for ids in plan(shard_count, processes)]


class Cluster:
    def __init__(self, commands: Sequence[Sequence[str]], *, restart_delay: float = 1.0,
                 stable_after: float = 60.0, poll: float = 0.2) -> None:
        self.commands = [list(c) for c in commands]
        self.restart_delay = restart_delay
        self.stable_after = stable_after
        self.poll = poll
        self.procs: list[subprocess.Popen | None] = [None] * len(self.commands)
        self.started: list[float] = [0.0] * len(self.commands)
        self.delays: list[float] = [restart_delay] * len(self.commands)
        self.restarts: list[int] = [0] * len(self.commands)
        self._stop = threading.Event()

    def _start(self, k: int) -> None:
        proc = self.procs[k] = subprocess.Popen(self.commands[k])
        self.started[k] = time.monotonic()
        log.info("process %d started (pid %d): %s", k, proc.pid, " ".join(self.commands[k][-4:]))

    def stop(self) -> None:
        self._stop.set()

    def run(self, until: Callable[[], bool] | None = None) -> int:
        for sig in (signal.SIGTERM, signal.SIGINT):
            if threading.current_thread() is threading.main_thread():
                signal.signal(sig, lambda *_: self.stop())
        next_start = [0.0] * len(self.commands)
        try:
            for k in range(len(self.commands)):
                self._start(k)
            while not self._stop.is_set() and not (until and until()):
                now = time.monotonic()
                for k, proc in enumerate(self.procs):
                    if proc is not None and proc.poll() is not None:
                        quick = now - self.started[k] < self.stable_after
                        self.delays[k] = min(60.0, self.delays[k] * 2) if quick else self.restart_delay
                        log.warning("process %d exited with %s; starting it again in %.1f s", k,
                                    proc.returncode, self.delays[k])
                        self.procs[k] = None
                        next_start[k] = now + self.delays[k]
                    if self.procs[k] is None and now >= next_start[k]:
                        self.restarts[k] += 1
                        self._start(k)
                self._stop.wait(self.poll)
        finally:
            for proc in self.procs:
                if proc is not None and proc.poll() is None:
                    proc.terminate()
            for proc in self.procs:
                if proc is not None:
                    try:
                        proc.wait(10)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait()
        return 0
