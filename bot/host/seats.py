"""Computer players at the table: seating them and letting them move (issue 8, host side).

A computer player sits at a seat like anybody else; its user id is ``bot:LEVEL:N``, LEVEL the
canonical name of its level (issue 30: ``bot:normal:0``; an id stored with an old name,
``bot:heuristic:0``, still plays as its new level and counts as the same player). After any
change of the table the transport calls :func:`play_bots`, which lets every computer player that
must act choose from **its seat's view** and legal actions (``engine.players``) and sends the
choice through the host service, so it is checked, committed, narrated and drawn like a human
move. A player is made afresh for each decision with a seed from the match seed, the seat and
the table version, so a game replays identically and a restart changes nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.host.common import computer_level
from bot.host.service import COMPUTER_PREFIX, HostService, Reply
from bot.i18n import N_, _
from bot.i18n.text import quote
from engine.players import LEVELS, SEARCHING, canonical_level, make_player

BOT_PREFIX = COMPUTER_PREFIX
BOT_NAMES = ("Ragnar", "Freydis", "Ulf", "Sigrid", "Harald")
DEFAULT_LEVEL = "normal"  # /addbot without a level, meadhall play --level

# issue 30: one line per level, how it plays and how long it thinks (an autocomplete choice's name:
# at most 100 characters in every language; the hard level's time is the search's default budget)
LEVEL_LINES: dict[str, str] = {
    "random": N_("random — moves at random, no real opponent; moves at once"),
    "easy": N_("easy — makes a person's mistakes, moves at once"),
    "normal": N_("normal — plays like a sensible person, moves at once"),
    "hard": N_("hard — searches deeply, about 1 s a move"),
}


def level_line(level: str) -> str:
    """The translated line of ``level`` (a canonical name of :data:`LEVELS`)."""
    return _(LEVEL_LINES[level])


def levels_text() -> str:
    """Every level's line, one a line (the offline table's /addbot and /help)."""
    return "\n".join(level_line(level) for level in LEVELS)


def bot_user(level: str, index: int) -> str:
    return f"{BOT_PREFIX}{level}:{index}"


def bot_level(user: str) -> str | None:
    """The canonical level of a computer player's user id (an old name gives its new one), or
    ``None`` for a person."""
    return computer_level(user)


async def add_bot(service: HostService, channel: str, level: str = DEFAULT_LEVEL, *,
                  guild: str | None = None) -> Reply:
    """Seat a computer player at the channel's table (before the start). ``level`` may be an old
    name (``heuristic``, ``search``): the seat gets the canonical one."""
    try:
        level = canonical_level(level)
    except ValueError:
        return Reply(ok=False, code="bad_options",
                     private=[_("There is no computer level “{level}”. Levels: {levels}.", level=quote(level),
                                levels=", ".join(LEVELS))])
    table = await service.table(channel)
    # the numbers taken by computer players of any level, old names included: each name once
    used = {int(s.user.split(":")[2]) for s in (table.record.seats if table else ())
            if bot_level(s.user) and s.user.split(":")[2].isdigit()}
    index = next(i for i in range(len(BOT_NAMES) + len(used) + 1) if i not in used)
    name = _("{name} (computer, {level})", name=BOT_NAMES[index % len(BOT_NAMES)], level=level)
    return await service.join(channel, bot_user(level, index), name, guild=guild)


async def play_bots(
    service: HostService,
    channel: str,
    *,
    budget: float | None = None,
    pause: float = 0.0,
    on_reply: Callable[[Reply], Awaitable[None]] | None = None,
    max_moves: int = 5000,
) -> list[Reply]:
    """Let the computer players move while one of them must act; returns (and reports) their replies."""
    replies: list[Reply] = []
    for _move in range(max_moves):
        table = await service.table(channel)
        if table is None or table.game is None or table.game.is_over:
            break
        game, record = table.game, table.record
        bots = [(s, level) for s in game.acting_seats() if (level := bot_level(record.seats[s].user))]
        if not bots:
            break
        seat, level = bots[0]
        user = record.seats[seat].user
        searching = level in SEARCHING  # only a searching level takes a budget and needs the CPU pool
        options = {"budget": budget} if searching and budget is not None else {}
        player = make_player(record.game, level, seed=(record.seed * 1009 + seat * 101 + record.version),
                             **options)
        view, legal, version = game.view(seat), game.legal_actions(seat), record.version
        cpu = service.cpu
        if searching and cpu is not None:  # a worker process: the event loop stays free
            action = await cpu.choose(record.game, level, record.seed * 1009 + seat * 101 + record.version,
                                      options, view, legal)
        elif searching:
            action = await asyncio.to_thread(player.choose, view, legal)
        else:
            action = player.choose(view, legal)
        reply = await service.act(channel, user, str(action), version=version)
        if not reply.ok:
            if reply.code in ("stale", "duplicate"):
                continue  # somebody (maybe another process on the same database) moved: look again
            if reply.code == "paused":
                break  # issue 29: the table was paused (its place deleted, the bot removed): they stop
            raise RuntimeError(f"computer player at seat {seat} chose {action}: {reply.private}")
        replies.append(reply)
        if on_reply is not None:
            await on_reply(reply)
        if pause:
            await asyncio.sleep(pause)
    return replies


class OfflineBots:
    """``meadhall play --bots N --level L``: seats N computer players once a person opened a table."""

    def __init__(self, count: int, level: str = DEFAULT_LEVEL, budget: float | None = None) -> None:
        self.pending = count
        self.level = canonical_level(level)  # ValueError naming a level there is not
        self.budget = budget

    async def play(self, service: HostService, channel: str) -> list[Reply]:
        out: list[Reply] = []
        table = await service.table(channel)
        if self.pending and table is not None and table.record.status == "lobby":
            while self.pending:
                reply = await add_bot(service, channel, self.level)
                out.append(reply)
                if not reply.ok:
                    break
                self.pending -= 1
        out += await play_bots(service, channel, budget=self.budget)
        return out
