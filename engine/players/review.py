"""The review of a finished game: every person's decisions valued by the search (issue 31).

Like a chess site's computer analysis: the game is replayed from its log, and at every decision of
every reviewed seat (the people; computer seats are left out by the caller) the ``hard`` level's
:meth:`analyse` values the action chosen and the best one **from that seat's own view at that
moment** — ``game.view(seat)`` and its legal actions, never the full state. The difference of their
expected final margins is the VP the decision cost.

* **Only the seat's view.** :func:`judge` reads the game through ``view(seat)`` and
  ``legal_actions(seat)`` alone, and the search's seed is drawn from them (:func:`view_seed`), so
  two games that differ only in what the seat could not see get the same verdict, to the last bit.
* **Reproducible.** A fixed budget of work (:data:`REVIEW_OPTIONS`: the search's work measure, no
  wall clock) and seeds drawn from the views: the same game gives the same review.
* **The chosen action valued too.** When the search did not try it (the search keeps its own short
  list), a second analysis restricted to the best and the chosen action values both in the same
  sampled deals, and the cost is read from that one.
* **Noise.** Sampled values are noisy: when the chosen action comes out *better* than the search's
  choice, the cost is clamped to 0 (``Decision.clamped`` says so, ``raw_cost`` keeps the figure).
* **Forced decisions** (a single legal action) are not decisions: they are skipped.

What comes out (:class:`Review`): each decision (seat, move number, round, chosen, best, cost, one
sentence of why as a :class:`~engine.core.Msg`), each seat's expected final margin over the game
(:class:`Curve`: the position's margin as the search values it statically, from each seat's own
view, after every move; the final margin at the end), and per reviewed seat (:class:`SeatReview`)
the accuracy (the share of decisions within :data:`NEAR` VP of the best), the VP lost per decision
and the three costliest decisions.

Work comes in pieces for a host that runs it between other jobs: :func:`decisions` lists the log
indices to judge, :func:`judge_moves` judges any subset of them (replaying the log each time, which
costs milliseconds), :func:`curve` values the positions, :func:`summarise` puts it together.
:func:`review_game` does all of it at once. Pure: no I/O, no clock.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from engine.core import Action, Game, Msg, msg

from . import make_player
from .analysis import EVEN, Analysis, Candidate, part_name, static

REVIEW_BUDGET = 0.2  # seconds of the hard level's work measure per decision (a fixed amount, not a clock)
REVIEW_OPTIONS: dict[str, Any] = {"budget": REVIEW_BUDGET, "wall_limit": None}
REVIEW_LEVEL = "hard"
NEAR = 1.0  # VP: a decision within this of the best counts as accurate (issue 31)
COSTLIEST = 3  # decisions shown per person
SALT = "meadhall-review"  # the review's seeds differ from /hint's for the same view


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Decision:
    """One judged decision. ``move``: its number in the log (1 = the first move); ``chosen``/``best``:
    the actions' texts; ``chosen_margin``/``best_margin``: their expected final VP margins over the best
    rival as the search values them (``searched`` false: the heuristic's values of a short-term choice
    the search does not play on); ``cost`` = ``max(0, raw_cost)``, ``clamped`` when the noise made the
    chosen action look better than the search's choice; ``why``: one sentence, ``None`` when the
    choice was the best."""

    seat: int
    move: int
    round: int
    chosen: str
    best: str
    chosen_margin: float
    best_margin: float
    cost: float
    raw_cost: float
    clamped: bool
    searched: bool
    why: Msg | None = None

    @property
    def accurate(self) -> bool:
        return self.cost < NEAR

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "move": self.move, "round": self.round, "chosen": self.chosen, "best": self.best,
                "chosen_margin": self.chosen_margin, "best_margin": self.best_margin, "cost": self.cost,
                "raw_cost": self.raw_cost, "clamped": self.clamped, "searched": self.searched,
                "why": None if self.why is None else self.why.to_json()}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Decision:
        why = d.get("why")
        return cls(int(d["seat"]), int(d["move"]), int(d["round"]), str(d["chosen"]), str(d["best"]),
                   float(d["chosen_margin"]), float(d["best_margin"]), float(d["cost"]), float(d["raw_cost"]),
                   bool(d["clamped"]), bool(d["searched"]), None if why is None else Msg.from_json(why))


@dataclass(frozen=True)
class Curve:
    """Every seat's expected final margin over the game: ``margins[seat][k]`` after ``moves[k]`` moves
    (0: the start; the last point is the game's end, the real final margin); ``rounds``: the move
    numbers where a round began (round 2 onwards)."""

    moves: tuple[int, ...]
    margins: tuple[tuple[float, ...], ...]
    rounds: tuple[int, ...] = ()

    def at(self, seat: int, move: int) -> float:
        """The seat's margin at the last point at or before ``move``."""
        k = 0
        for i, m in enumerate(self.moves):
            if m <= move:
                k = i
        return self.margins[seat][k]

    def to_json(self) -> dict[str, Any]:
        return {"moves": list(self.moves), "margins": [list(m) for m in self.margins], "rounds": list(self.rounds)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Curve:
        return cls(tuple(int(x) for x in d["moves"]), tuple(tuple(float(x) for x in m) for m in d["margins"]),
                   tuple(int(x) for x in d.get("rounds", ())))


@dataclass(frozen=True)
class SeatReview:
    """One reviewed seat: ``accuracy`` (0–1, the share of its decisions within :data:`NEAR` VP of the
    best; ``None`` without a decision), ``lost`` (VP lost per decision), its costliest decisions."""

    seat: int
    decisions: int
    accuracy: float | None
    lost: float
    costliest: tuple[Decision, ...]
    clamped: int = 0  # decisions whose small negative cost (noise) was clamped to 0


@dataclass(frozen=True)
class Review:
    """The review of a game: see the module."""

    game_id: str
    names: tuple[str, ...]
    persons: tuple[int, ...]
    decisions: tuple[Decision, ...]
    curve: Curve
    seats: tuple[SeatReview, ...] = field(default=())

    def seat(self, seat: int) -> SeatReview | None:
        return next((s for s in self.seats if s.seat == seat), None)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game_id, "names": list(self.names), "persons": list(self.persons),
                "decisions": [d.to_json() for d in self.decisions], "curve": self.curve.to_json()}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Review:
        return summarise(str(d["game"]), [str(x) for x in d["names"]], [int(x) for x in d["persons"]],
                         [Decision.from_json(x) for x in d["decisions"]], Curve.from_json(d["curve"]))


def initials(names: Sequence[str]) -> list[str]:
    """One letter per seat for the picture's tags and the lines beside it ("A1" = A's costliest):
    each name's first letter, or the seat numbers when letters repeat or are not plain."""
    firsts = [name.strip()[:1].upper() for name in names]
    if len(set(firsts)) == len(firsts) and all(c.isascii() and c.isalnum() for c in firsts):
        return firsts
    return [str(i + 1) for i in range(len(names))]


# --------------------------------------------------------------------------- judging


def view_seed(view: Mapping[str, Any], legal: Sequence[Action]) -> int:
    """The search's seed at a reviewed decision: drawn from what the seat sees, so nothing hidden
    changes it (the same idea as ``/hint``'s, salted apart)."""
    text = json.dumps({"salt": SALT, "view": view, "legal": [str(a) for a in legal]}, sort_keys=True, default=str)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


@runtime_checkable
class Analyser(Protocol):
    """What the review needs of the ``hard`` level: its analysis of a decision."""

    def analyse(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Analysis: ...


def _analyse(game_id: str, seed: int, options: Mapping[str, Any], view: Mapping[str, Any],
             legal: Sequence[Action]) -> Analysis:
    player = make_player(game_id, REVIEW_LEVEL, seed, **options)
    if not isinstance(player, Analyser):
        raise TypeError(f"the {REVIEW_LEVEL} level of {game_id} has no analyse()")
    return player.analyse(view, legal)


def _worth(found: Analysis, cand: Candidate) -> float:
    """What a candidate is worth in VP: its expected margin when the search played it on, else the
    heuristic's value (the search leaves that choice to it; its values are VP-like)."""
    return cand.margin if found.searched else cand.value


def judge(game_id: str, game: Game, seat: int, chosen: Action | str, *, move: int = 0,
          options: Mapping[str, Any] = REVIEW_OPTIONS) -> Decision:
    """Value ``chosen`` against the search's best at ``seat``'s decision in ``game``, reading the game
    through ``game.view(seat)`` and ``game.legal_actions(seat)`` only (never the full state)."""
    view = game.view(seat)
    legal = list(game.legal_actions(seat))
    action = game.parse_action(chosen) if isinstance(chosen, str) else chosen
    if action not in legal:
        raise ValueError(f"move {move}: {action} is not among seat {seat}'s legal actions")
    rnd = int(view.get("round") or 0)
    seed = view_seed(view, legal)
    found = _analyse(game_id, seed, options, view, legal)
    best = found.candidates[0]
    mine = next((c for c in found.candidates if c.action == action), None)
    if action == found.best:
        worth = _worth(found, best)
        return Decision(seat, move, rnd, str(action), str(action), worth, worth, 0.0, 0.0, False, found.searched)
    pair = found
    if mine is None:  # the search's short list left it out: both valued again, in the same sampled deals
        pair = _analyse(game_id, seed, options, view, [found.best, action])
        valued = {c.action: c for c in pair.candidates}
        if found.best not in valued or action not in valued:
            # never a StopIteration here: raised in a worker thread it would never reach the caller
            raise RuntimeError(f"move {move}: the search did not value both {found.best} and {action}")
        best, mine = valued[found.best], valued[action]
    raw = _worth(pair, best) - _worth(pair, mine)
    cost = max(0.0, raw)
    return Decision(seat, move, rnd, str(action), str(found.best), _worth(pair, mine), _worth(pair, best),
                    cost, raw, raw < 0, pair.searched, _why(pair.searched, best, mine, raw))


def _why(searched: bool, best: Candidate, mine: Candidate, gap: float) -> Msg:
    """Why the search's choice is better than the one made: the part of the seat's own value that
    differs most in its favour, or the best rival held back (as ``/hint``'s why, against the choice)."""
    if abs(gap) < EVEN or gap < 0:
        return msg("It and your choice are about even as the search plays them on.")
    if not searched:
        return msg("A short-term choice the search leaves to the heuristic, which rates it about {amount} VP above "
                   "your choice.", amount=f"{gap:.1f}")
    gains = {k: best.parts.get(k, 0.0) - mine.parts.get(k, 0.0) for k in best.parts.keys() | mine.parts.keys()}
    rivals = mine.rival - best.rival  # positive: the best rival ends lower after the better action
    key = max(sorted(gains), key=lambda k: gains[k]) if gains else None
    if key is None or rivals > gains[key]:
        return msg("Mostly it holds the best rival back: about {amount} VP less for them than after your choice.",
                   amount=f"{rivals:.1f}")
    return msg("Mostly {part}: about {amount} VP more than after your choice.", part=part_name(key),
               amount=f"{gains[key]:.1f}")


# --------------------------------------------------------------------------- the whole game


def decisions(game: Game, moves: Sequence[tuple[int, str]], persons: Collection[int]) -> list[int]:
    """The indices into ``moves`` ((seat, action text), log order, from the start ``game``, which is
    not changed) of the decisions to judge: the moves of ``persons`` that had a choice."""
    g = game.copy()
    out = []
    for i, (seat, action) in enumerate(moves):
        if seat in persons and len(g.legal_actions(seat)) > 1:
            out.append(i)
        g.apply(seat, action)
    return out


def judge_moves(game_id: str, game: Game, moves: Sequence[tuple[int, str]], indices: Iterable[int], *,
                options: Mapping[str, Any] = REVIEW_OPTIONS,
                progress: Callable[[int, int], None] | None = None) -> list[Decision]:
    """:func:`judge` at each of ``indices`` (into ``moves``, from the start ``game``, not changed);
    ``progress(done, total)`` after each."""
    wanted = sorted(set(indices))
    if wanted and not 0 <= wanted[0] <= wanted[-1] < len(moves):
        raise ValueError(f"a decision index is outside the log's {len(moves)} moves")
    g = game.copy()
    out: list[Decision] = []
    k = 0
    for i, (seat, action) in enumerate(moves):
        if k == len(wanted):
            break
        if i == wanted[k]:
            out.append(judge(game_id, g, seat, action, move=i + 1, options=options))
            k += 1
            if progress is not None:
                progress(k, len(wanted))
        g.apply(seat, action)
    return out


def curve(game_id: str, game: Game, moves: Sequence[tuple[int, str]]) -> Curve:
    """Every seat's expected final margin after every move (see :class:`Curve`): the position's margin
    as the search values it without playing on (:func:`~engine.players.analysis.static`), each seat
    from its own view; at the end, the real final margins."""
    from .analysis import final_vp

    g = game.copy()
    n = len(g.names)
    points: list[list[float]] = [[] for _ in range(n)]
    xs: list[int] = []
    rounds: list[int] = []

    def value() -> None:
        if g.is_over:
            vp = final_vp(g)
            for q in range(n):
                points[q].append(float(vp[q] - max(v for p, v in enumerate(vp) if p != q)))
        else:
            for q in range(n):
                points[q].append(round(static(game_id, g.view(q))[0], 2))

    value()
    xs.append(0)
    for i, (seat, action) in enumerate(moves, start=1):
        events = g.apply(seat, action)
        if any(e.kind == "round" and int((e.data or {}).get("round", 1)) > 1 for e in events):
            rounds.append(i)
        value()
        xs.append(i)
    return Curve(tuple(xs), tuple(tuple(p) for p in points), tuple(rounds))


def summarise(game_id: str, names: Sequence[str], persons: Collection[int], judged: Iterable[Decision],
              line: Curve) -> Review:
    """Put judged decisions and the curve together, with each person's figures (:class:`SeatReview`)."""
    ds = tuple(sorted(judged, key=lambda d: d.move))
    people = tuple(sorted(set(persons)))
    seats = []
    for s in people:
        mine = [d for d in ds if d.seat == s]
        accuracy = sum(d.accurate for d in mine) / len(mine) if mine else None
        lost = sum(d.cost for d in mine) / len(mine) if mine else 0.0
        costly = sorted((d for d in mine if d.cost >= EVEN), key=lambda d: (-d.cost, d.move))[:COSTLIEST]
        seats.append(SeatReview(s, len(mine), accuracy, lost, tuple(costly), sum(d.clamped for d in mine)))
    return Review(game_id, tuple(names), people, ds, line, tuple(seats))


def review_game(game_id: str, game: Game, moves: Sequence[tuple[int, str]], persons: Collection[int], *,
                options: Mapping[str, Any] = REVIEW_OPTIONS,
                progress: Callable[[int, int], None] | None = None) -> Review:
    """The whole review of a finished game: ``game`` its start (not changed), ``moves`` its log,
    ``persons`` the seats to review. ``progress(done, total)`` after each judged decision."""
    judged = judge_moves(game_id, game, moves, decisions(game, moves, persons), options=options, progress=progress)
    return summarise(game_id, game.names, persons, judged, curve(game_id, game, moves))
