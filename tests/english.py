"""An English detector for the "no English anywhere" playthroughs (issue 16).

:func:`english_words` returns the common English words left in a text once what may
legitimately stay English is removed: player names, slash commands and the actions typed after
them (``/buy``, ``sail done``, ``place S4 N1``), cells and notation codes (``W3``, ``^2``), rule
numbers (``V-14``, ``B-22``, ``[D-6]``), code spans, mentions, URLs and numbers. The word list
holds English function words and the games' words (the, you, your, and, of, is, turn, round,
player, buy, place, ships, gold, cards, wins …) but none that are also ordinary Polish words
(``to``, ``a``, ``i``, ``do``, ``no``, ``on``, ``we``, ``me``, ``go``, ``one``, ``list``, ``most``,
``start``, ``status``, ``ok``): a Polish sentence must not fire it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

ENGLISH = frozenset("""
the you your yours and of is are was were be been being has have had having with without for from
this that these those it its they them their there here what which who whom whose when where why how
not cannot can't don't doesn't isn't aren't won't can could must will would shall should may might
an at into onto or if then than but so just also again still yet none only every each all any some
more less many much next last first second third other another both either neither
he she his her him our us my mine
please sorry something nothing anything everything went wrong changed happened
turn turns round rounds player players game games over wins win won winner winners standings
buy buys bought place places placed ships ship gold cards card tile tiles viking wheel
fisher fishers goldsmith goldsmiths scout scouts noble nobles warrior warriors boatman boatmen
sailor sailors island islands threatened homeland
score scores scoring small major final points point
choose chooses chose chosen pick picks click press type typed move moves moved
board table hand hands rules help join joined joins leave left begins began ends ended
town towns church monastery claim claims trick tricks lead leads marriage renown
ready done wait waiting waits already privately private public
sees see shows shown show make makes made takes take took gives give gave get gets got
pass passes passed sail sails exchange exchanges bid bids keep keeps play plays played
abandon abandoned abandons votes vote undo agree agrees asked asks replace
free cost costs price paid pays pay
""".split())

# Player names, and the words of commands and actions, are removed before looking
_URL = re.compile(r"https?://\S+")
_PATH = re.compile(r"\S*/\S+\.\w+|\b[\w.-]+\.(?:png|txt|json|db)\b")  # files the offline table writes
_CODE = re.compile(r"`[^`]*`")
_MENTION = re.compile(r"<[@#&!:][^>]*>")
_RULE = re.compile(r"\[?\b[VBD]-\d+\]?")
_CELL = re.compile(r"(?<![\w^])[\^]?[A-Za-z]{1,2}\d+\b|\^\w+")
_NUMBER = re.compile(r"\d+")
_QUOTED = re.compile(r"„[^”]*”|“[^”]*”|«[^»]*»|'[^'\n]*'")  # someone's input, quoted back
_PROGRAM = re.compile(r"\bmeadhall\s+[a-z]+")  # the program and its subcommand (``meadhall play``)
# the command words: a list of them (``join, leave, start``) names commands, it is no sentence
COMMAND_WORDS = ("join", "leave", "start", "abandon", "status", "board", "rules", "export", "undo", "replace",
                 "help", "hand", "records", "table", "buy", "place", "start-tile", "sail", "exchange", "bid",
                 "pass", "remove", "lay", "special", "swap", "move", "town", "keep", "active", "lead", "play",
                 "option", "extra", "expand", "free", "princess", "raid", "monastery",
                 "hint", "replay", "recap", "rematch", "settings", "profile")  # issue 25's commands
_WORDS = "|".join(re.escape(w) for w in sorted(COMMAND_WORDS, key=len, reverse=True))
_COMMAND_LIST = re.compile(r"(?<![\w-])(?:" + _WORDS + r")(?:\s*,\s*(?:" + _WORDS + r"))+(?![\w-])")
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")

# The verbs the adapters' actions and the slash commands start with: ``sail done``, ``buy 3`` …
ACTION_VERBS = ("buy", "place", "sail", "exchange", "bid", "pass", "move", "lay", "swap", "remove",
                "special", "keep", "lead", "play", "trip", "start-tile", "confirm", "claim", "marry",
                "done")
_ACTION = re.compile(
    r"\b(?:" + "|".join(re.escape(v) for v in ACTION_VERBS) + r")(?:\s+(?:done|none|[\^\w-]*\d[\w-]*|[A-Z][a-z]?"
    r"|[A-ZĄĆĘŁŃÓŚŹŻÄÖÜÉÍÚÝČŘŠŽ]{2,}))+\b"  # an argument: a number, a cell, a code, a placeholder (CELL)
)
_COMMAND = re.compile(r"(?<![\w/])/[a-z][a-z-]*(?:\s+[a-z0-9^-]+\b)?(?:\s+(?:" + "|".join(
    # the subcommands of the command groups (``/table undo``, ``/records show``)
    ("undo", "replace", "abandon", "export", "status", "show", "stats", "leaderboard", "history",
     "done", "kick", "replay", "recap", "settings", "profile")) + r"))?")


def strip_allowed(text: str, names: Iterable[str] = ()) -> str:
    """``text`` without what may stay English (see the module's doc)."""
    for pattern in (_URL, _PATH, _QUOTED, _PROGRAM, _COMMAND_LIST, _CODE, _MENTION, _RULE, _COMMAND, _ACTION):
        text = pattern.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):
        if name:
            text = re.sub(r"(?<!\w)" + re.escape(name) + r"(?!\w)", " ", text, flags=re.IGNORECASE)
    text = _CELL.sub(" ", text)
    return _NUMBER.sub(" ", text)


def english_words(text: str, names: Iterable[str] = ()) -> list[str]:
    """The English words of ``text`` (lower case, in order), what may stay English removed."""
    return [w.lower() for w in _WORD.findall(strip_allowed(text, names)) if w.lower() in ENGLISH]


def assert_no_english(texts: Iterable[str], names: Iterable[str] = (), where: str = "") -> int:
    """Fail with every English line among ``texts``; the number of texts checked."""
    names = list(names)
    bad: list[str] = []
    n = 0
    for text in texts:
        n += 1
        for line in (text or "").splitlines():
            words = english_words(line, names)
            if words:
                bad.append(f"{sorted(set(words))}: {line!r}")
    assert not bad, f"English in {where or 'what players see'}:\n" + "\n".join(dict.fromkeys(bad))
    return n
