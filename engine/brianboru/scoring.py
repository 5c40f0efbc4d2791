"""Region counting (B-31), final scoring (B-33) and the winner (B-34) of a Brian Boru position.

A :class:`Position` is what the notation writes down (``notation.py``) and what the game hands over at
its end, so the engine and ``python -m engine.brianboru score`` score the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.brianboru.data import DATA, BrianBoruData
from engine.core import Msg, msg, score_line

VIKINGS = -2  # owner code used in counting: a town covered by a Viking control marker


@dataclass
class PlayerPosition:
    name: str
    coins: int = 0
    vp: int = 0
    renown: int = 0
    invaders: int = 0
    church: int = 0
    track: int = 1
    marriages: int = 0
    princess: str | None = None  # "support" | "trade" (B-27) when this player keeps her
    marker: bool = False  # holds the active-town marker
    towns: list[str] = field(default_factory=list)  # towns holding this player's disc (data order)
    claims: list[str] = field(default_factory=list)  # face-up claim tokens in front (region ids, data order)


@dataclass
class Position:
    players: list[PlayerPosition]
    monasteries: set[str] = field(default_factory=set)
    vikings: set[str] = field(default_factory=set)  # towns whose disc is covered by a Viking marker
    claims_on_board: set[str] = field(default_factory=set)  # face-up claim tokens still on the board


def region_counts(
    owner: list[int], viking: list[bool], monastery: list[bool], n: int, support: int, data: BrianBoruData = DATA
) -> list[list[int]]:
    """Per region: towns counted for seats ``0..n-1`` and, at index ``n``, for the Vikings (B-31).

    A monastery town counts 2 for whoever controls it; with the Princess's military support
    (``support`` = that seat, else -1) Viking towns count for that seat instead (B-27.1).
    """
    counts = [[0] * (n + 1) for _ in data.region_ids]
    region = data.town_region
    for t, o in enumerate(owner):
        if o < 0:
            continue
        w = 2 if monastery[t] else 1
        if viking[t]:
            counts[region[t]][support if support >= 0 else n] += w
        else:
            counts[region[t]][o] += w
    return counts


def _arrays(pos: Position, data: BrianBoruData) -> tuple[list[int], list[bool], list[bool]]:
    owner = [-1] * len(data.town_names)
    for seat, p in enumerate(pos.players):
        for t in p.towns:
            owner[data.town_index[t]] = seat
    viking = [name in pos.vikings for name in data.town_names]
    monastery = [name in pos.monasteries for name in data.town_names]
    return owner, viking, monastery


def _line(what: Msg, vp: int, rule: str) -> Msg:
    """A final-scoring line, ``what: +N (B-33.x)``; the rule number stays as it is."""
    return score_line(what, msg("+{vp} ({rule})", vp=vp, rule=rule), vp=vp)


def final_scoring(pos: Position, data: BrianBoruData = DATA) -> dict[str, Any]:
    """B-33 in order, then B-34. Returns ``{"players": [{"name", "vp", "lines"}], "winners": [names],
    "winner_seats": [seats]}``; ``lines`` is the per-player breakdown, ending with the total, as
    structured messages in JSON form (:class:`engine.core.Msg`; ``msg_text`` gives the English)."""
    n = len(pos.players)
    owner, viking, monastery = _arrays(pos, data)
    support = next((s for s, p in enumerate(pos.players) if p.princess == "support"), -1)
    trade = next((s for s, p in enumerate(pos.players) if p.princess == "trade"), -1)
    vp = [p.vp for p in pos.players]
    lines: list[list[Msg]] = [[msg("before final scoring: {vp} VP", vp=p.vp)] for p in pos.players]

    # B-33.1 the single player with the most coins
    most = max(p.coins for p in pos.players)
    rich = [s for s, p in enumerate(pos.players) if p.coins == most]
    if len(rich) == 1:
        vp[rich[0]] += 1
        lines[rich[0]].append(_line(msg("most coins ({coins})", coins=most), 1, "B-33.1"))
    # B-33.2 the holder of the active-town marker
    for s, p in enumerate(pos.players):
        if p.marker:
            vp[s] += 1
            lines[s].append(_line(msg("active-town marker"), 1, "B-33.2"))
    # B-33.3 renown
    for s, p in enumerate(pos.players):
        if p.renown:
            vp[s] += p.renown
            lines[s].append(_line(msg("renown x{renown}", renown=p.renown), p.renown, "B-33.3"))
    # B-33.4 claim tokens in front of players
    for s, p in enumerate(pos.players):
        for r in p.claims:
            ri = data.region_index[r]
            vp[s] += data.points[ri]
            lines[s].append(_line(msg("claim {region}", region=data.region_names[ri]), data.points[ri], "B-33.4"))
    # B-33.5 face-up claims on the board: half to everyone tied for most towns, a monastery counting 2
    # ([D-10], region_counts); [D-2] nothing if the Vikings lead
    counts = region_counts(owner, viking, monastery, n, support, data)
    for ri, rid in enumerate(data.region_ids):
        if rid not in pos.claims_on_board:
            continue
        c = counts[ri]
        top = max(c[:n])
        if top == 0 or c[n] > top:
            continue
        half = data.points[ri] // 2
        for s in range(n):
            if c[s] == top and half:
                vp[s] += half
                lines[s].append(_line(msg("half claim {region} (tied, {towns} towns)", region=data.region_names[ri],
                                          towns=top), half, "B-33.5"))
    # B-33.6 regions with at least one town (trade: Viking towns count for that player)
    for s in range(n):
        regions = set()
        for t, o in enumerate(owner):
            if o < 0:
                continue
            if (o == s and not viking[t]) or (viking[t] and s == trade):
                regions.add(data.town_region[t])
        k = len(regions)
        pts = data.region_count_points[k]
        if pts:
            vp[s] += pts
            lines[s].append(_line(msg("towns in {regions} regions", regions=k), pts, "B-33.6"))
    for s in range(n):
        lines[s].append(msg("total: {vp} VP", vp=vp[s]))
    # B-34 most VP, then most claim tokens, then most marriage cards ([D-12] a kept Princess is one), then shared
    keys = [(vp[s], len(pos.players[s].claims), pos.players[s].marriages) for s in range(n)]
    best = max(keys)
    winners = [s for s in range(n) if keys[s] == best]
    return {
        "players": [{"name": p.name, "vp": vp[s], "lines": [m.to_json() for m in lines[s]]}
                    for s, p in enumerate(pos.players)],
        "winners": [pos.players[s].name for s in winners],
        "winner_seats": winners,
    }
