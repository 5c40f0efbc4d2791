"""A plain-text notation for a Brian Boru position (see ``docs/brian-boru-notation.md``).

``parse_position(text)`` reads it (raising :class:`engine.core.NotationError` with line and column);
``format_position(pos)`` writes the canonical form, which parses back to the same position.
"""

from __future__ import annotations

import re

from engine.brianboru.data import DATA, BrianBoruData
from engine.brianboru.scoring import PlayerPosition, Position
from engine.core import NotationError, whole_number

INT_KEYS = ("coins", "vp", "renown", "invaders", "church", "track", "marriages")
PRINCESS = ("support", "trade")
_NAME_OK = re.compile(r"[^\s\"#=]+")


def _name_text(name: str) -> str:
    return name if _NAME_OK.fullmatch(name) and name not in ("marker",) else f'"{name}"'


def format_position(pos: Position, data: BrianBoruData = DATA) -> str:
    out: list[str] = []
    if pos.claims_on_board:
        out.append("claims-on-board: " + " ".join(r for r in data.region_ids if r in pos.claims_on_board))
    for i, p in enumerate(pos.players):
        if i:
            out.append("---")
        head = f"player: {_name_text(p.name)} " + " ".join(f"{k}={getattr(p, k)}" for k in INT_KEYS)
        if p.princess:
            head += f" princess={p.princess}"
        if p.marker:
            head += " marker"
        out.append(head)
        if p.towns:
            toks = []
            for t in sorted(p.towns, key=data.town_index.__getitem__):
                toks.append(t + ("+" if t in pos.monasteries else "") + ("!" if t in pos.vikings else ""))
            out.append("towns: " + " ".join(toks))
        if p.claims:
            out.append("claims: " + " ".join(sorted(p.claims, key=data.region_index.__getitem__)))
    return "\n".join(out) + "\n"


def _tokens(line: str, start: int) -> list[tuple[int, str]]:
    """Whitespace tokens with their 1-based columns; a token may be a "quoted name"."""
    toks: list[tuple[int, str]] = []
    i = start
    while i < len(line):
        if line[i].isspace():
            i += 1
            continue
        if line[i] == '"':
            j = line.find('"', i + 1)
            if j < 0:
                raise NotationError(0, i + 1, "unclosed quote")
            toks.append((i + 1, line[i : j + 1]))
            i = j + 1
            continue
        j = i
        while j < len(line) and not line[j].isspace():
            j += 1
        toks.append((i + 1, line[i:j]))
        i = j
    return toks


def parse_position(text: str, data: BrianBoruData = DATA) -> Position:
    players: list[PlayerPosition] = []
    pos = Position(players=players)
    town_seen: dict[str, int] = {}
    claim_seen: dict[str, int] = {}
    current: PlayerPosition | None = None
    seen_lines: set[str] = set()
    block_open = False

    def err(ln: int, col: int, msg: str) -> NotationError:
        return NotationError(ln, col, msg)

    def claim_regions(ln: int, toks: list[tuple[int, str]]) -> list[str]:
        """Region ids of a claims line, each claim token listed once in the whole position (B-4)."""
        out = []
        for col, tok in toks:
            r = tok.lower()
            if r not in data.region_index:
                raise err(ln, col, f"unknown region {tok!r}")
            if r in claim_seen:
                raise err(ln, col, f"claim {r} listed twice")
            claim_seen[r] = ln
            out.append(r)
        return out

    for ln, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if stripped == "---":
            if current is None:
                if players or pos.claims_on_board:
                    block_open = True
                    continue
                raise err(ln, indent + 1, "'---' before any player block")
            current = None
            block_open = True
            continue
        if ":" not in stripped:
            raise err(ln, indent + 1, f"expected 'KEY: …', found {stripped!r}")
        key, _ = stripped.split(":", 1)
        key = key.strip().lower()
        start = line.index(":") + 1
        try:
            toks = _tokens(line, start)
        except NotationError as e:
            raise err(ln, e.column, e.message) from None
        if key == "claims-on-board":
            if players or block_open:
                raise err(ln, indent + 1, "claims-on-board must come before the first player")
            pos.claims_on_board.update(claim_regions(ln, toks))
            continue
        if key == "player":
            if current is not None:
                raise err(ln, indent + 1, "a new player block must follow '---'")
            if not toks:
                raise err(ln, start + 1, "player needs a name")
            col, name = toks[0]
            if name.startswith('"'):
                name = name[1:-1]
            if not name:
                raise err(ln, col, "empty player name")
            if any(p.name == name for p in players):
                raise err(ln, col, f"player {name!r} listed twice")
            current = PlayerPosition(name=name)
            seen_lines = set()
            keys_seen: set[str] = set()
            for col, tok in toks[1:]:
                if tok == "marker":
                    if any(p.marker for p in players) or current.marker:
                        raise err(ln, col, "only one player holds the active-town marker")
                    current.marker = True
                    continue
                if "=" not in tok:
                    raise err(ln, col, f"expected KEY=VALUE or 'marker', found {tok!r}")
                k, v = tok.split("=", 1)
                if k in keys_seen:
                    raise err(ln, col, f"{k} given twice")
                keys_seen.add(k)
                if k in INT_KEYS:
                    val = whole_number(v)  # ASCII digits only: '²' or 5,000 digits would crash int()
                    if val is None:
                        shown = v if len(v) <= 20 else v[:19] + "…"
                        raise err(ln, col + len(k) + 1, f"{k} must be a whole number >= 0, found {shown!r}")
                    if k == "track" and not 1 <= val <= data.top_space:
                        raise err(ln, col + len(k) + 1, f"track must be 1..{data.top_space}")
                    setattr(current, k, val)
                elif k == "princess":
                    if v not in PRINCESS:
                        raise err(ln, col + len(k) + 1, "princess must be support or trade")
                    if any(p.princess for p in players):
                        raise err(ln, col, "only one player can keep the Princess")
                    current.princess = v
                else:
                    raise err(ln, col, f"unknown key {k!r}")
            players.append(current)
            block_open = False
            continue
        if current is None:
            raise err(ln, indent + 1, f"'{key}:' outside a player block (start one with 'player:')")
        if key in seen_lines:
            raise err(ln, indent + 1, f"'{key}:' given twice for {current.name}")
        seen_lines.add(key)
        if key == "towns":
            for col, tok in toks:
                m = re.fullmatch(r"([^+!]+)([+!]*)", tok)
                flags = m.group(2) if m else ""
                t = data.town(m.group(1)) if m else None
                if t is None:
                    raise err(ln, col, f"unknown town {tok!r}")
                if len(set(flags)) != len(flags):
                    raise err(ln, col, f"repeated flag in {tok!r}")
                name = data.town_names[t]
                if name in town_seen:
                    raise err(ln, col, f"{name} already holds a disc (line {town_seen[name]})")
                town_seen[name] = ln
                current.towns.append(name)
                if "+" in flags:
                    pos.monasteries.add(name)
                if "!" in flags:
                    pos.vikings.add(name)
        elif key == "claims":
            current.claims.extend(claim_regions(ln, toks))
        else:
            raise err(ln, indent + 1, f"unknown line '{key}:'")
    if not players:
        raise NotationError(1, 1, "no player block")
    for p in players:
        p.towns.sort(key=data.town_index.__getitem__)
        p.claims.sort(key=data.region_index.__getitem__)
    return pos
