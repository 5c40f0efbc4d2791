"""The host as the functions over one table see it (issue 23): narrow protocols, not the mixins.

:mod:`bot.host.turns` (deadlines, take-over) and :mod:`bot.host.undo` are functions over the
service. They type against these protocols, which :class:`bot.host.tables.HostBase` (and with
:class:`bot.host.play.PlayMixin`, every :class:`bot.host.service.HostService`) satisfies, so that
they never import the classes that call them: the host has no import circle, type-only imports
included (``tests/test_layout.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from bot.host.replies import Attachment, Prompt, Reply, Table
from bot.processes.shards import Shards
from bot.storage import NewTimer, Storage
from engine.core import Event, Game


class TableHost(Protocol):
    """The host's state and the pieces of its replies (:class:`bot.host.tables.HostBase`)."""

    storage: Storage
    clock: Callable[[], float]
    reminder_delay: float | None
    reminder_limit: int
    deadline_takeover: int
    shards: Shards | None

    def _lock(self, channel: str) -> asyncio.Lock: ...

    def _uncache(self, channel: str) -> None: ...

    async def table(self, channel: str) -> Table | None: ...

    async def _need_game(self, channel: str) -> tuple[Table, Game]: ...

    def _need_seat(self, table: Table, user: str) -> int: ...

    def _prompts(self, table: Table) -> list[Prompt]: ...

    async def _image(self, table: Table, game: Game, version: int, seat: int | None = None, *,
                     events: Sequence[Event] | None = None, board: bool = False,
                     focus: int | None = None) -> Attachment | None: ...

    def _reminder_timers(self, table: Table, game: Game, version: int, now: float) -> list[NewTimer]: ...

    def _reply(self, table: Table, **kw: Any) -> Reply: ...


class PlayingHost(TableHost, Protocol):
    """A host that also makes moves (:class:`bot.host.play.PlayMixin`): the deadline's computer moves."""

    async def _act(self, channel: str, user: str, text: str, version: int | None, scoped: bool = False) -> Reply: ...

    async def _forced_moves(self, channel: str, reply: Reply) -> Reply: ...
