"""What the Cog needs of its bot (issue 23): :class:`TableBot`, which
:class:`bot.discord.app.MeadhallBot` satisfies. The Cog's modules type against it, so that the app
imports the Cog and nothing of the Cog imports the app (no import circle, type-only imports
included)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, Protocol

import discord

from bot.discord.refusals import ChannelWatch
from bot.host.service import HostService, Reply


class TableBot(Protocol):
    """The bot as the Cog uses it: the host service, the answering settings, the watch over refused
    posts, the computer players and reminders it wakes, and discord.py's channel lookups."""

    service: HostService
    threads: bool  # a thread per game (issue 13)
    defer_after: float  # seconds before an answer is deferred
    watch: ChannelWatch
    http: Any  # discord.py's HTTPClient: the Cog's REST calls first answer waiting interactions (issue 24)

    def wake_reminders(self) -> None: ...

    def schedule_bots(self, channel: str, lang: str | None = None) -> None: ...

    def try_again_later(self, channel: str, error: discord.HTTPException, reply: Reply, *,
                        person: bool = False) -> None: ...

    def get_channel(self, id: int, /) -> Any: ...

    def fetch_channel(self, channel_id: int, /) -> Awaitable[Any]: ...

    def get_partial_messageable(self, id: int, /) -> Any: ...
