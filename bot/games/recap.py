"""The frames of the animated recap (issue 25): which positions of a replayed game are frames, and
their pictures. Every picture is public (the view of no seat), as the chat showed it.

:func:`default_frame` is :meth:`bot.games.BaseAdapter.recap_frame`: a frame at the start, at each
change of the player to act (Vikings: a turn is a buy and its placement), at each finished scoring
(held longer) and at the end. :func:`brianboru_frame` is Brian Boru's: one frame per trick, shown
whole with its winner (the engine clears a trick in the move that completes it, so its cards come
from the position before), one after the setup and one after the draft, the upkeep (B-25 … B-32)
as a scoring, and the final scoring at the end.

This module takes its adapter as a parameter and imports no adapter (they import it);
:func:`bot.games.replay.make_recap` makes the whole recap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import _, ngettext
from renderer.recap import Frame


def _where(view: Mapping[str, Any]) -> str:
    rnd = view.get("round")
    if rnd is None:
        return ""
    if rnd == 0:  # Brian Boru's set-up (B-9) comes before round 1
        return _("Before the first round")
    rounds = view.get("rounds")
    return _("Round {round} of {rounds}", round=rnd, rounds=rounds) if rounds else _("Round {round}", round=rnd)


def _actor(game: Any, seat: int | None) -> tuple[str, tuple[int, int, int] | None, str]:
    from renderer.common import SEAT_COLOURS, display_name

    if seat is None:
        return "", None, ""
    name = display_name(game.names[seat])
    return name, SEAT_COLOURS[seat % len(SEAT_COLOURS)], name[:1].upper()


def default_frame(adapter: Any, pos: Any) -> Frame | None:
    """The frame after ``pos`` (a :class:`bot.games.Position`) by the default rule, or ``None``."""
    game, events = pos.game, pos.events
    over = any(e.kind == "game_over" for e in events)
    if pos.start:
        kind = "start"
    elif over:
        kind = "end"
    elif adapter.scoring_pictured(game, events):
        kind = "scoring"
    elif tuple(game.acting_seats()) != pos.acting_before:
        kind = "move"
    else:
        return None
    replay = pos.replay if events and adapter.needs_replay(game, events) else None
    # a move's frame shows the homeland of the player who just moved (``focus``), so each frame
    # shows its move; the chat's picture at that moment showed the next player's
    focus = pos.seat if kind == "move" else None
    picture = adapter.picture(game, seat=None, events=events, replay=replay, focus=focus)
    if picture is None:
        return None
    view = pos.before if kind in ("scoring", "end") and pos.before is not None else game.view(None)
    name, colour, letter = _actor(game, pos.seat)
    return Frame(picture, _where(view), name, colour=colour, letter=letter, kind=kind)


def _key(view: Mapping[str, Any]) -> tuple[Any, ...]:
    phase = view.get("phase")
    return view.get("round"), phase, (view.get("trick") or {}).get("number") if phase == "tricks" else None


def brianboru_frame(adapter: Any, pos: Any) -> Frame | None:
    """Brian Boru's frame after ``pos``: see the module."""
    from renderer.brianboru import initials, seat_colour
    from renderer.brianboru_turn import draw_brianboru_turn

    game, events, before = pos.game, pos.events, pos.before
    view = dict(game.view(None))
    letters = initials(view)
    seat = pos.seat
    actor = ("", None, "") if seat is None else (view["players"][seat]["name"], seat_colour(seat), letters[seat])
    kinds = {e.kind for e in events}
    if pos.start or before is None:
        return Frame(draw_brianboru_turn(view, tr=_, ntr=ngettext), _where(view), kind="start")
    if "game_over" in kinds:
        replay = pos.replay if adapter.needs_replay(game, events) else None
        picture = adapter.picture(game, seat=None, events=events, replay=replay)
        return None if picture is None else Frame(picture, _where(before), actor[0], colour=actor[1],
                                                  letter=actor[2], kind="end")
    if _key(before) == _key(view):
        return None
    phase = before.get("phase")
    scoring = phase == "upkeep" or "upkeep" in kinds and view.get("phase") != "upkeep"
    where = _where(before)
    if phase == "tricks":  # a trick is over: show it whole, its winner starred, and what it changed
        trick = dict(before.get("trick") or {})
        cards = list(trick.get("cards") or [])
        seen = {(c["seat"], c["card"]) for c in cards}
        cards += [{"seat": e.seat, "card": e.data["card"], "colour": e.data["colour"]} for e in events
                  if e.kind == "played" and (e.seat, e.data["card"]) not in seen]
        won = [e.seat for e in events if e.kind == "trick_won"]
        trick.update(cards=cards, winner=trick.get("winner") if trick.get("winner") is not None else
                     (won[0] if won else None))
        view.update(phase="tricks", trick=trick, active_town=before.get("active_town"), round=before.get("round"))
        where = _("Round {round} of {rounds}, trick {trick} of {tricks}", round=before.get("round"),
                  rounds=before.get("rounds"), trick=trick.get("number"), tricks=trick.get("of"))
        if trick["winner"] is not None:  # the trick's frame is its winner's
            w = int(trick["winner"])
            actor = (view["players"][w]["name"], seat_colour(w), letters[w])
    elif scoring:
        where = _("Round {round} of {rounds}: upkeep", round=before.get("round"), rounds=before.get("rounds"))
    return Frame(draw_brianboru_turn(view, tr=_, ntr=ngettext), where, actor[0], colour=actor[1], letter=actor[2],
                 kind="scoring" if scoring else "move")

