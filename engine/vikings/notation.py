"""The Vikings table notation (``../shared/rules/vikings-notation.md``): parse and print.

``print_table(parse_table(text))`` is canonical (the island rows lined up in columns, as in the
notation's example 1): printing what was parsed and parsing it again
gives the same text. Names cannot hold whitespace or ``#`` (a comment) in the notation; each
such character prints as ``_``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.core import NotationError, quote, whole_number

from .data import (
    BUILDING_TILES,
    ISLAND_ROWS,
    KINDS,
    ROW_LETTERS,
    SHIP_ROW,
    SHIP_TILES,
    SPECIAL_TILES,
    left_edge,
    right_edge,
)
from .homeland import EMPTY, Homeland


class Seated(Protocol):
    """What :func:`table_from_game` reads of a game (``VikingsGame`` has it): the notation does not
    import the game module, which imports it (issue 30 item 7: no import circle in ``engine/``)."""

    @property
    def names(self) -> Sequence[str]: ...
    @property
    def gold(self) -> Sequence[int]: ...
    @property
    def vp(self) -> Sequence[int]: ...
    @property
    def start_player(self) -> int | None: ...
    @property
    def homelands(self) -> Sequence[Homeland]: ...

ISLAND_TOKENS = {"L", "R", "Ma", "Mb", "Mc", "Md", *BUILDING_TILES}
ROW_KEYS = {"ships": 0, "W": 1, "N": 2, "S": 3, "G": 4, "F": 5}
ROW_LABEL = {v: k for k, v in ROW_KEYS.items()}
_PLAYER = re.compile(r"^player:\s*(\S+)(.*)$")
_NOT_IN_NAME = re.compile(r"[\s#]")  # whitespace ends a name, '#' starts a comment


def name_token(name: str) -> str:
    """A player's name as the notation writes it, so that it parses back unchanged (round trip)."""
    return _NOT_IN_NAME.sub("_", name) or "_"


@dataclass
class PlayerBlock:
    name: str
    gold: int = 0
    vp: int = 0
    start: bool = False
    homeland: Homeland = field(default_factory=Homeland)


@dataclass
class Table:
    players: list[PlayerBlock]

    def find(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name == name or p.name == name_token(name):
                return i
        raise KeyError(name)

    @property
    def start_index(self) -> int:
        for i, p in enumerate(self.players):
            if p.start:
                return i
        return 0


def _tokens(line: str) -> list[tuple[int, str]]:
    """Whitespace-separated tokens with their 1-based column."""
    return [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", line)]


def parse_table(text: str) -> Table:
    players: list[PlayerBlock] = []
    cur: PlayerBlock | None = None
    seen: set[str] = set()
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if stripped == "---":
            if cur is None:
                raise NotationError(lineno, indent + 1, "'---' before any player block")
            cur = None
            continue
        m = _PLAYER.match(stripped)
        if m:
            if cur is not None:
                raise NotationError(lineno, indent + 1, "a new 'player:' needs a '---' line before it")
            cur = PlayerBlock(name=m.group(1))
            players.append(cur)
            seen = set()
            offset = indent + m.end(1)
            for col, tok in _tokens(m.group(2)):
                col += offset
                if tok == "start":
                    cur.start = True
                elif tok.startswith("gold=") and (gold := whole_number(tok[5:])) is not None:
                    cur.gold = gold
                elif tok.startswith("vp=") and (vp := whole_number(tok[3:])) is not None:
                    cur.vp = vp
                else:
                    raise NotationError(lineno, col, f"unknown token {quote(tok)} (gold=N, vp=N or start)")
            continue
        if cur is None:
            raise NotationError(lineno, indent + 1, "a table starts with 'player: NAME gold=N vp=N'")
        key, sep, rest = stripped.partition(":")
        if not sep:
            raise NotationError(lineno, indent + 1, f"expected 'KEY: …', got {quote(stripped)}")
        key = key.strip()
        if key in seen:
            raise NotationError(lineno, indent + 1, f"'{key}:' appears twice in this block")
        seen.add(key)
        offset = indent + len(key) + 1  # column of the ':'
        toks = [(c + offset, t) for c, t in _tokens(rest)]
        h = cur.homeland
        if key in ROW_KEYS:
            row = ROW_KEYS[key]
            cells = []
            for col, tok in toks:
                cells.append(_cell_token(lineno, col, tok, row))
            while cells and cells[-1] == EMPTY:
                cells.pop()
            h.rows[row] = cells
            if row != SHIP_ROW:
                _check_edges(lineno, toks, cells)
        elif key == "base":
            for col, tok in toks:
                kind, num = tok[:1], whole_number(tok[1:])
                if kind not in KINDS or num is None:
                    raise NotationError(lineno, col, f"unknown token {quote(tok)} (a kind F G S N W B and a count)")
                h.base[kind] += num
        elif key == "specials":
            for col, tok in toks:
                if tok not in SPECIAL_TILES:
                    raise NotationError(lineno, col, f"unknown special tile {quote(tok)}")
                h.specials.append(tok)
        else:
            raise NotationError(lineno, indent + 1, f"unknown line {quote(key)}")
    if not players:
        raise NotationError(1, 1, "no 'player:' block")
    return Table(players)


def _cell_token(lineno: int, col: int, tok: str, row: int) -> str:
    if tok == EMPTY:
        return EMPTY
    if tok.endswith("*") and tok[:-1] == EMPTY:
        raise NotationError(lineno, col, "a '*' (viking) on an empty cell")
    if row == SHIP_ROW:
        if tok in SHIP_TILES:
            return tok
        if tok.rstrip("*") in ISLAND_TOKENS:
            raise NotationError(lineno, col, f"island tile {quote(tok)} in the ships row")
        raise NotationError(lineno, col, f"unknown token {quote(tok)}")
    base = tok[:-1] if tok.endswith("*") else tok
    if base in SHIP_TILES:
        raise NotationError(lineno, col, f"ship {quote(tok)} outside the ships row")
    if base not in ISLAND_TOKENS:
        raise NotationError(lineno, col, f"unknown token {quote(tok)}")
    return tok


def _check_edges(lineno: int, toks: list[tuple[int, str]], cells: list[str]) -> None:
    """V-22: touching edges both sea or both land; the base's edge (left of column 1) is sea."""
    prev: str | None = "base"
    for i, tile in enumerate(cells):
        col = toks[i][0]
        if tile == EMPTY:
            prev = None
            continue
        left_needed = "sea" if prev == "base" else (right_edge(prev) if prev else None)
        if prev and left_needed is not None and left_edge(tile) != left_needed:  # (a need implies a prev)
            what = "the base" if prev == "base" else repr(prev.rstrip("*"))
            raise NotationError(
                lineno, col, f"edges do not match: {tile.rstrip('*')!r} cannot stand right of {what} (V-22)"
            )
        prev = tile


def print_table(table: Table) -> str:
    blocks = []
    for p in table.players:
        h = p.homeland
        lines = [f"player: {name_token(p.name)} gold={p.gold} vp={p.vp}" + (" start" if p.start else "")]
        if h.rows[SHIP_ROW]:
            lines.append(f"{ROW_LABEL[SHIP_ROW]}: " + " ".join(h.rows[SHIP_ROW]))
        # the island rows line up in columns, as in the notation's example 1 (``W: L  Ma* R*`` above
        # ``S: L* Mb* R*``), so that the example prints back unchanged; no trailing spaces
        width: dict[int, int] = {}
        for row in ISLAND_ROWS:
            for i, tok in enumerate(h.rows[row]):
                width[i] = max(width.get(i, 0), len(tok))
        for row in ISLAND_ROWS:
            cells = h.rows[row]
            if cells:
                padded = [tok.ljust(width[i]) for i, tok in enumerate(cells[:-1])] + [cells[-1]]
                lines.append(f"{ROW_LABEL[row]}: " + " ".join(padded))
        base = " ".join(f"{k}{h.base[k]}" for k in KINDS if h.base.get(k, 0))
        if base:
            lines.append(f"base: {base}")
        if h.specials:
            lines.append("specials: " + " ".join(h.specials))
        blocks.append("\n".join(lines))
    return "\n---\n".join(blocks) + "\n"


def table_from_game(game: Seated) -> str:
    players = [
        PlayerBlock(name, game.gold[s], game.vp[s], s == game.start_player, game.homelands[s])
        for s, name in enumerate(game.names)
    ]
    return print_table(Table(players))


__all__ = ["parse_table", "print_table", "table_from_game", "Table", "PlayerBlock", "ROW_LETTERS"]
