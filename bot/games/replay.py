"""Replaying a match's action log: for the pictures (issue 14), every player's VP round by round
and the latest scoring, for the final scoring's chart; for the animated recap and replays
(issue 25), every position of the game in turn (:func:`positions`)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.games import Position, engine_options
from engine.core import EngineError, Game

if TYPE_CHECKING:
    from renderer.recap import Frame, Recap

log = logging.getLogger(__name__)


@dataclass
class Replay:
    """What replaying a match's action log gives the pictures (issue 14): every player's VP at the
    start and at the end of each round, and the ``score`` events of the latest scoring."""

    history: list[list[int]] = field(default_factory=list)
    last_scores: list[dict[str, Any]] = field(default_factory=list)


def replay(game_cls: type[Game], setup: tuple[list[str], int, dict | None, int | None],
           moves: list[tuple[int, str]]) -> Replay:
    """Replay ``moves`` ((seat, action text) in log order) from ``game_cls.new(*setup)``.

    A round ends where the engine announces the next ``round`` and at ``game_over``; a scoring is the
    run of ``score`` events up to the next ``round`` or ``game_over``.
    """
    names, seed, options, start_seat = setup
    # a stored table's options carry the host's too (its language, issue 16): no engine takes them
    game = game_cls.new(list(names), seed=seed, options=None if options is None else engine_options(options),
                        start_seat=start_seat)
    out = Replay(history=[_vps(game)])
    closed = False
    for seat, action in moves:
        events = game.apply(seat, action)
        for e in events:
            if e.kind == "score":
                if closed:
                    out.last_scores, closed = [], False
                out.last_scores.append(dict(e.data or {}, seat=e.seat))
            elif e.kind == "round" and int((e.data or {}).get("round", 1)) > 1 or e.kind == "game_over":
                closed = True
        if any(e.kind == "game_over" for e in events) or any(
                e.kind == "round" and int((e.data or {}).get("round", 1)) > 1 for e in events):
            out.history.append(_vps(game))
    return out


def positions(game_cls: type[Game], setup: tuple[list[str], int, dict | None, int | None],
              moves: list[tuple[int, str]], *, views: bool = True) -> Iterator[Position]:
    """Every position of a match in turn: the start (``index`` 0), then the position after each of
    ``moves`` ((seat, action text) in force, in log order: :func:`bot.storage.effective_actions`).
    Each :class:`bot.games.Position` holds the live game (valid until the next one is taken), the
    move's events, who was to act before it and (``views``) the public view before it. An action
    the engine refuses raises its ``EngineError``: a stored log replays or is broken."""
    names, seed, options, start_seat = setup
    game = game_cls.new(list(names), seed=seed, options=None if options is None else engine_options(options),
                        start_seat=start_seat)
    total = len(moves)
    yield Position(0, total, game, setup=setup, moves=moves)
    for i, (seat, action) in enumerate(moves, start=1):
        acting = tuple(game.acting_seats())
        before = game.view(None) if views else None
        events = game.apply(seat, action)
        yield Position(i, total, game, seat, action, list(events), acting, before, setup, moves)


def try_replay(game_cls: type, setup: tuple[list[str], int, dict | None, int | None],
               moves: list[tuple[int, str]]) -> Replay | None:
    """:func:`replay`, or ``None`` (logged) when the log does not replay: a picture then goes without
    its chart rather than failing the move's reply."""
    try:
        return replay(game_cls, setup, moves)
    except (EngineError, ValueError, TypeError, KeyError):
        log.warning("the action log of a %s match does not replay; picture without history", game_cls.__name__,
                    exc_info=True)
        return None


def _vps(game: Any) -> list[int]:
    view = game.view(None)
    final = view.get("final")
    if isinstance(final, dict) and isinstance(final.get("players"), list):  # Brian Boru: the B-33 totals
        return [int(p.get("vp", 0)) for p in final["players"]]
    return [int(p.get("vp", 0)) for p in view["players"]]


def vp_history(game_cls: type, names: list[str], seed: int, options: dict | None, start_seat: int | None,
               moves: list[tuple[int, str]]) -> list[list[int]]:
    """Every player's VP at the start and at the end of each round, replayed from the log."""
    return replay(game_cls, (names, seed, options, start_seat), moves).history


def make_recap(adapter: Any, setup: tuple[list[str], int, dict[str, Any] | None, int | None],
               moves: list[tuple[int, str]], *, name: str = "meadhall-recap", fmt: str = "webp",
               max_bytes: int | None = None) -> Recap:
    """The animated recap of a match (issue 25): its log (``moves`` in force, ``setup`` as
    :func:`bot.games.replay.positions` takes them) replayed, a frame wherever the adapter's
    ``recap_frame`` puts one, each captioned with what was done since the frame before (the public
    narration, unless the adapter wrote its own), encoded by :func:`renderer.recap.encode_recap`.
    Pictures speak the current language. Raises :class:`renderer.recap.NoFrames` when no frame is
    drawn (a game without pictures)."""
    from renderer.recap import MAX_BYTES, encode_recap  # Pillow only where pictures are drawn

    frames: list[Frame] = []
    said: list[str] = []
    for pos in positions(adapter.game_cls, setup, moves):
        if not pos.start:
            said += adapter.narrate(pos.game, pos.events)
        frame = adapter.recap_frame(pos)
        if frame is None:
            continue
        if pos.start and not frame.did:
            frame.did = f"{adapter.title}: " + ", ".join(pos.game.names)
        elif not frame.did:
            frame.did = " ".join(said)
        said = []
        frames.append(frame)
    return encode_recap(frames, fmt=fmt, max_bytes=MAX_BYTES if max_bytes is None else max_bytes, name=name)
