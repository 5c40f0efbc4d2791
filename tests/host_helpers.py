"""Real games through a real HostService on a SQLite file: helpers for the host-trust tests."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from bot.games.registry import default_registry
from bot.host.service import HostService, Reply
from bot.offline.table import OfflineTable
from bot.storage import Storage
from engine.core import Game

CH = "chan-1"
PLAYERS = {"vikings": ("ann", "bob"), "brian-boru": ("ann", "bob", "cid")}


class Clock:
    def __init__(self, t: float = 1_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


async def open_service(path: Path, **kw) -> tuple[HostService, Storage]:
    store = await Storage.open(path)
    svc = HostService(store, default_registry(), clock=kw.pop("clock", Clock()), images=kw.pop("images", False), **kw)
    await svc.load()
    return svc, store


async def start_game(svc: HostService, game: str, *, seed: int, channel: str = CH,
                     names: tuple[str, ...] | None = None, options: tuple[str, ...] = ()) -> Reply:
    users = names or PLAYERS[game]
    for i, user in enumerate(users):
        r = await svc.join(channel, user, user.title(), game=game if i == 0 else None)
        assert r.ok, r
    r = await svc.start(channel, users[0], game, list(options), seed=seed, start_seat=0)
    assert r.ok, r
    return r


async def live(svc: HostService, channel: str = CH) -> Game:
    table = await svc.table(channel)
    assert table is not None and table.game is not None
    return table.game


async def play_first_legal(svc: HostService, until: Callable[[Game], bool], *, channel: str = CH,
                           limit: int = 2_000) -> Game:
    """Each step the first acting seat takes its first legal action, until ``until(game)``."""
    for _ in range(limit):
        table = await svc.table(channel)
        if table is None or table.game is None:
            raise AssertionError("the game ended before the wanted position")
        game = table.game
        if until(game):
            return game
        seat = game.acting_seats()[0]
        r = await svc.act(channel, table.record.seats[seat].user, str(game.legal_actions(seat)[0]))
        assert r.ok, r
    raise AssertionError("the wanted position never came")


def db_rows(path: Path) -> list[tuple]:
    """Every row of every table of the database, for byte-for-byte comparisons."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        out: list[tuple] = []
        for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            out += [(name, *row) for row in con.execute(f'SELECT * FROM "{name}" ORDER BY 1')]
        return out
    finally:
        con.close()


async def say(table: OfflineTable, *lines: str) -> list[str]:
    """What the offline table prints for ``lines`` typed one after another."""
    out: list[str] = []
    for line in lines:
        out += await table.handle(line)
    return out
