"""Crash safety (issue 11): a host process playing on a SQLite file is killed with SIGKILL at random
moments; after each restart every acknowledged action is in the log, ``PRAGMA integrity_check`` is
ok, and replaying each game's log equals its stored snapshot.

The child (``python -m tests.storage.test_storage_crash DB SEED``) plays random legal moves at four tables
at once through :class:`HostService` and prints ``ACK match version action`` after each ``act``
returned ok, i.e. after the commit. Bounded: three kills, each after 10–60 acknowledgements.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.games import GameRegistry
from bot.host.service import HostService
from bot.storage import Storage, rebuild
from tests.toygame import ToyAdapter, ToyGame

ROOT = Path(__file__).resolve().parents[2]
KILLS = 3


async def _play_table(svc: HostService, channel: str, rng: random.Random) -> None:
    while True:
        table = await svc.table(channel)
        if table is None:
            for user in ("ann", "bob"):
                await svc.join(channel, user, user.title(), guild="g")
            continue
        if table.game is None:
            await svc.start(channel, "ann", options=[f"pile={rng.randint(5, 30)}"])
            continue
        seat = table.game.acting_seats()[0]
        action = str(rng.choice(table.game.legal_actions(seat)))
        reply = await svc.act(channel, table.record.seats[seat].user, action)
        if reply.ok:
            print(f"ACK {reply.match_id} {reply.version} {action}", flush=True)
        await asyncio.sleep(0)


async def _child(path: str, seed: int) -> None:
    store = await Storage.open(path)
    svc = HostService(store, GameRegistry([ToyAdapter()]), images=False)
    await svc.load()
    rng = random.Random(seed)
    await asyncio.gather(*(_play_table(svc, f"chan-{i}", random.Random(rng.random())) for i in range(4)))


def _run_child_until_killed(path: Path, seed: int, rng: random.Random) -> list[tuple[int, int, str]]:
    """Start the child, read its acknowledgements, SIGKILL it after a random number of them."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "tests.storage.test_storage_crash", str(path), str(seed)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    acked: list[tuple[int, int, str]] = []
    try:
        target = rng.randint(10, 60)
        while len(acked) < target:
            line = proc.stdout.readline()
            if not line:
                raise AssertionError(f"the child stopped by itself: {proc.stderr.read()[-2000:]}")
            _, match, version, action = line.rstrip("\n").split(" ", 3)
            acked.append((int(match), int(version), action))
        if rng.random() < 0.5:  # sometimes in the middle of the next commit rather than right after one
            proc.stdout.readline()
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    return acked


async def _check(path: Path, acked: list[tuple[int, int, str]]) -> None:
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        logged = {(m, s): a for m, s, a in raw.execute("SELECT match, seq, action FROM actions")}
    for match, version, action in acked:
        assert logged.get((match, version)) == action, f"acknowledged action {match}/{version} lost"
    async with await Storage.open(path) as store:
        for match in {m for m, _ in logged}:
            record = await store.get_match(match)
            actions = await store.actions(match)
            assert record.version == len(actions)
            assert rebuild(ToyGame, record, actions).to_json() == record.snapshot


def test_acknowledged_actions_survive_sigkill_and_replay_equals_snapshot(tmp_path):
    path = tmp_path / "crash.db"
    rng = random.Random(11)
    acked: list[tuple[int, int, str]] = []
    for kill in range(KILLS):
        acked += _run_child_until_killed(path, seed=kill, rng=rng)
        asyncio.run(_check(path, acked))
    assert len({m for m, _, _ in acked}) >= 4  # several tables, across restarts


if __name__ == "__main__":
    asyncio.run(_child(sys.argv[1], int(sys.argv[2])))
