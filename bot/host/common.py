"""Small things the host's modules share: computer seats, votes, bounds, command words, text."""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n.text import QUOTE_LIMIT, quote
from bot.storage import Seat
from engine.players import canonical_level

COMPUTER_PREFIX = "bot:"  # user ids of computer players (bot.host.seats); they never vote or keep a lobby


def is_computer(user: str) -> bool:
    return user.startswith(COMPUTER_PREFIX)


def computer_level(user: str) -> str | None:
    """The level of a computer player's user id ``bot:LEVEL:N`` as a canonical name, or ``None`` for
    a person (or a level this host does not know). Issue 30: an id stored with an old name
    (``bot:heuristic:0``, ``bot:search:101``) gives its new one (normal, hard), so a table stored
    before the renaming plays on."""
    if not is_computer(user):
        return None
    parts = user.split(":")
    if len(parts) != 3:
        return None
    try:
        return canonical_level(parts[1])
    except ValueError:
        return None


def computer_identity(user: str) -> str:
    """Who a user id stands for: a computer player's id with its level canonical (``bot:heuristic:0``
    and ``bot:normal:0`` are the same Ragnar, before and after issue 30's renaming); any other id as is."""
    level = computer_level(user)
    return user if level is None else f"{COMPUTER_PREFIX}{level}:{user.split(':')[2]}"


def votes_needed(seats: Iterable[Seat]) -> int:
    """A majority of the people at the table (computer players do not vote)."""
    people = sum(1 for s in seats if not is_computer(s.user))
    return max(1, people) // 2 + 1


MAX_FORCED_MOVES = 100  # forced moves made in a row after one change (a bound, not a rule)

MAX_NAME = 32  # characters of a player's name (Discord allows 32 for a display name)

HOST_COMMANDS = ("join", "leave", "start", "abandon", "status", "board", "rules", "export", "undo", "replace",
                 "hint", "help")
RECORD_COMMANDS = ("leaderboard", "profile", "history", "recap", "replay")  # issues 17, 25: what the table remembers
SCOPES = ("server", "all")  # /leaderboard scope: this server's games, or every server's


def names_text(names: Iterable[str]) -> str:
    return ", ".join(names)


def shortened(reason: str, text: str) -> str:
    """An engine's reason, which may quote the input again, with every long word of the input
    in it shortened, and at most 3 × ``QUOTE_LIMIT`` characters."""
    for word in sorted(set(text.split()), key=len, reverse=True):
        if len(word) > 30:
            reason = reason.replace(word, quote(word, 30))
    return quote(reason, 3 * QUOTE_LIMIT)
