"""The rows both storage backends read and write, and what the tables hold.

Tables (schema version 1):

* ``matches`` — one row per table ever opened in a channel: ``guild``, ``channel``, ``game`` id,
  ``options`` (JSON), ``seed``, ``start_seat`` (``NULL`` = drawn from the seed), ``status``
  (``lobby`` → ``active`` → ``finished`` | ``abandoned``; a lobby may also be ``abandoned``),
  ``creator``, ``seats`` (JSON ``[{"user", "name"}]``, seat 0 first), ``votes`` (JSON list of users
  who voted to abandon), ``version`` (number of applied actions), ``snapshot`` (the game's
  ``to_json()`` after the last action), ``created``/``updated`` (epoch seconds). At most one
  lobby-or-active match per channel (a partial unique index).
* ``actions`` — the append-only log (``match``, ``seq`` 1…version, ``seat``, ``action`` text,
  ``at``); triggers refuse UPDATE and DELETE.
* ``timers`` — durable timers (``match``, ``kind`` e.g. ``"reminder"``, ``due``, ``payload`` JSON).
* schema version 2 adds ``matches.link`` (nullable text: where the match is played, e.g. the
  URL of its Discord thread; shown by profiles and history).
* schema version 3 adds ``meta`` (``key`` text primary key, ``value`` text): small facts of the
  deployment, e.g. ``commands:APP:guild:ID`` → the hash of the slash commands last synced there
  (bot.discord.sync). ``migrate-db`` does not copy it (a new database syncs once more).
* schema version 4 adds ``rematch_votes`` (``match``, ``voter``, ``name`` as the voter asked,
  ``at``; one row per person and match) and ``rematches`` (``match`` → the ``rematch`` match it
  became, at most one): issue 25's Rematch button, durable across restarts.
* schema version 5 adds ``matches.started`` (epoch seconds the game started, set by
  ``start_match``; ``NULL`` for games started before) and ``player_settings`` (``user_id`` text
  primary key, ``pings`` ``every``|``after``|``reminders``, ``ping_hours``, ``updated``): a
  person's own settings (issue 25).
* schema version 6 adds ``analyses`` (one row per finished match whose analysis was asked for:
  ``state``, ``channel``, ``message``, ``progress``, ``result``, ``worker``, ``lease``, ``requested``,
  ``updated``): issue 31's analysis jobs, :mod:`bot.storage.analyses`.
* ``schema_version`` — one row: how many steps of the backend's migrations have been applied.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol

from bot.storage.records import MatchRecord, Seat, Timer


def match_record(row: Row) -> MatchRecord:
    (mid, guild, channel, game, options, seed, start_seat, status, creator, seats, votes, version,
     snapshot, created, updated, link, started) = row
    return MatchRecord(
        id=mid, guild=guild, channel=channel, game=game, options=json.loads(options), seed=seed,
        start_seat=start_seat, status=status, creator=creator,
        seats=[Seat(s["user"], s["name"]) for s in json.loads(seats)], votes=json.loads(votes),
        version=version, snapshot=None if snapshot is None else json.loads(snapshot),
        created=created, updated=updated, link=link, started=started,
    )


def timer_record(row: Row) -> Timer:
    return Timer(row[0], row[1], row[2], row[3], json.loads(row[4]))


def dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def seats_json(seats: Iterable[Seat]) -> str:
    return dumps([s.to_json() for s in seats])


class Row(Protocol):
    """A fetched row as either backend gives it (an SQLite tuple, an asyncpg ``Record``): read by
    position, unpacked or counted; nothing else."""

    def __getitem__(self, index: int, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


class Tx(Protocol):
    """One open transaction of a backend; SQL uses ``?`` placeholders on every backend."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None: ...

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...
