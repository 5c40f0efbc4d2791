"""Loads ``data.json``: components, every [D-n] value and the named options (one place)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from engine.core import Msg, msg, whole_number


def _strip_comments(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _strip_comments(v) for k, v in x.items() if not k.startswith("_")}
    return x


def _load() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data.json").read_text(encoding="utf-8")
    return _strip_comments(json.loads(text))


DATA: dict[str, Any] = _load()

KINDS: tuple[str, ...] = tuple(DATA["kinds"]["order"])  # V-11 order F G S N W B
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
KIND_NAME: dict[str, str] = DATA["kinds"]["names"]
KIND_PLURAL: dict[str, str] = DATA["kinds"]["plural"]
PER_KIND: int = DATA["kinds"]["per_kind"]
KIND_WORD: dict[str, Msg] = {  # the kind names of data.json as words the host translates (issue 16)
    "F": msg("fisher"), "G": msg("goldsmith"), "S": msg("scout"),
    "N": msg("noble"), "W": msg("warrior"), "B": msg("sailor"),
}
KIND_WORDS: dict[str, Msg] = {
    "F": msg("fishers"), "G": msg("goldsmiths"), "S": msg("scouts"),
    "N": msg("nobles"), "W": msg("warriors"), "B": msg("sailors"),
}

ROW_LETTERS: tuple[str, ...] = tuple(DATA["rows"]["order"])  # ^ W N S G F
ROW_INDEX = {r: i for i, r in enumerate(ROW_LETTERS)}
SHIP_ROW = 0
ISLAND_ROWS = range(1, len(ROW_LETTERS))
ROW_KIND = {i: ROW_LETTERS[i] for i in ISLAND_ROWS}  # island row index -> viking kind
KIND_ROW = {k: i for i, k in ROW_KIND.items()}  # viking kind -> island row index (sailors: none)
SAILOR = "B"

SHIPS: dict[str, dict[str, Any]] = DATA["ships"]  # sail letter -> colour, depth, reward …
COLOUR_WORD: dict[str, Msg] = {  # ship colours of data.json as words the host translates (issue 16)
    "red": msg("red"), "green": msg("green"), "yellow": msg("yellow"), "blue": msg("blue"),
}
SHIP_DEPTH = {s: ROW_INDEX[v["depth"]] for s, v in SHIPS.items()}  # V-31: deepest threatened row
SHIP_TILES = tuple("^" + s for s in SHIPS)
ISLAND_COUNTS: dict[str, int] = DATA["tiles"]["islands"]
BUILDINGS: dict[str, str] = DATA["tiles"]["buildings"]
MIDDLE_TILES = tuple("M" + b for b in BUILDINGS)
BUILDING_TILES = tuple("X" + b for b in BUILDINGS)
ISLAND_TILES = ("L", "R", *MIDDLE_TILES, *BUILDING_TILES)
START_TILE: str = DATA["tiles"]["start_tile"]
START_TILES: int = DATA["tiles"]["start_tiles"]

SETUP = DATA["setup"]
ROUNDS: int = SETUP["rounds"]
SCORING = DATA["scoring"]
SCORING_AFTER: list[str] = SCORING["after_round"]
OPTION_DEFAULTS: dict[str, bool] = DATA["options"]["defaults"]
ADVANCED: list[str] = DATA["options"]["advanced"]
AUCTION = DATA["auction"]
SAILING = DATA["sailing"]
SPECIALS = DATA["specials"]
SPECIAL_TILES: dict[str, dict[str, Any]] = SPECIALS["tiles"]
SPECIAL_WORD: dict[str, Msg] = {  # V-45..V-49: the special tiles' display names (the ids stay in notation; issue 16)
    "gold5": msg("5 gold at once"),
    "goldsmith1": msg("+1 gold per goldsmith"),
    "goldsmith2": msg("+2 gold per goldsmith"),
    "boat": msg("a boat"),
    "noble1": msg("+1 VP per noble"),
    "scout1": msg("+1 VP per scout"),
    "fisher1": msg("+1 VP per fisher"),
    "sailor": msg("a sailor for the final majority"),
    "feast": msg("a feast (3 VP per surplus food)"),
    "treasury": msg("a treasury (1 VP per 3 gold)"),
    "Xa": msg("the longhouse building tile"),
    "Xb": msg("the smithy building tile"),
    "Xc": msg("the temple building tile"),
    "Xd": msg("the market building tile"),
}
# V-45: the word a player types for a special tile (its name where the code is no word: the
# building tiles by their building, a tile of one kind by that kind); the codes are read too
SPECIAL_TYPED: dict[str, str] = {
    "gold5": "gold", "goldsmith1": "goldsmith1", "goldsmith2": "goldsmith2", "boat": "boat", "noble1": "noble",
    "scout1": "scout", "fisher1": "fisher", "sailor": "sailor", "feast": "feast", "treasury": "treasury",
    "Xa": "longhouse", "Xb": "smithy", "Xc": "temple", "Xd": "market",
}

TOTAL_VIKINGS = PER_KIND * len(KINDS)  # V-1: 78
TOTAL_TILES = sum(ISLAND_COUNTS.values()) + START_TILES + sum(v["count"] for v in SHIPS.values())  # V-2: 76


def cell_name(row: int, col: int) -> str:
    """``(1, 3)`` -> ``"W3"``; columns are 1-based as in the rules."""
    return f"{ROW_LETTERS[row]}{col}"


def parse_cell(text: str) -> tuple[int, int] | None:
    """``"W3"`` -> ``(1, 3)``; ``None`` if the text is not a cell name."""
    if len(text) < 2:
        return None
    row = ROW_INDEX.get(text[0].upper() if text[0] != "^" else "^")
    num = text[1:]
    col = whole_number(num)  # ASCII digits only: "N²" or "N١" is no cell, not a crash
    if row is None or col is None or num.startswith("0"):
        return None
    return row, col


def left_edge(tile: str) -> str:
    """V-22: ``L`` has sea on its left, everything else land."""
    return "sea" if tile[0] == "L" else "land"


def right_edge(tile: str) -> str:
    """V-22: ``R`` has sea on its right, everything else land."""
    return "sea" if tile[0] == "R" else "land"


def _validate() -> None:
    assert TOTAL_VIKINGS == 78, TOTAL_VIKINGS
    assert TOTAL_TILES == 76, TOTAL_TILES
    assert sum(v["count"] for v in SPECIAL_TILES.values()) == 25
    assert SETUP["stack_size"] * ROUNDS == TOTAL_TILES - START_TILES
    assert len(SCORING_AFTER) == ROUNDS


_validate()
