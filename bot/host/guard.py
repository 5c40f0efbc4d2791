"""The one guard around every public call of the host that may refuse (issue 18).

``@host_call(lock=True)`` on a coroutine method whose first argument is the channel:

1. (with ``lock``) takes the channel's lock, so that everything changing one table is serialised;
2. runs the method;
3. turns a :class:`~bot.host.refusals.Refusal` into a refused :class:`~bot.host.replies.Reply`
   (``ok=False``, the code, the translated sentence in ``private``): nothing changed;
4. turns a storage failure (read-only or full disk, a lock held past the busy timeout, I/O:
   :class:`bot.storage.StorageUnavailable`) into a ``storage_failed`` refusal. The database rolled
   the transaction back; the writers restore what they changed in memory before they commit (the
   live game goes back to the last commit, ``bot.host.play``), so the tables in memory are as
   before (issue 11).

Without ``lock`` (readers: status, board, rules, export, records) only 3 and 4 apply.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import Reply
from bot.storage import StorageUnavailable

log = logging.getLogger("bot.host.service")



class Locking(Protocol):
    """What the guard needs of the host (:class:`bot.host.tables.HostBase`): one lock per channel."""

    def _lock(self, channel: str) -> asyncio.Lock: ...


P = ParamSpec("P")
H = TypeVar("H", bound=Locking)


def refused(r: Refusal) -> Reply:
    """The reply saying ``r`` to whoever asked (``private``)."""
    return Reply(ok=False, code=r.code, private=[r.message], names=r.names)


def storage_refusal(error: StorageUnavailable) -> Refusal:
    """What a storage failure is said as (and logged)."""
    log.error("%s", error)
    return Refusal(RefusalCode.NOT_SAVED if error.writing else RefusalCode.NOT_READ)


def host_call(
    *, lock: bool = False
) -> Callable[[Callable[Concatenate[H, P], Awaitable[Reply]]], Callable[Concatenate[H, P], Coroutine[Any, Any, Reply]]]:
    """Lock the table (``lock``), run, turn a refusal or a storage failure into a reply."""

    def wrap(
        method: Callable[Concatenate[H, P], Awaitable[Reply]],
    ) -> Callable[Concatenate[H, P], Coroutine[Any, Any, Reply]]:
        @functools.wraps(method)
        async def guarded(self: H, /, *args: P.args, **kwargs: P.kwargs) -> Reply:
            try:
                if lock:
                    channel = args[0] if args else kwargs["channel"]
                    assert isinstance(channel, str), channel
                    async with self._lock(channel):
                        return await method(self, *args, **kwargs)
                return await method(self, *args, **kwargs)
            except Refusal as r:
                return refused(r)
            except StorageUnavailable as e:
                return refused(storage_refusal(e))

        return guarded

    return wrap
