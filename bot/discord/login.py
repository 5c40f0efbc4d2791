"""How a ``meadhall run`` process logs in (issue 24): IDENTIFYs at the times the cluster gave it,
and a fatal gateway close ends the process with one clear line instead of a restart loop.

API::

    LoginPlan(login_at, max_concurrency)          # from meadhall run --login-at/--max-concurrency
    class Bot(ScheduledIdentify, commands.Bot)    # the mixin: before_identify_hook waits for the slot
    code = await serve(bot, token)                # 0 after a normal close, FATAL_EXIT after a fatal one
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

import discord

from bot.processes.gateway_limits import FATAL_EXIT, IDENTIFY_WINDOW, fatal_line, identify_at

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LoginPlan:
    login_at: float  # unix time the cluster's processes start IDENTIFYing from
    max_concurrency: int = 1


class ScheduledIdentify:
    """A discord.py client mixin: the first IDENTIFY of each shard waits for its bucket's slot of
    :attr:`login_plan` (bot.processes.gateway_limits.identify_at); later ones (after an op 9 or an invalid
    session) wait Discord's 5 s as discord.py does. Without a plan: discord.py's behaviour."""

    login_plan: LoginPlan | None = None
    _identified_once: set[int]

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        plan = self.login_plan
        seen = self.__dict__.setdefault("_identified_once", set())
        sid = shard_id or 0
        if plan is not None and sid not in seen:
            seen.add(sid)
            wait = identify_at(plan.login_at, sid, plan.max_concurrency) - time.time()
            if wait > 0:
                log.info("shard %d IDENTIFYs in %.1f s (its max_concurrency bucket's turn)", sid, wait)
                await asyncio.sleep(wait)
            return
        if not initial:
            await asyncio.sleep(IDENTIFY_WINDOW)


async def serve(bot: discord.Client, token: str) -> int:
    """Run ``bot`` until it closes. A fatal gateway close (4004, 4010-4014; a refused token at login)
    is logged as one line naming the code and what to do, and gives :data:`FATAL_EXIT`."""
    try:
        async with bot:
            await bot.start(token)
    except discord.PrivilegedIntentsRequired:
        log.critical(fatal_line(4014))
        return FATAL_EXIT
    except discord.LoginFailure:
        log.critical(fatal_line(4004))
        return FATAL_EXIT
    except discord.ConnectionClosed as e:
        line = fatal_line(e.code)
        if line is None:
            raise
        log.critical(line)
        return FATAL_EXIT
    return 0
