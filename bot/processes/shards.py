"""Discord sharding for meadhall: which process serves which guilds' tables (issue 15).

Discord sends a guild's events to shard ``(guild_id >> 22) % shard_count``; direct messages and
anything without a guild go to shard 0. A process run with ``--shard-count N --shard-ids 0,1``
serves exactly the tables, reminders and computer players of the guilds on its shards, so several
processes share one (PostgreSQL) database without two of them serving the same table.

API::

    shard_of(guild, count) -> int
    shards = Shards.parse(count, "0,1")       # ValueError on a bad count or id
    shards.owns(guild) -> bool
    plan(count, processes) -> list[list[int]]  # shard ids per process, round robin
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild: str | int | None, count: int) -> int:
    if guild is None:
        return 0
    try:
        gid = int(guild)
    except (TypeError, ValueError):
        return 0  # not a Discord guild (the offline table): shard 0, like direct messages
    return (gid >> 22) % count


@dataclass(frozen=True)
class Shards:
    count: int
    ids: frozenset[int]

    @classmethod
    def parse(cls, count: int, ids: str | None = None) -> Shards:
        if count < 1:
            raise ValueError(f"the shard count must be at least 1, not {count}")
        if ids is None or not ids.strip():
            return cls(count, frozenset(range(count)))
        try:
            chosen = frozenset(int(x) for x in ids.split(","))
        except ValueError:
            raise ValueError(f"shard ids are whole numbers separated by commas, not {ids!r}") from None
        bad = sorted(i for i in chosen if not 0 <= i < count)
        if bad:
            raise ValueError(f"shard ids must be between 0 and {count - 1}; {bad} are not")
        return cls(count, chosen)

    def owns(self, guild: str | int | None) -> bool:
        return shard_of(guild, self.count) in self.ids

    def __str__(self) -> str:
        return f"shards {','.join(map(str, sorted(self.ids)))} of {self.count}"


def plan(count: int, processes: int) -> list[list[int]]:
    """Shard ids for each of ``processes`` processes (round robin; every shard exactly once)."""
    if processes < 1 or count < processes:
        raise ValueError(f"{processes} processes cannot share {count} shards (each needs at least one)")
    return [list(range(k, count, processes)) for k in range(processes)]
