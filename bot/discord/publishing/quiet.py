"""A person's ping setting on Discord (issue 25; the setting itself: :mod:`bot.host.pings`).

Before a move's reply is planned, :func:`quiet_users` names the people to act who must not be
pinged as their turn begins (``reminders only``; ``only after N hours``); the message policy leaves
them out of its pings (``plan.quiet``: the message names them, its mention pings nobody), and
:func:`defer_pings` arms the durable later ping of the ``after`` ones, sent by the reminders."""

from __future__ import annotations

import logging

from bot.discord.publishing.policy import Plan
from bot.host.service import HostService, Reply

log = logging.getLogger("bot.discord.cog")


async def quiet_users(svc: HostService, reply: Reply) -> dict[str, int | None]:
    """The people to act whose ping setting says not to ping them now: user → hours (``only after
    N hours``) or None (``reminders only``). A database that cannot be read pings as by default
    (logged)."""
    users = [p.user for p in reply.prompts if p.user.isdigit()]
    if not users or reply.status != "active":
        return {}
    try:
        chosen = await svc.ping_settings(users)
    except Exception:
        log.exception("reading the ping settings of %s failed: pinging them", users)
        return {}
    return {u: s.ping_hours for u, s in chosen.items() if s.pings != "every"}


async def defer_pings(svc: HostService, key: str, plan: Plan, later: dict[str, int | None]) -> bool:
    """The people of ``plan.quiet`` who chose ``only after N hours`` get their turn's durable ping
    timer; ``True`` when one was armed (the reminder loop should look again)."""
    armed = False
    for user in plan.quiet:
        hours = later.get(user)
        if hours is None:
            continue  # reminders only
        try:
            armed = await svc.defer_ping(key, user, hours) or armed
        except Exception:
            log.exception("arming the later ping of %s in %s failed", user, key)
    return armed
