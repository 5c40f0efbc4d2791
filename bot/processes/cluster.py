"""``meadhall cluster``: run P ``meadhall run`` processes over all shards and restart one that dies.

Every process gets ``--shard-count N --shard-ids …`` (:func:`bot.processes.shards.plan`: round robin) and
the same configuration, so all share one database (PostgreSQL; see docs/deploy.md). A process
that exits is started again after ``restart_delay`` seconds (doubling up to a minute while it
keeps dying within ``stable_after`` seconds of its start); SIGTERM or SIGINT stops every process
and the cluster.

Issue 24: :func:`login_commands` reads ``GET /gateway/bot`` once (the shard count unless
configured, ``max_concurrency``) and gives every process the same ``--login-at`` so their
IDENTIFYs take turns by bucket (bot.processes.gateway_limits); a process that exits with
``FATAL_EXIT`` (a fatal gateway close, logged by itself) is not started again; arguments in
``first_start_only`` (``--sync-global``) are given to a process's first start only, so commands
are synced once per deployment however often a process restarts.

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

from bot.processes.gateway_limits import FATAL_EXIT, fetch_gateway_bot
from bot.processes.shards import plan

log = logging.getLogger(__name__)


def run_commands(config: str | None, shard_count: int, processes: int, extra: Sequence[str] = ()) -> list[list[str]]:
    base = [sys.executable, "-m", "bot.cli"] + (["--config", config] if config else [])
    return [[*base, "run", "--shard-count", str(shard_count), "--shard-ids", ",".join(map(str, ids)), *extra]
            for ids in plan(shard_count, processes)]


def login_commands(config: str | None, token: str, processes: int, *, shard_count: int | None = None,
                   sync_global: bool = False, login_delay: float = 1.0, base: str | None = None) -> list[list[str]]:
    """:func:`run_commands` for a deployment: the shard count is Discord's recommendation (at least
    one per process) unless given; every process IDENTIFYs in its buckets' turns from one start
    time; only process 0 syncs commands (and only at its first start: :class:`Cluster`)."""
    plan(shard_count or max(1, processes), processes)  # refuse impossible numbers before asking Discord
    info = fetch_gateway_bot(token, base)
    count = shard_count or max(processes, info.shards)
    log.info("Discord recommends %d shard(s), max_concurrency %d, %d session starts left; running %d shard(s) "
             "in %d process(es)", info.shards, info.max_concurrency, info.remaining, count, processes)
    login = ["--login-at", f"{time.time() + login_delay:.3f}", "--max-concurrency", str(info.max_concurrency)]
    commands = run_commands(config, count, processes, login)
    if sync_global:
        commands[0].append("--sync-global")
    return commands


class Cluster:
    def __init__(self, commands: Sequence[Sequence[str]], *, restart_delay: float = 1.0,
                 stable_after: float = 60.0, poll: float = 0.2,
                 first_start_only: Sequence[str] = ("--sync-global",)) -> None:
        self.commands = [list(c) for c in commands]
        self.first_start_only = set(first_start_only)
        self.fatal: list[int] = []  # processes stopped for good (FATAL_EXIT)
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
        # a restart does what the first start did once per deployment no more (a command sync)
        self.commands[k] = [a for a in self.commands[k] if a not in self.first_start_only]
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
                    if proc is not None and proc.poll() == FATAL_EXIT:
                        log.error("process %d stopped with a fatal gateway close (its log says which and what "
                                  "to do); not starting it again", k)
                        self.procs[k] = None
                        self.fatal.append(k)
                        continue
                    if proc is not None and proc.poll() is not None:
                        quick = now - self.started[k] < self.stable_after
                        self.delays[k] = min(60.0, self.delays[k] * 2) if quick else self.restart_delay
                        log.warning("process %d exited with %s; starting it again in %.1f s", k,
                                    proc.returncode, self.delays[k])
                        self.procs[k] = None
                        next_start[k] = now + self.delays[k]
                    if self.procs[k] is None and now >= next_start[k] and k not in self.fatal:
                        self.restarts[k] += 1
                        self._start(k)
                if len(self.fatal) == len(self.commands):
                    log.error("every process stopped with a fatal gateway close: the cluster stops")
                    return FATAL_EXIT
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
