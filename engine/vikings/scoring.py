"""Small, major and final scoring (V-32, V-33, V-37), special-tile effects included (V-47 … V-49).

Each function works on homelands and purses only, returns what changed with human-readable
lines, and is used both by the game and by ``python -m engine.vikings score``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .data import (
    BUILDING_TILES,
    KIND_ROW,
    SAILOR,
    SCORING,
    SHIPS,
    SPECIAL_TILES,
    SPECIALS,
    cell_name,
)
from .homeland import Homeland


@dataclass
class Purse:
    gold: int
    vp: int

    def add_gold(self, n: int) -> int:
        """Add (or take, never below 0: V-4) gold; returns the real change."""
        before = self.gold
        self.gold = max(0, self.gold + n)
        return self.gold - before

    def add_vp(self, n: int) -> int:
        before = self.vp
        self.vp = max(0, self.vp + n)
        return self.vp - before


@dataclass
class ScoreResult:
    gold: int = 0
    vp: int = 0
    lines: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"gold": self.gold, "vp": self.vp, "lines": list(self.lines)}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _special_count(h: Homeland, name: str) -> int:
    return h.specials.count(name)


def _goldsmiths(h: Homeland, zone, res: ScoreResult, purse: Purse) -> None:
    safe, hit = h.vikings_on_islands("G", zone)
    per = SCORING["goldsmith_gold"]
    if safe:
        g = purse.add_gold(safe * per)
        res.gold += g
        res.lines.append(f"{_plural(safe, 'unthreatened goldsmith')} × {per} gold: +{g} gold")
    if hit:
        res.lines.append(f"{_plural(hit, 'threatened goldsmith')}: nothing")
    # V-49: goldsmith special tiles act in small and major scorings (V-48: they add up)
    for name in ("goldsmith1", "goldsmith2"):
        n = _special_count(h, name)
        if n and safe:
            extra = SPECIAL_TILES[name]["gold"] * n * safe
            g = purse.add_gold(extra)
            res.gold += g
            res.lines.append(f"special {name} ×{n}: +{g} gold for {_plural(safe, 'goldsmith')}")


def small_scoring(h: Homeland, purse: Purse) -> ScoreResult:
    """V-32: 3 gold per unthreatened goldsmith on an island."""
    res = ScoreResult()
    _goldsmiths(h, h.threat_zone(), res, purse)
    if not res.lines:
        res.lines.append("no goldsmith on an island: nothing")
    return res


def major_scoring(h: Homeland, purse: Purse) -> ScoreResult:
    """V-33 steps 1–5 (the sailors of V-34 have moved before this is called)."""
    res = ScoreResult()
    zone = h.threat_zone()
    # 1. ships and warriors
    for col, sail, defended in h.ships():
        ship = SHIPS[sail]
        if defended:
            if ship["reward"] == "gold":
                g = purse.add_gold(ship["amount"])
                res.gold += g
                res.lines.append(f"{ship['colour']} ship in column {col}, defended: +{g} gold")
            else:
                v = purse.add_vp(ship["amount"])
                res.vp += v
                res.lines.append(f"{ship['colour']} ship in column {col}, defended: +{v} VP")
    # 2. nobles
    safe, hit = h.vikings_on_islands("N", zone)
    if safe:
        v = purse.add_vp(safe * SCORING["noble_vp"])
        res.vp += v
        res.lines.append(f"{_plural(safe, 'unthreatened noble')} × {SCORING['noble_vp']} VP: +{v} VP")
    if hit:
        res.lines.append(f"{_plural(hit, 'threatened noble')}: nothing")
    n = _special_count(h, "noble1")
    if n and safe:
        v = purse.add_vp(SPECIAL_TILES["noble1"]["vp"] * n * safe)
        res.vp += v
        res.lines.append(f"special noble1 ×{n}: +{v} VP for {_plural(safe, 'noble')}")
    # 3. scouts, with the goldsmith and fisher below them
    srow, grow, frow = KIND_ROW["S"], KIND_ROW["G"], KIND_ROW["F"]
    scouts = 0
    scout_vp = 0
    for i, tok in enumerate(h.rows[srow]):
        col = i + 1
        if not tok.endswith("*"):
            continue
        if (srow, col) in zone:
            res.lines.append(f"threatened scout in column {col}: nothing, nor for those below it")
            continue
        scouts += 1
        gain = SCORING["scout_vp"]
        if h.has_viking(grow, col):
            gain += SCORING["scout_column_bonus"]
        if h.has_viking(frow, col):
            gain += SCORING["scout_column_bonus"]
        v = purse.add_vp(gain)
        scout_vp += v
        res.lines.append(f"scout in column {col}: +{v} VP")
    res.vp += scout_vp
    n = _special_count(h, "scout1")
    if n and scouts:
        v = purse.add_vp(SPECIAL_TILES["scout1"]["vp"] * n * scouts)
        res.vp += v
        res.lines.append(f"special scout1 ×{n}: +{v} VP for {_plural(scouts, 'scout')}")
    # 4. goldsmiths
    _goldsmiths(h, zone, res, purse)
    # 5. fishers: nothing now, except the fisher special tile (V-49)
    n = _special_count(h, "fisher1")
    if n:
        safe, _hit = h.vikings_on_islands("F", zone)
        if safe:
            v = purse.add_vp(SPECIAL_TILES["fisher1"]["vp"] * n * safe)
            res.vp += v
            res.lines.append(f"special fisher1 ×{n}: +{v} VP for {_plural(safe, 'fisher')}")
    if not res.lines:
        res.lines.append("nothing scores")
    return res


def _building_vp(h: Homeland, zone) -> list[tuple[str, int]]:
    """V-49 building tiles on the grid: if not threatened, 1 VP per viking on it and the 8 around."""
    out = []
    for row, col, tok in h.island_cells():
        if tok.rstrip("*") not in BUILDING_TILES:
            continue
        if (row, col) in zone:
            out.append((f"building tile {tok.rstrip('*')} at {cell_name(row, col)} is threatened", 0))
            continue
        count = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r, c = row + dr, col + dc
                if 1 <= r <= 5 and c >= 1 and h.has_viking(r, c):
                    count += 1
        count = min(count, SPECIALS["building_max_vp"])
        out.append((f"building tile {tok.rstrip('*')} at {cell_name(row, col)}", count))
    return out


def final_scoring(homelands: Sequence[Homeland], purses: Sequence[Purse]) -> list[ScoreResult]:
    """V-37, the six steps in order, for all players at once (majorities compare players)."""
    results = [ScoreResult() for _ in homelands]
    zones = [h.threat_zone() for h in homelands]
    # 1. undefended ships cost their value
    for h, p, res in zip(homelands, purses, results):
        for col, sail, defended in h.ships():
            if defended:
                continue
            ship = SHIPS[sail]
            amount = ship["amount"]
            if ship["reward"] == "gold":
                paid = -p.add_gold(-amount)
                missing = amount - paid
                lost_vp = -p.add_vp(-missing) if missing else 0
                res.gold -= paid
                res.vp -= lost_vp
                parts = [f"-{paid} gold"] if paid else []
                if missing:
                    parts.append(f"-{lost_vp} VP for {missing} missing gold" + _floor_note(lost_vp, missing))
                res.lines.append(f"undefended {ship['colour']} ship in column {col}: {' and '.join(parts)}")
            else:
                lost = -p.add_vp(-amount)
                res.vp -= lost
                res.lines.append(
                    f"undefended {ship['colour']} ship in column {col}: -{lost} VP" + _floor_note(lost, amount)
                )
    # 2. gold into VP
    for h, p, res in zip(homelands, purses, results):
        per = SPECIAL_TILES["treasury"]["gold_per_vp"] if "treasury" in h.specials else SCORING["gold_per_vp"]
        v = p.gold // per
        if v:
            p.gold -= v * per
            res.gold -= v * per
            p.add_vp(v)
            res.vp += v
        res.lines.append(f"gold: {v * per} gold → +{v} VP (1 VP per {per} gold), {p.gold} gold kept")
    # 3. sailors majority (special sailor tiles count, V-49) [D-10]
    sailors = [h.base[SAILOR] + h.specials.count("sailor") for h in homelands]
    _majority(sailors, purses, results, SCORING["sailor_majority_vp"], "most sailors")
    # 4. completed islands majority [D-10]
    islands = [h.completed_islands() for h in homelands]
    _majority([len(x) for x in islands], purses, results, SCORING["islands_majority_vp"], "most completed islands")
    # 5. longest completed island
    _majority([max(x, default=0) for x in islands], purses, results, SCORING["longest_island_vp"], "longest island")
    # 6. food, and the V-49 building tiles after it [D-13] (the order matters: VP stop at 0)
    if SPECIALS["building_after_food"]:
        _food(homelands, zones, purses, results)
        _buildings(homelands, zones, purses, results)
    else:
        _buildings(homelands, zones, purses, results)
        _food(homelands, zones, purses, results)
    return results


def _food(homelands, zones, purses, results) -> None:
    """V-37.6 food (V-47: vikings on special tiles are left out)."""
    for h, z, p, res in zip(homelands, zones, purses, results):
        eaters = 0
        fishers = 0
        for row, col, tok in h.island_cells():
            if not tok.endswith("*") or tok[0] == "X":
                continue
            eaters += 1
            if row == KIND_ROW["F"] and (row, col) not in z:
                fishers += 1
        eaters += sum(h.base.values())
        fed = fishers * SCORING["fisher_feeds"]
        surplus_vp = SPECIAL_TILES["feast"]["surplus_vp"] if "feast" in h.specials else SCORING["food_surplus_vp"]
        if fed >= eaters:
            v = p.add_vp((fed - eaters) * surplus_vp)
            res.vp += v
            res.lines.append(f"food: {_plural(fishers, 'fisher')} feed {fed}, {eaters} vikings: +{v} VP")
        else:
            owed = (eaters - fed) * SCORING["food_shortfall_vp"]
            v = -p.add_vp(-owed)
            res.vp -= v
            res.lines.append(
                f"food: {_plural(fishers, 'fisher')} feed {fed}, {eaters} vikings: -{v} VP" + _floor_note(v, owed)
            )


def _buildings(homelands, zones, purses, results) -> None:
    """V-49 building tiles: 1 VP per viking on and around each unthreatened one."""
    for h, z, p, res in zip(homelands, zones, purses, results):
        for label, count in _building_vp(h, z):
            if count:
                v = p.add_vp(count)
                res.vp += v
                res.lines.append(f"{label}: +{v} VP")
            else:
                res.lines.append(f"{label}: nothing")


def _floor_note(real: int, meant: int) -> str:
    """V-4: a loss stops at zero; say so when it did."""
    return f" (of {meant}: VP never go below 0)" if real < meant else ""


def _majority(values: list[int], purses, results, vp: int, label: str) -> None:
    best = max(values)
    if best < SCORING["majority_minimum"]:  # [D-10] a majority of nothing scores nothing
        return
    for value, p, res in zip(values, purses, results):
        if value == best:
            v = p.add_vp(vp)
            res.vp += v
            res.lines.append(f"{label} ({value}): +{v} VP")
