"""``/undo``: take back the last move of the player who made it (issue 17).

An undo is allowed when, since the start of that move,

* no randomness was used (the game's RNG state in ``to_json()["rng"]`` is unchanged) — code
  ``undo_random``;
* nothing hidden was shown to anybody — ``undo_revealed``: (a) no other seat's *private* view
  (what its view shows beyond the spectator's) changed, e.g. Brian Boru draft cards passed on;
  (b) for a move every player sees (the adapter's ``public_action`` shows it as it is), the move
  reveals nothing another seat did not know: from each other seat's view before the move, several
  worlds consistent with that view are drawn (the engine's own determinizers in
  ``engine.players``); the move must be legal in each, and each must show that seat the very view
  after the move that the real game shows (a viking drawn from the bag, a tile turned, a card
  played from a hand all differ between such worlds). Where the determinizer cannot rebuild the
  decision from a view (Brian Boru's upkeep: options, extras, expansion, monastery, princess,
  raid), the worlds are the real game with the cards that seat does not see dealt again
  (``engine.players.brianboru.resample``, checked to show that seat its very view). A game, or a
  decision, with neither cannot be judged: ``undo_unsure`` (refused, to be safe);
* the next players have not acted since, or agree: when other seats moved after it, each of them
  must agree (a computer player agrees by itself) — ``undo_needs_agreement`` asks them (Discord: "Agree"/"Refuse" buttons on the
  request's message; text: ``undo`` or ``undo yes`` agrees, ``undo no`` refuses and clears the
  request, the asker's ``undo no`` withdraws it). The request is stored with the table
  (``options["host"]["undo"]``, written with ``update_running``), so it survives a restart; it
  holds only at the table version it was made at (any move makes it, and its buttons, stale).

Other refusals: ``undo_nothing`` (the player has no move in force to take back), ``undo_not_asked``
(an answer by a player whose agreement is not needed), ``no_request`` (an answer with no request
standing), ``already_voted`` (agreeing twice), ``stale`` (an answer given at an older version). The log stays
append-only: an undo is one entry ``#undo N`` (N moves taken back), committed like a move (the
version grows, older buttons go stale); :func:`bot.storage.rebuild` and ``HostService.replay``
honour it, so replay equals the snapshot.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.games import HOST_KEY, host_options
from bot.host.common import is_computer
from bot.host.protocol import TableHost
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import Reply, Table
from bot.i18n import _, ngettext
from bot.storage import LoggedAction, MatchRecord, StaleVersionError, effective_actions, rebuild
from engine.core import Game, Rng, json_copy

if TYPE_CHECKING:
    from bot.games import GameAdapter

UNDO_REFUSALS = ("undo_nothing", "undo_random", "undo_revealed", "undo_unsure", "undo_not_asked")
# replies that answer an undo request without changing the table (the version stays):
# asked (waiting for agreement), one more agreement (still waiting), declined (the move stands)
UNDO_WAITING = ("undo_needs_agreement", "undo_agreed", "undo_declined")
REQUEST_KEY = "undo"  # the standing request in options["host"]
ANSWERS = {"yes": True, "no": False}
WORLDS = 3  # alternative worlds drawn per other seat (a bound, not a rule)


def _determinizers() -> dict[str, Callable[..., Game]]:
    from engine.players.brianboru import determinize as bb
    from engine.players.vikings import determinize as vk

    return {"vikings": vk, "brian-boru": bb}


def _resamplers() -> dict[str, Callable[[Game, int, Rng], Game]]:
    """Worlds drawn from the real game (its hidden cards dealt again) where a determinizer cannot
    rebuild the decision from a view: Brian Boru's upkeep decisions (B-20…B-30)."""
    from engine.players.brianboru import resample as bb

    return {"brian-boru": bb}  # type: ignore[dict-item]


def _world(before: Game, seat: int, rng_seed: int) -> Game | None:
    """A world consistent with ``seat``'s view of ``before``, or None when none can be drawn."""
    game_id = type(before).GAME_ID
    determinize = _determinizers().get(game_id)
    if determinize is not None:
        with contextlib.suppress(Exception):  # a decision the determinizer does not rebuild: resample
            return determinize(before.view(seat), Rng(rng_seed))
    resample = _resamplers().get(game_id)
    if resample is None:
        return None
    try:
        return resample(before, seat, Rng(rng_seed))
    except Exception:  # it could not draw a world that shows the seat its very view
        return None


def _flat(data: Any, path: str = "") -> dict[str, Any]:
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for k, v in data.items():
            out.update(_flat(v, f"{path}/{k}"))
        return out
    if isinstance(data, list):
        out = {f"{path}#len": len(data)}
        for i, v in enumerate(data):
            out.update(_flat(v, f"{path}/{i}"))
        return out
    return {path: data}


def _private(game: Game, seat: int) -> dict[str, Any]:
    """What ``seat``'s view shows beyond the spectator's."""
    mine, public = _flat(game.view(seat)), _flat(game.view(None))
    return {k: v for k, v in mine.items() if public.get(k, _MISSING) != v}


_MISSING = object()


def step_blocker(before: Game, seat: int, action: str, after: Game, public: bool) -> str | None:
    """Why the move ``action`` of ``seat`` from ``before`` (giving ``after``) cannot be taken back,
    as a refusal code, or ``None``."""
    if before.to_json().get("rng") != after.to_json().get("rng"):
        return "undo_random"
    others = [s for s in range(len(before.names)) if s != seat]
    for s in others:
        if _private(before, s) != _private(after, s):
            return "undo_revealed"
    if not public:
        return None
    for s in others:
        seen = after.view(s)
        for k in range(WORLDS):
            world = _world(before, s, 1 + k * 7919 + s)
            if world is None:
                return "undo_unsure"
            try:
                world.apply(seat, action)
            except Exception:  # the move is impossible in a world this seat thought possible
                return "undo_revealed"
            if world.view(s) != seen:
                return "undo_revealed"
    return None


def _was_forced(adapter: GameAdapter[Any], before: Game, move: LoggedAction) -> bool:
    try:
        forced = adapter.forced_action(before, move.seat)
    except Exception:
        return False
    return forced is not None and str(forced) == move.action


@dataclass(slots=True)
class UndoRequest:
    """A request waiting for agreement, kept with the table (``options["host"]["undo"]``) so that
    a restart between the request and the agreement keeps it; it holds only at ``version``."""

    version: int      # the table version the request was made at
    seat: int         # who takes back their move
    count: int        # moves taken back
    agree: set[int] = field(default_factory=set)  # seats that must agree and did
    need: set[int] = field(default_factory=set)   # seats that moved since and must agree

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "seat": self.seat, "count": self.count,
                "agree": sorted(self.agree), "need": sorted(self.need)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> UndoRequest:
        return cls(int(data["version"]), int(data["seat"]), int(data["count"]),
                   {int(s) for s in data.get("agree", [])}, {int(s) for s in data.get("need", [])})


def pending_request(record: MatchRecord) -> UndoRequest | None:
    """The table's standing undo request, or None (none, or made at an older version: stale)."""
    data = record.options.get(HOST_KEY, {}).get(REQUEST_KEY)
    if not data:
        return None
    request = UndoRequest.from_json(data)
    return request if request.version == record.version else None


async def _save_request(service: TableHost, table: Table, request: UndoRequest | None) -> None:
    """Store (or clear) the table's undo request with the match's host options (durable)."""
    rec = table.record
    host = dict(rec.options.get(HOST_KEY, {}))
    if request is None:
        if REQUEST_KEY not in host:
            return
        host.pop(REQUEST_KEY)
    else:
        host[REQUEST_KEY] = request.to_json()
    options = {**rec.options, HOST_KEY: host}
    now = service.clock()
    await service.storage.update_running(rec.id, seats=rec.seats, options=options, now=now)
    rec.options, rec.updated = options, now


async def undo(service: TableHost, channel: str, user: str, answer: bool | None = None, version: int | None = None) -> Reply:
    """``/undo`` at ``channel`` by ``user`` (the service holds the channel's lock).

    ``answer`` None: ask to take back ``user``'s last move, or agree to the standing request when
    ``user`` must agree to it. ``answer`` True/False: agree to / refuse the standing request
    (``undo yes``/``undo no``, the Discord buttons); its asker may withdraw it with False.
    ``version``: the table version the answer was given at (a button's); another one is ``stale``."""
    table, game = await service._need_game(channel)
    rec = table.record
    seat = service._need_seat(table, user)
    if version is not None and version != rec.version:
        raise Refusal(RefusalCode.STALE)
    pending = pending_request(rec)
    if answer is not None:
        if pending is None:
            raise Refusal(RefusalCode.NO_UNDO_REQUEST)
        if seat not in pending.need and not (seat == pending.seat and answer is False):
            asked = ", ".join(rec.seats[s].name for s in sorted(pending.need))
            raise Refusal(RefusalCode.UNDO_NOT_ASKED, names=asked, shown_names=rec.names)
        if answer is False:
            return await _decline(service, table, pending, seat)
    if pending is not None and seat in pending.need and seat != pending.seat:
        if seat in pending.agree:
            raise Refusal(RefusalCode.UNDO_ALREADY_AGREED)
        pending.agree.add(seat)
        if pending.agree < pending.need:
            await _save_request(service, table, pending)
            return service._reply(table, code="undo_agreed", public=[_(
                "{name} agrees to take back the move ({count}/{needed}).", name=rec.seats[seat].name,
                count=len(pending.agree), needed=len(pending.need))])
        return await _commit(service, channel, table, pending.seat, pending.count)
    moves = effective_actions(await service.storage.actions(rec.id))
    mine = [i for i, a in enumerate(moves) if a.seat == seat]
    if not mine:
        raise Refusal(RefusalCode.UNDO_NOTHING)
    # the states before each move in force, to judge the moves taken back
    cls = table.adapter.game_cls
    states = [rebuild(cls, rec, [])]
    for a in moves:
        nxt = cls.from_json(json_copy(states[-1].to_json()))
        nxt.apply(a.seat, a.action)
        states.append(nxt)
    # a move the host made because it was the only choice (issue 13) would be made again at once:
    # it goes back with the player's choice before it
    forced_on = host_options(rec.options)["forced_moves"]
    k = len(mine) - 1
    while k > 0 and forced_on and _was_forced(table.adapter, states[mine[k]], moves[mine[k]]):
        k -= 1
    first = mine[k]
    count = len(moves) - first
    for i in range(first, len(moves)):
        a = moves[i]
        shown = table.adapter.public_action(a.action)
        code = step_blocker(states[i], a.seat, a.action, states[i + 1], public=shown == a.action)
        if code is not None:
            if code == "undo_revealed":  # said in the game's own words (QA: no tiles in Brian Boru)
                raise Refusal(RefusalCode.UNDO_REVEALED, what=_(table.adapter.hidden_shown))
            raise Refusal(RefusalCode.by_code(code))
    # a computer player cannot be asked: it agrees (its moves since go back with the rest)
    need = {a.seat for a in moves[first + 1:] if not is_computer(rec.seats[a.seat].user)} - {seat}
    if need:
        await _save_request(service, table, UndoRequest(rec.version, seat, count, set(), need))
        names = [rec.seats[s].name for s in sorted(need)]
        return service._reply(table, code="undo_needs_agreement", public=[ngettext(
            "{name} asks to take back their move; {names} moved since and must agree "
            "(undo yes, or undo no to refuse).",
            "{name} asks to take back their move; {names} moved since and must all agree "
            "(undo yes, or undo no to refuse).",
            len(names), name=rec.seats[seat].name, names=", ".join(names))],
            mentions=[rec.seats[s].user for s in sorted(need)])
    return await _commit(service, channel, table, seat, count)


async def _decline(service: TableHost, table: Table, pending: UndoRequest, seat: int) -> Reply:
    """``seat`` refuses (or the asker withdraws) the request: it is cleared, the move stands, the
    asker is told (pinged)."""
    rec = table.record
    await _save_request(service, table, None)
    asker = rec.seats[pending.seat]
    if seat == pending.seat:
        line = _("{name} withdraws the request to take back their move.", name=asker.name)
    else:
        line = _("{name} refuses to take back {asker}'s move; it stands.", name=rec.seats[seat].name,
                 asker=asker.name)
    return service._reply(table, code="undo_declined", public=[line], mentions=[asker.user])


async def _commit(service: TableHost, channel: str, table: Table, seat: int, count: int) -> Reply:
    """Append ``#undo COUNT`` for ``seat``; the table is back where it was before those moves."""
    rec = table.record
    moves = effective_actions(await service.storage.actions(rec.id))
    game = rebuild(table.adapter.game_cls, rec, [])
    for a in moves[:len(moves) - count]:
        game.apply(a.seat, a.action)
    now = service.clock()
    snapshot = game.to_json()
    new_version = rec.version + 1
    try:
        await service.storage.commit_action(
            rec.id, expected_version=rec.version, seat=seat, action=f"#undo {count}", snapshot=snapshot,
            status="active", now=now, timers=service._reminder_timers(table, game, new_version, now))
    except StaleVersionError:
        service._uncache(channel)
        raise Refusal(RefusalCode.STALE) from None
    rec.version, rec.snapshot, rec.updated = new_version, snapshot, now
    table.game, table.last_action = game, None
    prompts = service._prompts(table)
    if count == 1:
        line = _("{name} takes back their last move.", name=rec.seats[seat].name)
    else:
        line = ngettext("{name} takes back their last move and the move after it.",
                        "{name} takes back their last move and the {n} moves after it.", count - 1,
                        name=rec.seats[seat].name)
    return service._reply(table, public=[line], prompts=prompts, mentions=[p.user for p in prompts],
                          image=await service._image(table, game, new_version))
