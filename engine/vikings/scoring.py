"""Small, major and final scoring (V-32, V-33, V-37), special-tile effects included (V-47 … V-49).

Each function works on homelands and purses only, returns what changed with its lines (structured
messages, :func:`engine.core.score_line`, translated by the host; ``ScoreResult.lines`` is their
English text), and is used both by the game and by ``python -m engine.vikings score``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.core import Msg, msg, msgn, score_line

from .data import (
    BUILDING_TILES,
    COLOUR_WORD,
    ISLAND_ROWS,
    KIND_ROW,
    SAILOR,
    SCORING,
    SHIPS,
    SPECIAL_TILES,
    SPECIAL_WORD,
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
    messages: list[Msg] = field(default_factory=list)

    @property
    def lines(self) -> list[str]:
        """The lines in English (the CLI, the rulebook tests); the host translates ``messages``."""
        return [str(m) for m in self.messages]

    def add(self, what: Msg, amount: Msg, gold: int = 0, vp: int = 0) -> None:
        self.messages.append(score_line(what, amount, gold=gold, vp=vp))

    def to_json(self) -> dict:
        return {"gold": self.gold, "vp": self.vp, "lines": [m.to_json() for m in self.messages]}


NOTHING = msg("nothing")


def _gain_gold(g: int) -> Msg:
    return msg("+{gold} gold", gold=g)


def _gain_vp(v: int) -> Msg:
    return msg("+{vp} VP", vp=v)


def _special_count(h: Homeland, name: str) -> int:
    return h.specials.count(name)


def _goldsmiths(h: Homeland, zone, res: ScoreResult, purse: Purse, lines: bool = True) -> None:
    safe, hit = h.vikings_on_islands("G", zone)
    per = SCORING["goldsmith_gold"]
    if safe:
        g = purse.add_gold(safe * per)
        res.gold += g
        if lines:
            res.add(msgn("{n} unthreatened goldsmith × {per} gold", "{n} unthreatened goldsmiths × {per} gold", safe,
                         per=per), _gain_gold(g), gold=g)
    if hit and lines:
        res.add(msgn("{n} threatened goldsmith", "{n} threatened goldsmiths", hit), NOTHING)
    # V-49: goldsmith special tiles act in small and major scorings (V-48: they add up)
    if not safe or not h.specials:
        return
    for name in ("goldsmith1", "goldsmith2"):
        n = _special_count(h, name)
        if n:
            extra = SPECIAL_TILES[name]["gold"] * n * safe
            g = purse.add_gold(extra)
            res.gold += g
            if lines:
                res.add(msg("special {name} ×{count}", name=SPECIAL_WORD[name], count=n),
                        msgn("+{gold} gold for {n} goldsmith", "+{gold} gold for {n} goldsmiths", safe, gold=g),
                        gold=g)


def small_scoring(h: Homeland, purse: Purse, lines: bool = True) -> ScoreResult:
    """V-32: 3 gold per unthreatened goldsmith on an island. ``lines=False``: the same purse and
    totals, no lines written (the game's quiet step, whose caller never reads them, issue 30)."""
    res = ScoreResult()
    _goldsmiths(h, h.threat_zone(), res, purse, lines)
    if lines and not res.messages:
        res.add(msg("no goldsmith on an island"), NOTHING)
    return res


def major_scoring(h: Homeland, purse: Purse, lines: bool = True) -> ScoreResult:
    """V-33 steps 1–5 (the sailors of V-34 have moved before this is called). ``lines=False``:
    the same purse and totals, no lines written (as :func:`small_scoring`)."""
    res = ScoreResult()
    zone = h.threat_zone()
    # 1. ships and warriors
    for col, sail, defended in h.ships():
        if not defended:
            continue
        ship = SHIPS[sail]
        if ship["reward"] == "gold":
            g = purse.add_gold(ship["amount"])
            res.gold += g
            if lines:
                res.add(msg("{colour} ship in column {col}, defended", colour=COLOUR_WORD[ship["colour"]], col=col),
                        _gain_gold(g), gold=g)
        else:
            v = purse.add_vp(ship["amount"])
            res.vp += v
            if lines:
                res.add(msg("{colour} ship in column {col}, defended", colour=COLOUR_WORD[ship["colour"]], col=col),
                        _gain_vp(v), vp=v)
    # 2. nobles
    safe, hit = h.vikings_on_islands("N", zone)
    if safe:
        v = purse.add_vp(safe * SCORING["noble_vp"])
        res.vp += v
        if lines:
            res.add(msgn("{n} unthreatened noble × {per} VP", "{n} unthreatened nobles × {per} VP", safe,
                         per=SCORING["noble_vp"]), _gain_vp(v), vp=v)
    if hit and lines:
        res.add(msgn("{n} threatened noble", "{n} threatened nobles", hit), NOTHING)
    n = _special_count(h, "noble1")
    if n and safe:
        v = purse.add_vp(SPECIAL_TILES["noble1"]["vp"] * n * safe)
        res.vp += v
        if lines:
            res.add(msg("special {name} ×{count}", name=SPECIAL_WORD["noble1"], count=n),
                    msgn("+{vp} VP for {n} noble", "+{vp} VP for {n} nobles", safe, vp=v), vp=v)
    # 3. scouts, with the goldsmith and fisher below them
    srow, grow, frow = KIND_ROW["S"], KIND_ROW["G"], KIND_ROW["F"]
    scouts = 0
    scout_vp = 0
    for i, tok in enumerate(h.rows[srow]):
        col = i + 1
        if not tok.endswith("*"):
            continue
        if (srow, col) in zone:
            if lines:
                res.add(msg("threatened scout in column {col}", col=col), msg("nothing, nor for those below it"))
            continue
        scouts += 1
        gain = SCORING["scout_vp"]
        if h.has_viking(grow, col):
            gain += SCORING["scout_column_bonus"]
        if h.has_viking(frow, col):
            gain += SCORING["scout_column_bonus"]
        v = purse.add_vp(gain)
        scout_vp += v
        if lines:
            res.add(msg("scout in column {col}", col=col), _gain_vp(v), vp=v)
    res.vp += scout_vp
    n = _special_count(h, "scout1")
    if n and scouts:
        v = purse.add_vp(SPECIAL_TILES["scout1"]["vp"] * n * scouts)
        res.vp += v
        if lines:
            res.add(msg("special {name} ×{count}", name=SPECIAL_WORD["scout1"], count=n),
                    msgn("+{vp} VP for {n} scout", "+{vp} VP for {n} scouts", scouts, vp=v), vp=v)
    # 4. goldsmiths
    _goldsmiths(h, zone, res, purse, lines)
    # 5. fishers: nothing now, except the fisher special tile (V-49)
    n = _special_count(h, "fisher1")
    if n:
        safe, _hit = h.vikings_on_islands("F", zone)
        if safe:
            v = purse.add_vp(SPECIAL_TILES["fisher1"]["vp"] * n * safe)
            res.vp += v
            if lines:
                res.add(msg("special {name} ×{count}", name=SPECIAL_WORD["fisher1"], count=n),
                        msgn("+{vp} VP for {n} fisher", "+{vp} VP for {n} fishers", safe, vp=v), vp=v)
    if lines and not res.messages:
        res.messages.append(msg("nothing scores"))
    return res


def _building_vp(h: Homeland, zone) -> list[tuple[Msg, int]]:
    """V-49 building tiles on the grid: if not threatened, 1 VP per viking on it and the 8 around."""
    out: list[tuple[Msg, int]] = []
    for row in ISLAND_ROWS:  # Homeland.island_cells written out, the building tiles only (X…)
        col = 0
        for tok in h.rows[row]:
            col += 1
            if tok[0] != "X" or tok.rstrip("*") not in BUILDING_TILES:
                continue
            if (row, col) in zone:
                out.append((msg("building tile {tile} at {cell} is threatened", tile=tok.rstrip("*"),
                                cell=cell_name(row, col)), 0))
                continue
            count = 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    r, c = row + dr, col + dc
                    if 1 <= r <= 5 and c >= 1 and h.has_viking(r, c):
                        count += 1
            count = min(count, SPECIALS["building_max_vp"])
            out.append((msg("building tile {tile} at {cell}", tile=tok.rstrip("*"), cell=cell_name(row, col)),
                        count))
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
                if not missing:
                    amount_msg = msg("-{gold} gold", gold=paid)
                elif paid:
                    amount_msg = _floor_note(msg("-{gold} gold and -{vp} VP for {missing} missing gold", gold=paid,
                                                 vp=lost_vp, missing=missing), lost_vp, missing)
                else:
                    amount_msg = _floor_note(msg("-{vp} VP for {missing} missing gold", vp=lost_vp, missing=missing),
                                             lost_vp, missing)
                res.add(msg("undefended {colour} ship in column {col}", colour=COLOUR_WORD[ship["colour"]], col=col),
                        amount_msg, gold=-paid, vp=-lost_vp)
            else:
                lost = -p.add_vp(-amount)
                res.vp -= lost
                res.add(msg("undefended {colour} ship in column {col}", colour=COLOUR_WORD[ship["colour"]], col=col),
                        _floor_note(msg("-{vp} VP", vp=lost), lost, amount), vp=-lost)
    # 2. gold into VP
    for h, p, res in zip(homelands, purses, results):
        per = SPECIAL_TILES["treasury"]["gold_per_vp"] if "treasury" in h.specials else SCORING["gold_per_vp"]
        v = p.gold // per
        if v:
            p.gold -= v * per
            res.gold -= v * per
            p.add_vp(v)
            res.vp += v
        res.add(msg("gold"), msg("{spent} gold → +{vp} VP (1 VP per {per} gold), {kept} gold kept", spent=v * per,
                                 vp=v, per=per, kept=p.gold), gold=-v * per, vp=v)
    # 3. sailors majority (special sailor tiles count, V-49) [D-10]
    sailors = [h.base[SAILOR] + h.specials.count("sailor") for h in homelands]
    _majority(sailors, purses, results, SCORING["sailor_majority_vp"], lambda n: msg("most sailors ({n})", n=n))
    # 4. completed islands majority [D-10]
    islands = [h.completed_islands() for h in homelands]
    _majority([len(x) for x in islands], purses, results, SCORING["islands_majority_vp"],
              lambda n: msg("most completed islands ({n})", n=n))
    # 5. longest completed island
    _majority([max(x, default=0) for x in islands], purses, results, SCORING["longest_island_vp"],
              lambda n: msg("longest island ({n})", n=n))
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
    frow = KIND_ROW["F"]
    for h, z, p, res in zip(homelands, zones, purses, results):
        eaters = 0
        fishers = 0
        for row in ISLAND_ROWS:  # the vikings on island tiles (Homeland.island_cells written out)
            col = 0
            for tok in h.rows[row]:
                col += 1
                if tok[-1] != "*" or tok[0] == "X":  # no viking (an empty cell is "."), or on a special tile
                    continue
                eaters += 1
                if row == frow and (row, col) not in z:
                    fishers += 1
        eaters += sum(h.base.values())
        fed = fishers * SCORING["fisher_feeds"]
        surplus_vp = SPECIAL_TILES["feast"]["surplus_vp"] if "feast" in h.specials else SCORING["food_surplus_vp"]
        if fed >= eaters:
            v = p.add_vp((fed - eaters) * surplus_vp)
            res.vp += v
            res.add(_food_what(fishers, fed, eaters), _gain_vp(v), vp=v)
        else:
            owed = (eaters - fed) * SCORING["food_shortfall_vp"]
            v = -p.add_vp(-owed)
            res.vp -= v
            res.add(_food_what(fishers, fed, eaters), _floor_note(msg("-{vp} VP", vp=v), v, owed), vp=-v)


def _buildings(homelands, zones, purses, results) -> None:
    """V-49 building tiles: 1 VP per viking on and around each unthreatened one."""
    for h, z, p, res in zip(homelands, zones, purses, results):
        for label, count in _building_vp(h, z):
            if count:
                v = p.add_vp(count)
                res.vp += v
                res.add(label, _gain_vp(v), vp=v)
            else:
                res.add(label, NOTHING)


def _food_what(fishers: int, fed: int, eaters: int) -> Msg:
    return msgn("food: {n} fisher feed {fed}, {eaters} vikings", "food: {n} fishers feed {fed}, {eaters} vikings",
                fishers, fed=fed, eaters=eaters)


def _floor_note(amount: Msg, real: int, meant: int) -> Msg:
    """V-4: a loss stops at zero; say so when it did."""
    return msg("{amount} (of {meant}: VP never go below 0)", amount=amount, meant=meant) if real < meant else amount


def _majority(values: list[int], purses, results, vp: int, label: Callable[[int], Msg]) -> None:
    best = max(values)
    if best < SCORING["majority_minimum"]:  # [D-10] a majority of nothing scores nothing
        return
    for value, p, res in zip(values, purses, results):
        if value == best:
            v = p.add_vp(vp)
            res.vp += v
            res.add(label(value), _gain_vp(v), vp=v)
