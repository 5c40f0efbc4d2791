"""What the host answers: :class:`Reply` (with :class:`Prompt` and :class:`Attachment`),
:class:`Reminder`, and the open :class:`Table` it keeps in memory."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.games import GameAdapter
from bot.host.ratings import Standing
from bot.storage import MatchRecord
from engine.core import Event, Game


@dataclass(frozen=True, slots=True)
class Prompt:
    """``user`` (at ``seat``, shown as ``name``) must decide: ``text`` (e.g. "buy a combo")."""

    user: str
    seat: int
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Attachment:
    data: bytes
    filename: str


@dataclass(frozen=True, slots=True)
class ReplayPosition:
    """Where a replay stands (issue 25, :mod:`bot.host.replays`): position ``step`` of ``steps`` (0: the
    set-up, k: after the k-th move in force), in ``round`` (0: before the first), and each round's first
    position as ``(round, step)`` pairs, for a transport's buttons and its jump to a round."""

    step: int
    steps: int
    round: int
    rounds: tuple[tuple[int, int], ...] = ()


@dataclass(slots=True)
class Reply:
    ok: bool = True
    code: str = "ok"
    public: list[str] = field(default_factory=list)
    private: list[str] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)
    image: Attachment | None = None
    file: Attachment | None = None
    events: list[Event] = field(default_factory=list)
    match_id: int | None = None
    game: str | None = None
    status: str | None = None
    version: int | None = None
    # the players' names this reply may show (chosen by people: a transport that renders
    # markup, like Discord, escapes them in every line; the offline table prints them plain)
    names: list[str] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)  # /leaderboard rows (issue 17)
    position: ReplayPosition | None = None  # a replay's position (issue 25)

    def lines(self, mention: Callable[[Prompt], str] = lambda p: f"@{p.name}") -> list[str]:
        """Public lines then one ``"<mention>: <prompt>"`` line per prompt (the offline table)."""
        return self.public + [f"{mention(p)}: {p.text}" for p in self.prompts]


@dataclass(frozen=True, slots=True)
class Reminder:
    """Send to ``channel``: mention ``user`` with ``text`` (already translated, no mention)."""

    channel: str
    match_id: int
    user: str
    seat: int
    name: str
    text: str
    count: int
    names: tuple[str, ...] = ()  # the table's player names (``text`` may show them; see Reply.names)
    # moves made after a deadline (count 0): the last move's reply, whose prompts say who acts next
    # (issue 24: a transport publishes it like a computer player's move, so the next person is told)
    reply: Reply | None = None


@dataclass(slots=True)
class Table:
    """An open table: its stored record, its adapter and (once started) the live game.

    Read-only for callers (e.g. autocomplete reads ``game.legal_actions(seat)``).
    """

    record: MatchRecord
    adapter: GameAdapter[Any]
    game: Game | None = None
    last_action: tuple[int, int, str] | None = None  # (version, seat, text) of the last commit
    # a lobby opened by /join without a game, where the host offers several: the record holds the
    # default game, but no game is named until /start chooses one (kept in memory only: a lobby
    # read back from storage names its stored game)
    game_open: bool = False
