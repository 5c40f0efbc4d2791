"""What the search player found at a decision, as data (issue 25: ``/hint``).

:meth:`engine.players.search.SearchPlayer.analyse` returns an :class:`Analysis`: the chosen action,
every candidate it tried with its mean **margin** (the seat's value minus the best rival's at the
end of each rollout — the expected final VP margin as the search values it, without the bonus the
search adds for a won game) and the mean of each **part** of the seat's own value, and ``why``: one
sentence (a :class:`~engine.core.Msg`) saying where the chosen action's margin over the runner-up's
comes from, derived from those means.

The parts of a seat's value (they add up to the value the search ranks by):

* Vikings: ``vp`` (VP already scored), ``gold`` (the purse at its worth in VP now), ``homeland``
  (what the homeland will still bring, the heuristic's estimate); at the end of the game, the final VP.
* Brian Boru: ``vp`` (VP and renown), ``coins``, ``regions`` (expected claim points and the
  region-count score), ``races`` (church, invaders, marriages).

:func:`leaf` values a full game for the search (value, margin, parts, the best rival's value);
:func:`static` values the position of a view without playing on (a decision the search does not
roll out: the margin of the position as it stands).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import Action, Msg, msg

WIN_BONUS = 5.0  # what the search adds to a won game's value (a tie-breaker, not VP)
EVEN = 0.05  # VP: below this, the best and the runner-up are called even


@dataclass(frozen=True)
class Candidate:
    """One action the search tried: ``value`` is what it ranks by; ``margin`` the VP part of it."""

    action: Action
    value: float
    margin: float
    rival: float  # mean value of the best rival at the rollouts' ends
    parts: dict[str, float] = field(default_factory=dict)
    rollouts: int = 0


@dataclass(frozen=True)
class Analysis:
    """The search's view of one decision. ``candidates`` best first (the search's order);
    ``searched``: rollouts were played (else the heuristic's ranking, and ``margin`` is the
    position's as it stands); ``why``: one sentence, or ``None`` with a single legal action."""

    best: Action
    margin: float
    candidates: tuple[Candidate, ...]
    searched: bool
    why: Msg | None
    sweeps: int = 0
    work: int = 0
    # the standard error of ``margin`` (VP) over the sampled deals: how sure the search is (issue 30);
    # ``None`` where nothing was sampled (the heuristic's ranking, a single legal action)
    margin_se: float | None = None

    @property
    def runner_up(self) -> Candidate | None:
        return self.candidates[1] if len(self.candidates) > 1 else None


# --------------------------------------------------------------------------- valuing positions


def final_vp(game: Any) -> list[int]:
    final = game.view(None)["final"]
    if "vp" in final:  # Vikings
        return list(final["vp"])
    return [p["vp"] for p in final["players"]]  # Brian Boru


def leaf(game_id: str, g: Any, seat: int) -> tuple[float, float, float, dict[str, float]]:
    """(value, margin, best rival's value, own parts) of a full game at a rollout's end.

    ``value`` is computed exactly as the search always did (its choices depend on it, to the last
    bit): own expected final VP minus the best rival's, plus :data:`WIN_BONUS` for a game won."""
    if g.is_over:

        vp = final_vp(g)
        win = WIN_BONUS if seat in g.winners() else 0.0
        rival = max(v for q, v in enumerate(vp) if q != seat)
        return vp[seat] - rival + win, float(vp[seat] - rival), float(rival), {"vp": float(vp[seat])}
    return _position(game_id, g.view(None), seat, g.homeland if game_id == "vikings" else None)


def static(game_id: str, view: Mapping[str, Any]) -> tuple[float, dict[str, float]]:
    """(margin, own parts) of the position a seat's view shows, without playing on."""
    _value, margin, _rival, parts = _position(game_id, view, view["seat"])
    return margin, parts


def _position(game_id: str, view: Mapping[str, Any], seat: int,
              homeland: Callable[[int], Any] | None = None) -> tuple[float, float, float, dict[str, float]]:
    """Every seat's value from public information only (any seat's view, or the full view);
    ``homeland(q)``: a Vikings game's own homelands (else rebuilt from the view)."""
    vals, parts = expected(game_id, view, seat, homeland)
    rival = max(v for q, v in enumerate(vals) if q != seat)
    return vals[seat] - rival, vals[seat] - rival, rival, parts


def expected(game_id: str, view: Mapping[str, Any], seat: int,
             homeland: Callable[[int], Any] | None = None) -> tuple[list[float], dict[str, float]]:
    """(every seat's expected final VP, the parts of ``seat``'s own) of a position, from public
    information only: the heuristic's valuation, which the ``hard`` level's leaves
    (:func:`engine.players.ismcts.values`) and the review's margins share."""
    if game_id == "vikings":
        from .vikings import Context, _home, home_value, purse_value

        vals, parts = [], {}
        for q in range(len(view["players"])):
            ctx = Context(view, q)
            p = view["players"][q]
            home = home_value(homeland(q) if homeland else _home(p), ctx)
            vals.append(purse_value(p["gold"], p["vp"], ctx) + home)
            if q == seat:
                parts = {"vp": float(p["vp"]), "gold": p["gold"] * ctx.gold_now, "homeland": home}
    else:
        from .brianboru import COIN, Board

        board = Board(view)
        vals = [board.projected(q) for q in range(board.n)]
        p = board.players[seat]
        regions = sum(board.region_value(r, seat) for r in range(len(board.counts)))
        parts = {"vp": float(p["vp"] + p["renown"]), "coins": p["coins"] * COIN,
                 "regions": regions + board.regions_score(len(board.regions_of[seat])),
                 "races": p["church"] * 0.5 + p["invaders"] * 0.4 + 0.6 * len(p["marriages"])}
    return vals, parts


# --------------------------------------------------------------------------- why


def part_name(part: str) -> Msg:
    """A part of a seat's value as words (the names of :func:`leaf`'s parts)."""
    names = {
        "vp": msg("the VP scored"),
        "gold": msg("gold"),
        "homeland": msg("your homeland"),
        "coins": msg("coins"),
        "regions": msg("your towns and regions"),
        "races": msg("the church, invader and marriage races"),
    }
    return names[part]


def why(best: Candidate, other: Candidate) -> Msg:
    """Where ``best``'s margin over ``other``'s comes from: the part of the seat's own value, or the
    best rival's value, that differs most in its favour."""
    gap = best.margin - other.margin
    if abs(gap) < EVEN:
        return msg("It and the runner-up are about even as the search plays them on.")
    gains = {k: best.parts.get(k, 0.0) - other.parts.get(k, 0.0) for k in best.parts.keys() | other.parts.keys()}
    rivals = other.rival - best.rival  # positive: the best rival ends lower after ``best``
    key = max(sorted(gains), key=lambda k: gains[k]) if gains else None
    if key is None or rivals > gains[key]:
        return msg("Mostly it holds the best rival back: about {amount} VP less for them than after the runner-up.",
                   amount=f"{rivals:.1f}")
    return msg("Mostly {part}: about {amount} VP more than after the runner-up.", part=part_name(key),
               amount=f"{gains[key]:.1f}")


def heuristic_why(gap: float) -> Msg:
    """A decision the search leaves to the heuristic (a short-term choice it values directly)."""
    if abs(gap) < EVEN:
        return msg("A short-term choice the search leaves to the heuristic, which rates it and the runner-up "
                   "about even.")
    return msg("A short-term choice the search leaves to the heuristic, which rates it about {amount} VP above "
               "the runner-up.", amount=f"{gap:.1f}")
