"""Ratings, leaderboards, profiles and history of finished games (issue 17).

Ratings are `openskill`'s Plackett-Luce model with its defaults (μ 25, σ 25/3); no rating maths is
written here. They are a fold of every *finished* match, in the order the matches ended, so each
game changes them exactly once, when it ends; abandoned matches never count. Three scopes are kept
apart per game: one server (``guild``), or every server (``scope="all"``).

Who is rated: the people seated when the game ended (a seat taken over counts for whoever finished
it). Computer players (user ids ``bot:LEVEL:N``) take part with a fixed rating per level
(:data:`COMPUTER_RATINGS`, a [decision] of issue 17) and are never updated.

Ranks given to openskill (lower is better, equal ranks are a tie): the game's winners share rank 1
(a shared win is a tie); every other seat is ranked after them by its final VP, equal VP sharing a
rank (decision, docs/decisions.md). Games with no VP in their view rank every non-winner equal.

Entry points for any transport (the offline table calls them through ``HostService.command``; the
Discord side can call the same)::

    records = Records(storage, registry)
    await records.leaderboard(game, guild=None) -> list[Standing]        # guild None = all servers
    await records.profile(user_or_name, guild=None) -> Profile | None
    await records.history(guild=None, limit=20) -> list[HistoryEntry]    # finished, newest first
    result_of(adapter_game_cls, record) -> MatchResult                 # plain function
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from bot.games import GameRegistry
from bot.host.common import computer_identity, computer_level
from bot.storage import MatchRecord, Storage
from engine.core import Game
from engine.players import ALIASES, LEVELS

COMPUTER_PREFIX = "bot:"  # the same as bot.host.service.COMPUTER_PREFIX (bot.host.seats makes such ids)

# [decision issue-17 D-ratings-1] the fixed openskill rating (mu, sigma) of a computer player per
# level, keyed by the canonical level (issue 30; an id stored with an old name, bot:heuristic:N or
# bot:search:N, reads its new level's rating): a small sigma since they never learn; never updated
# by a game. normal (the old heuristic) about a new person (25), hard (the old search) above.
# Issue 30 measured them: the 100-game ladders of both games at 0.25 s a decision
# (docs/samples/ladder-vikings.json, ladder-brian-boru.json; docs/performance-players.md), taken over
# by :func:`ratings_from_ladders` with normal anchored at 25. A test recomputes this table from them.
COMPUTER_RATINGS: dict[str, tuple[float, float]] = {
    "random": (-12.39, 5.12),
    "easy": (10.43, 3.95),
    "normal": (25.0, 3.62),
    "hard": (40.99, 3.84),
}
DEFAULT_COMPUTER_RATING = COMPUTER_RATINGS["normal"]  # a level this table does not know yet
LADDER_ANCHOR = "normal"  # the level whose rating stays put when the ladder's are taken over
MIN_COMPUTER_SIGMA = 1.0  # a computer's sigma is never below this: the ladder is a sample


def ratings_from_ladder(ladder: Mapping[str, Any], anchor: str = LADDER_ANCHOR,
                        current: Mapping[str, tuple[float, float]] = COMPUTER_RATINGS
                        ) -> dict[str, tuple[float, float]]:
    """:data:`COMPUTER_RATINGS` measured by a ladder (its JSON: ``{"levels": {level: {"mu", "sigma",
    …}}}``). The ladder rates computer players among themselves, so its scale is moved to keep
    ``anchor`` where it is (normal: about a new person); each sigma is the ladder's, at least
    :data:`MIN_COMPUTER_SIGMA`. Levels the ladder did not play keep their rating; the ladder's
    internal levels (montecarlo) are not offered to players and are left out."""
    levels = ladder.get("levels")
    if not isinstance(levels, Mapping) or anchor not in levels:
        raise ValueError(f"the ladder has no level {anchor!r} to anchor the ratings on")
    shift = current[anchor][0] - float(levels[anchor]["mu"])
    out = dict(current)
    for level, row in levels.items():
        name = ALIASES.get(level, level)
        if name in LEVELS:
            out[name] = (round(float(row["mu"]) + shift, 2), round(max(MIN_COMPUTER_SIGMA, float(row["sigma"])), 2))
    return out

def ratings_from_ladders(ladders: Sequence[Mapping[str, Any]], anchor: str = LADDER_ANCHOR,
                         current: Mapping[str, tuple[float, float]] = COMPUTER_RATINGS
                         ) -> dict[str, tuple[float, float]]:
    """One table from the ladders of several games (a level's rating serves every game): each ladder
    taken over as :func:`ratings_from_ladder` does, then a level's mu is the mean over the ladders
    that played it and its sigma the largest (the games disagree by that much at least)."""
    if not ladders:
        raise ValueError("no ladder to take the ratings from")
    tables = [ratings_from_ladder(ladder, anchor, current) for ladder in ladders]
    out = dict(current)
    for level in out:
        played = [t[level] for t, ladder in zip(tables, ladders, strict=True)
                  if level in ladder["levels"] or any(ALIASES.get(x) == level for x in ladder["levels"])]
        if played:
            out[level] = (round(sum(mu for mu, _ in played) / len(played), 2), max(sg for _, sg in played))
    return out


ALL = "all"  # the scope of every server

MODEL = PlackettLuce()  # openskill's defaults


def is_computer(user: str) -> bool:
    return user.startswith(COMPUTER_PREFIX)


def computer_rating(user: str) -> tuple[float, float]:
    """The fixed rating of a computer player's user id (an old level name reads its new level's)."""
    level = computer_level(user)
    return COMPUTER_RATINGS.get(level or "", DEFAULT_COMPUTER_RATING)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How one finished match ended: per seat its rank (1 = won), final VP (None if the game has
    none) and whether it won."""

    ranks: list[int]
    vps: list[int | None]
    winners: list[int]


def final_vps(game: Any) -> list[int | None]:
    """Every seat's final VP as the game's public view gives it (Brian Boru: the B-33 totals)."""
    view = game.view(None)
    final = view.get("final") if isinstance(view, dict) else None
    players = final.get("players") if isinstance(final, dict) else None
    if not isinstance(players, list) and isinstance(view, dict):
        players = view.get("players")
    n = len(game.names)
    if not isinstance(players, list) or len(players) != n:
        return [None] * n
    return [int(p["vp"]) if isinstance(p, dict) and isinstance(p.get("vp"), int) else None for p in players]


def ranks_of(winners: Sequence[int], vps: Sequence[int | None]) -> list[int]:
    """Openskill ranks: winners 1 (shared wins tie), the rest after them by VP (equal VP tie)."""
    n = len(vps)
    won = set(winners)
    ranks = []
    for s in range(n):
        if s in won:
            ranks.append(1)
            continue
        mine = vps[s]
        better = sum(1 for o in range(n) if o not in won and o != s and mine is not None
                     and (theirs := vps[o]) is not None and theirs > mine)
        ranks.append(1 + len(won) + better)
    return ranks


def result_of(game_cls: type[Game], record: MatchRecord) -> MatchResult:
    """The result of a finished match, read from its stored final snapshot."""
    if record.snapshot is None:
        raise ValueError(f"match {record.id} has no snapshot")
    game = game_cls.from_json(record.snapshot)
    winners = list(game.winners())
    vps = final_vps(game)
    return MatchResult(ranks=ranks_of(winners, vps), vps=vps, winners=winners)


@dataclass(slots=True)
class Standing:
    """One person's rating in one game and scope."""

    user: str
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    rank: int = 0  # place on the leaderboard, 1 first

    @property
    def ordinal(self) -> float:
        """The conservative rating shown first (μ − 3σ), openskill's ``ordinal``."""
        return MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal()


def rate(matches: Iterable[tuple[MatchRecord, MatchResult]]) -> dict[str, Standing]:
    """Fold ``matches`` (in the order they ended) into every person's standing."""
    table: dict[str, Standing] = {}
    for record, result in matches:
        teams, people = [], []
        for seat, s in enumerate(record.seats):
            if is_computer(s.user):
                mu, sigma = computer_rating(s.user)
            else:
                st = table.get(s.user)
                if st is None:
                    fresh = MODEL.rating()
                    st = table[s.user] = Standing(s.user, s.name, fresh.mu, fresh.sigma)
                st.name = s.name
                mu, sigma = st.mu, st.sigma
                people.append(seat)
            teams.append([MODEL.rating(mu=mu, sigma=sigma)])
        if not people:
            continue
        new = MODEL.rate(teams, ranks=[float(r) for r in result.ranks])
        for seat in people:
            st = table[record.seats[seat].user]
            st.mu, st.sigma = new[seat][0].mu, new[seat][0].sigma
            st.games += 1
            st.wins += seat in result.winners
    return table


def ranked(standings: Iterable[Standing]) -> list[Standing]:
    """Best first: ordinal, then more games, then name; ranks 1… (equal ordinals share a rank)."""
    out = sorted(standings, key=lambda s: (-round(s.ordinal, 9), -s.games, s.name.casefold(), s.user))
    for i, s in enumerate(out):
        s.rank = out[i - 1].rank if i and round(out[i - 1].ordinal, 9) == round(s.ordinal, 9) else i + 1
    return out


@dataclass(slots=True)
class RecentGame:
    match_id: int
    game: str
    ended: float
    seat: int
    won: bool
    vp: int | None
    place: int
    players: int
    link: str | None


@dataclass(slots=True)
class GameRecord:
    """A person's record in one game: counts, VP, and ratings on this server and on all."""

    game: str
    games: int = 0
    wins: int = 0
    best_vp: int | None = None
    vp_total: int = 0
    vp_games: int = 0
    rating: Standing | None = None       # the scope asked for (this server, or all)
    rating_all: Standing | None = None   # every server

    @property
    def average_vp(self) -> float | None:
        return self.vp_total / self.vp_games if self.vp_games else None


@dataclass(slots=True)
class Profile:
    user: str
    name: str
    computer: bool = False  # a computer player's games: shown, never rated (D-ratings-1)
    games: dict[str, GameRecord] = field(default_factory=dict)
    recent: list[RecentGame] = field(default_factory=list)


@dataclass(slots=True)
class HistoryEntry:
    record: MatchRecord
    result: MatchResult

    @property
    def winners(self) -> list[str]:
        return [self.record.seats[s].name for s in self.result.winners]


class Records:
    """Ratings, leaderboards, profiles and history over one storage (read-only)."""

    RECENT = 5  # most recent games a profile lists

    def __init__(self, storage: Storage, games: GameRegistry) -> None:
        self.storage = storage
        self.games = games
        # match id → its result: a finished match never changes, so each final snapshot is read
        # and parsed once per process (bench/ratings.py)
        self._results_cache: dict[int, MatchResult] = {}

    async def _results(self, *, game: str | None = None, guild: str | None = None
                       ) -> list[tuple[MatchRecord, MatchResult]]:
        out = []
        for record in await self.storage.finished_matches(game=game, guild=guild, snapshots=False):
            adapter = self.games.get(record.game)
            if adapter is None:
                continue  # a game this host no longer offers cannot be read
            result = self._results_cache.get(record.id)
            if result is None:
                full = await self.storage.get_match(record.id)
                if full is None or full.snapshot is None:
                    continue
                result = self._results_cache[record.id] = result_of(adapter.game_cls, full)
            out.append((record, result))
        return out

    async def leaderboard(self, game: str, guild: str | None = None) -> list[Standing]:
        """Every rated person of ``game`` on one server (``guild``) or all (``None``), best first."""
        return ranked(rate(await self._results(game=game, guild=guild)).values())

    async def find_user(self, who: str, *, computers: bool = False) -> tuple[str, str] | None:
        """``(user, name)`` of a person who finished a game, by user id or (case-blind) seat name;
        with ``computers``, of a computer player instead, whose name may also be given without its
        level ("Ragnar" for "Ragnar (computer, heuristic)")."""
        found = None
        wanted = who.strip().casefold()
        for record in await self.storage.finished_matches(snapshots=False):
            for s in record.seats:
                if is_computer(s.user) != computers:
                    continue
                if s.user == who or (computers and computer_identity(s.user) == computer_identity(who)):
                    return s.user, s.name
                names = {s.name.casefold()}
                if computers:
                    names.add(s.name.split(" (", 1)[0].casefold())
                if found is None and wanted in names:
                    found = (s.user, s.name)
        return found

    async def profile(self, who: str, guild: str | None = None) -> Profile | None:
        """The profile of a person (user id or name) over ``guild``'s games (``None``: all servers);
        failing a person, of a computer player of that name (its games, no rating)."""
        found = await self.find_user(who)
        computer = found is None
        if found is None:
            found = await self.find_user(who, computers=True)
        if found is None:
            return None
        user, name = found
        everywhere = await self._results()
        scoped = [(r, x) for r, x in everywhere if guild is None or r.guild == guild]
        if computer:  # issue 30: its games under an old level name (bot:heuristic:0) are the same player's
            user = computer_identity(user)
        profile = Profile(user, name, computer=computer)
        for record, result in scoped:
            seat = record.seat_of(user) if not computer else next(
                (i for i, s in enumerate(record.seats) if computer_identity(s.user) == user), None)
            if seat is None:
                continue
            profile.name = record.seats[seat].name
            rec = profile.games.setdefault(record.game, GameRecord(record.game))
            rec.games += 1
            rec.wins += seat in result.winners
            vp = result.vps[seat]
            if vp is not None:
                rec.vp_total += vp
                rec.vp_games += 1
                rec.best_vp = vp if rec.best_vp is None else max(rec.best_vp, vp)
            profile.recent.append(RecentGame(record.id, record.game, record.updated, seat,
                                             seat in result.winners, vp, result.ranks[seat],
                                             len(record.seats), record.link))
        for game, rec in profile.games.items():
            if computer:
                break  # computer players are not rated (D-ratings-1)
            rec.rating = rate((r, x) for r, x in scoped if r.game == game).get(user)
            rec.rating_all = rate((r, x) for r, x in everywhere if r.game == game).get(user)
        profile.recent = sorted(profile.recent, key=lambda g: (g.ended, g.match_id), reverse=True)[:self.RECENT]
        return profile

    async def history(self, guild: str | None = None, limit: int = 20) -> list[HistoryEntry]:
        """The finished games of one server (``None``: all), newest first."""
        results = await self._results(guild=guild)
        return [HistoryEntry(r, x) for r, x in reversed(results)][:limit]
