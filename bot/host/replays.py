"""Replays (issue 25): a finished game shown position by position, replayed from its action log.

API (a mixin of :class:`bot.host.service.HostService`)::

    await svc.replay_position(match_id, step=0, *, last=False, guild=None, channel=None, as_text=False) -> Reply

Position 0 is the set-up, position k the table after the k-th move in force (an undone move is
not replayed: :func:`bot.storage.effective_actions`). The reply says, privately, which game, "step
k of n", the round and who made the k-th move and what (the adapter's ``describe_action``), then
that move's narration, then what was hidden at that position (the adapter's ``revealed``: hands,
the order of the stacks and the bag), and carries the full table's picture (the adapter's
``picture(board=True)``, drawn off the event loop as ``/board`` draws it) and
:class:`~bot.host.replies.ReplayPosition` (the step, the number of steps, each round's first step)
for a transport's buttons. ``as_text`` (the offline table's ``replay ID [STEP]``): the same lines,
public, with the table as text.

Whose games: a game of the asker's server (``guild``), else (no server: the offline table) a game of
``channel``. Only a *finished* game is replayed: once it is over nothing in it is hidden any more
(``/export`` gives its seed), so the replay shows everything. A game that is unknown, deleted or of
another server is refused with one sentence; a game that is not finished (running, abandoned,
a lobby) with another, which names only its number, so that nothing of what it hides can show.

Each step replays the log from the set-up (the engine is fast: docs/performance-render.md gives
the time per step); nothing is kept in memory between steps, so a transport keeps a replay's state
(the game's number and the step) in its messages alone and they work after a restart.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.games import GameAdapter, engine_options
from bot.host.guard import host_call
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import ReplayPosition, Reply, Table
from bot.host.tables import HostBase
from bot.i18n import _
from bot.storage import MatchRecord, effective_actions
from engine.core import EngineError, Game

log = logging.getLogger("bot.host.service")  # one logger for the host, whichever module says it

MAX_MATCH_ID = 2**63 - 1  # the databases' integer keys; a larger number is no game


@dataclass(frozen=True, slots=True)
class Position:
    """One position of a replayed log: the game there, where it stands, and the move that made it
    (``seat``, its ``label`` and its ``narration``; ``None`` and empty at the set-up)."""

    game: Game
    where: ReplayPosition
    seat: int | None = None
    label: str | None = None
    narration: tuple[str, ...] = ()


def walk(adapter: GameAdapter[Any], record: MatchRecord, moves: Sequence[tuple[int, str]],
         step: int | None) -> Position:
    """Replay ``moves`` ((seat, action text) in force, in order) from the match's set-up and return
    position ``step`` (``None``: the last). The whole log is replayed, to find every round's first
    position; the move of ``step`` alone is described and narrated (in the current language).
    Raises the engine's errors if the log does not replay."""
    game = adapter.game_cls.new(list(record.names), seed=record.seed, options=engine_options(record.options),
                                start_seat=record.start_seat)
    steps = len(moves)
    target = steps if step is None else step
    current = _round(game)
    rounds = [(current, 0)] if current >= 1 else []
    kept: dict[str, Any] | None = game.to_json() if target == 0 and steps else None
    at, seat, label = current, None, None
    narration: tuple[str, ...] = ()
    for i, (who, text) in enumerate(moves, start=1):
        if i == target:
            seat, label = who, adapter.describe_action(game, game.parse_action(text))
        events = game.apply(who, text)
        for e in events:
            if e.kind == "round":
                new = int((e.data or {}).get("round", current))
                if new != current:
                    current = new
                    rounds.append((new, i))
        if i == target:
            at, narration = current, tuple(adapter.narrate(game, events))
            if i < steps:
                kept = game.to_json()
    there = game if kept is None else adapter.game_cls.from_json(kept)
    return Position(there, ReplayPosition(target, steps, at, tuple(rounds)), seat, label, narration)


def _round(game: Game) -> int:
    """The round of a position (0: before the first, or a game without rounds)."""
    value = game.view(None).get("round", 0)
    return int(value) if isinstance(value, int) else 0


class ReplaysMixin(HostBase):
    """``replay_position`` (see the module's docstring) and the text command ``replay ID [STEP]``."""

    @host_call()
    async def replay_position(self, match_id: int, step: int = 0, *, last: bool = False, guild: str | None = None,
                              channel: str | None = None, as_text: bool = False) -> Reply:
        record = await self.storage.get_match(match_id) if 0 < match_id <= MAX_MATCH_ID else None
        if record is None or not (record.guild == guild if guild is not None else
                                  channel is not None and record.channel == channel):
            raise Refusal(RefusalCode.REPLAY_UNKNOWN, id=match_id)  # another server's game is no game here
        if record.status != "finished":  # said from the record alone: nothing hidden is read
            raise Refusal(RefusalCode.REPLAY_NOT_FINISHED, id=match_id)
        adapter = self.games.get(record.game)
        if adapter is None:
            raise Refusal(RefusalCode.GAME_NOT_OFFERED, game=record.game)
        moves = [(a.seat, a.action) for a in effective_actions(await self.storage.actions(record.id))]
        if not last and not 0 <= step <= len(moves):
            raise Refusal(RefusalCode.REPLAY_NO_STEP, id=record.id, last=len(moves), step=step)
        try:
            # the engine replays off the event loop (tens of milliseconds for a whole game)
            pos = await asyncio.to_thread(walk, adapter, record, moves, None if last else step)
        except (EngineError, ValueError, TypeError, KeyError, IndexError):
            log.exception("the action log of match %s does not replay", record.id)
            raise Refusal(RefusalCode.REPLAY_BROKEN, id=record.id) from None
        lines = [_("Replay of game {id} ({game}).", id=record.id, game=adapter.title), _step_line(record, pos),
                 *pos.narration]
        if as_text:
            lines += ["", *adapter.text(pos.game).splitlines()]
        hidden = adapter.revealed(pos.game)
        if hidden:
            lines += ["", _("Hidden at this point (shown now that the game is over):"), *hidden]
        image = await self._image(Table(record, adapter, pos.game), pos.game, pos.where.step, board=True)
        if image is not None:
            image = replace(image, filename=f"replay-{record.game}-{record.id}-{pos.where.step:04d}.png")
        return Reply(public=lines if as_text else [], private=[] if as_text else lines, image=image,
                     names=list(record.names), match_id=record.id, game=record.game, status=record.status,
                     position=pos.where)

    async def _replay_here(self, channel: str, args: Sequence[str], guild: str | None) -> Reply:
        """The text command ``replay ID [STEP]`` (the offline table): the position as text."""
        if not 1 <= len(args) <= 2 or not all(a.isascii() and a.isdigit() and len(a) <= 18 for a in args):
            raise Refusal(RefusalCode.REPLAY_USAGE)
        step = int(args[1]) if len(args) == 2 else 0
        return await self.replay_position(int(args[0]), step, guild=guild, channel=channel, as_text=True)


def _step_line(record: MatchRecord, pos: Position) -> str:
    """"Step 37 of 163 · round 2 · Bob: place W2"; the set-up at step 0."""
    where = pos.where
    when = _("round {round}", round=where.round) if where.round >= 1 else _("before the first round")
    if pos.seat is None:
        return _("Step {step} of {steps} · {when} · the set-up, before the first move", step=where.step,
                 steps=where.steps, when=when)
    return _("Step {step} of {steps} · {when} · {name}: {action}", step=where.step, steps=where.steps, when=when,
             name=record.seats[pos.seat].name, action=pos.label)
