"""The Brian Boru data the engine ships: house map and cards (not the printed ones).

``data.json`` beside this module holds everything from ``../shared/rules/brian-boru-data.md``; it is
loaded and validated once at import (:func:`load`), so a table owning the printed game can swap in
the original values without touching code. :func:`validate` raises :class:`DataError` naming the
first problem it finds.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core import Msg, msg

DATA_PATH = Path(__file__).with_name("data.json")

COLOURS = ("red", "blue", "yellow")
CARD_COLOURS = ("red", "blue", "yellow", "white")
WHITE = 3  # index of white in CARD_COLOURS

# B-22 symbols: the plain words, plus "vp N", "any town" and "town in R".
PLAIN_SYMBOLS = ("control", "coin", "pay", "renown", "church", "battle", "marriage", "expand", "free")
# symbols whose consecutive repeats are done as one step (their coin payments add up the same way)
MERGEABLE = frozenset({"coin", "pay", "renown", "church", "battle", "marriage", "vp"})
TRACK_BONUSES = ("coin", "renown", "any town")

_TOKEN = re.compile(r"vp \d+|any town|town in [\w-]+|\S+")


# The marriage cards' titles as words the host translates (issue 16); the ids stay in data and
# notation. A title the data file changes (a table's own cards) is shown as the file says.
MARRIAGE_TITLE: dict[str, Msg] = {
    "leinster-match": msg("A match in Leinster"),
    "munster-match": msg("A match in Munster"),
    "connaught-match": msg("A match in Connaught"),
    "meath-match": msg("A match in Meath"),
    "northern-match": msg("A match in the North"),
    "ossory-match": msg("A match in Ossory"),
    "royal-feast": msg("A royal feast"),
    "bards": msg("Bards sing of it"),
    "princess": msg("The Princess of Denmark"),
}


def marriage_title(card_id: str, title: str) -> Msg:
    """Card ``card_id``'s title as a message: the marked one when the data's ``title`` is its own."""
    word = MARRIAGE_TITLE.get(card_id)
    return word if word is not None and word.id == title else Msg(title)


class DataError(ValueError):
    """The data file is inconsistent; the message names what is wrong."""


Symbol = tuple[str, int, Any]  # (symbol, count, argument): ("church", 3, None), ("town in", 1, 5)


@dataclass(frozen=True)
class Card:
    value: int
    colour: int  # index into CARD_COLOURS
    main: tuple[Symbol, ...]
    secondary: tuple[tuple[Symbol, ...], ...]
    main_text: str
    secondary_text: tuple[str, ...]


@dataclass(frozen=True)
class MarriageCard:
    id: str
    title: str
    princess: bool
    reward: tuple[Symbol, ...]
    reward_text: str


class BrianBoruData:
    """Validated, compiled data: indices instead of names where the engine needs speed."""

    def __init__(self, raw: dict[str, Any]) -> None:
        validate(raw)
        self.raw = raw
        self.min_players = raw["players"]["min"]
        self.max_players = raw["players"]["max"]
        self.deal = {int(k): v for k, v in raw["deal"].items()}
        self.ordinary_used = {int(k): v for k, v in raw["ordinary_marriage_cards_used"].items()}
        self.start = dict(raw["start"])
        self.region_count_points = list(raw["region_count_points"])
        self.region_ids: list[str] = [r["id"] for r in raw["regions"]]
        self.region_names: list[str] = [r["name"] for r in raw["regions"]]
        self.region_index = {r: i for i, r in enumerate(self.region_ids)}
        self.thresholds = [r["threshold"] for r in raw["regions"]]
        self.points = [r["points"] for r in raw["regions"]]
        self.town_names: list[str] = [t["name"] for t in raw["towns"]]
        self.town_index = {t: i for i, t in enumerate(self.town_names)}
        self.town_lookup = {t.lower(): i for i, t in enumerate(self.town_names)}
        self.town_region = [self.region_index[t["region"]] for t in raw["towns"]]
        self.town_colour = [COLOURS.index(t["colour"]) for t in raw["towns"]]
        self.region_towns = [
            [i for i, r in enumerate(self.town_region) if r == ri] for ri in range(len(self.region_ids))
        ]
        adj: list[set[int]] = [set() for _ in self.town_names]
        for a, b in raw["roads"]:
            ia, ib = self.town_index[a], self.town_index[b]
            adj[ia].add(ib)
            adj[ib].add(ia)
        self.neighbours = [tuple(sorted(s)) for s in adj]
        self.cards: dict[int, Card] = {}
        for c in raw["action_cards"]:
            self.cards[c["value"]] = Card(
                c["value"],
                CARD_COLOURS.index(c["colour"]),
                compile_symbols(c["main"], self.region_index),
                tuple(compile_symbols(s, self.region_index) for s in c["secondary"]),
                c["main"],
                tuple(c["secondary"]),
            )
        self.card_values = sorted(self.cards)
        self.card_colour = {v: c.colour for v, c in self.cards.items()}
        self.track = [None, *raw["marriage_track"]]  # index = space (1-based); [0] unused
        self.top_space = len(raw["marriage_track"])
        self.marriage: dict[str, MarriageCard] = {}
        for m in raw["marriage_cards"]:
            self.marriage[m["id"]] = MarriageCard(
                m["id"],
                m["title"],
                bool(m.get("princess", False)),
                compile_symbols(" ".join(m["reward"]), self.region_index),
                ", ".join(m["reward"]),
            )
        self.princess_id = next(m.id for m in self.marriage.values() if m.princess)
        self.ordinary_marriage = [m["id"] for m in raw["marriage_cards"] if not m.get("princess")]
        self.viking_cards = list(raw["viking_cards"])
        self.coastline = [tuple(p) for p in raw["coastline"]]

    def town(self, name: str) -> int | None:
        return self.town_lookup.get(name.lower())


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text.strip())


def compile_symbols(text: str, region_index: dict[str, int]) -> tuple[Symbol, ...]:
    """``"coin coin coin expand"`` → ``(("coin", 3, None), ("expand", 1, None))`` (B-22, left to right)."""
    out: list[list[Any]] = []
    for tok in tokenize(text):
        if tok.startswith("vp "):
            sym, n, arg = "vp", int(tok[3:]), None
        elif tok == "any town":
            sym, n, arg = "any town", 1, None
        elif tok.startswith("town in "):
            region = tok[8:]
            if region not in region_index:
                raise DataError(f"unknown region {region!r} in {text!r}")
            sym, n, arg = "town in", 1, region_index[region]
        elif tok in PLAIN_SYMBOLS:
            sym, n, arg = tok, 1, None
        else:
            raise DataError(f"unknown symbol {tok!r} in {text!r}")
        if out and sym in MERGEABLE and out[-1][0] == sym:
            out[-1][1] += n
        else:
            out.append([sym, n, arg])
    return tuple((s, n, a) for s, n, a in out)


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise DataError(message)


def validate(raw: dict[str, Any]) -> None:
    """Check the whole data file; raise :class:`DataError` with the first problem found."""
    for key in ("expect", "players", "deal", "ordinary_marriage_cards_used", "start", "region_count_points",
                "regions", "towns", "roads", "action_cards", "marriage_track", "marriage_cards",
                "viking_cards", "coastline"):
        _need(key in raw, f"missing section {key!r}")
    expect = raw["expect"]
    pmin, pmax = raw["players"]["min"], raw["players"]["max"]
    _need(3 <= pmin <= pmax <= 5, "players must be within 3..5 (D-3)")

    regions = raw["regions"]
    ids = [r["id"] for r in regions]
    _need(len(set(ids)) == len(ids), "region ids must be distinct")
    for r in regions:
        _need(r["threshold"] >= 1 and r["points"] >= 1, f"region {r['id']}: threshold and points must be >= 1")
    _need(len(raw["region_count_points"]) == len(regions) + 1,
          "region_count_points needs one entry for 0..number of regions (B-33.6)")

    towns = raw["towns"]
    names = [t["name"] for t in towns]
    _need(len(towns) == expect["towns"], f"expected {expect['towns']} towns, found {len(towns)}")
    _need(len({n.lower() for n in names}) == len(names), "town names must be distinct")
    for t in towns:
        _need(re.fullmatch(r"[^\s+!#=\"]+", t["name"]) is not None,
              f"town name {t['name']!r} must be one word (it is typed in actions)")
        _need(t["region"] in ids, f"town {t['name']}: unknown region {t['region']!r}")
        _need(t["colour"] in COLOURS, f"town {t['name']}: colour must be red, blue or yellow")
    for colour, count in expect["colours"].items():
        found = sum(1 for t in towns if t["colour"] == colour)
        _need(found == count, f"expected {count} {colour} towns, found {found}")
    for r in regions:
        found = sum(1 for t in towns if t["region"] == r["id"])
        _need(found == r["towns"], f"region {r['id']} should have {r['towns']} towns, the map has {found}")
        _need(r["threshold"] <= 2 * r["towns"], f"region {r['id']}: threshold can never be reached")

    known = set(names)
    seen: set[frozenset[str]] = set()
    _need(len(raw["roads"]) == expect["roads"], f"expected {expect['roads']} roads, found {len(raw['roads'])}")
    for road in raw["roads"]:
        _need(len(road) == 2, f"road {road!r} must join two towns")
        a, b = road
        _need(a in known, f"road {a}–{b}: unknown town {a!r}")
        _need(b in known, f"road {a}–{b}: unknown town {b!r}")
        _need(a != b, f"road {a}–{b} joins a town to itself")
        pair = frozenset((a, b))
        _need(pair not in seen, f"road {a}–{b} listed twice")
        seen.add(pair)

    cards = raw["action_cards"]
    region_index = {r: i for i, r in enumerate(ids)}
    _need(len(cards) == expect["action_cards"], f"expected {expect['action_cards']} action cards, found {len(cards)}")
    values = [c["value"] for c in cards]
    _need(len(set(values)) == len(values), "action card values must all be different (B-1)")
    for c in cards:
        v = c["value"]
        _need(isinstance(v, int) and v >= 1, f"card value {v!r} must be a positive integer")
        _need(c["colour"] in CARD_COLOURS, f"card {v}: unknown colour {c['colour']!r}")
        main = compile_symbols(c["main"], region_index)
        _need(bool(main) and main[0][0] == "control", f"card {v}: a main action starts with control (B-1)")
        _need(1 <= len(c["secondary"]) <= 2, f"card {v}: one or two secondary actions (B-1)")
        for s in c["secondary"]:
            sec = compile_symbols(s, region_index)
            _need(bool(sec), f"card {v}: empty secondary action")
            _need(all(sym[0] != "control" for sym in sec), f"card {v}: control only in main actions (B-22)")
    for k, size in raw["deal"].items():
        n = int(k)
        _need(pmin <= n <= pmax, f"deal for {n} players outside the player range")
        _need(size >= 2 and n * size <= len(cards), f"cannot deal {size} cards to {n} players")
    _need(set(raw["deal"]) == {str(n) for n in range(pmin, pmax + 1)}, "deal needs every player count")

    track = raw["marriage_track"]
    _need(len(track) == expect["track_spaces"], f"expected {expect['track_spaces']} marriage track spaces")
    _need(track[0] is None, "space 1 of the marriage track has no bonus")
    for b in track[1:]:
        _need(b in TRACK_BONUSES, f"unknown marriage track bonus {b!r}")

    mcards = raw["marriage_cards"]
    _need(len(mcards) == expect["marriage_cards"], f"expected {expect['marriage_cards']} marriage cards")
    mids = [m["id"] for m in mcards]
    _need(len(set(mids)) == len(mids), "marriage card ids must be distinct")
    _need(sum(1 for m in mcards if m.get("princess")) == 1, "exactly one marriage card is the Princess (B-2)")
    for m in mcards:
        for sym in compile_symbols(" ".join(m["reward"]), region_index):
            _need(sym[0] in ("vp", "renown", "town in"), f"marriage card {m['id']}: reward {sym[0]!r} (B-26)")
    ordinary = len(mcards) - 1
    vik = raw["viking_cards"]
    _need(len(vik) == expect["viking_cards"], f"expected {expect['viking_cards']} Viking cards")
    _need(all(isinstance(x, int) and x >= 1 for x in vik), "Viking card strengths must be positive integers")
    for k, used in raw["ordinary_marriage_cards_used"].items():
        _need(1 <= used <= ordinary, f"{k} players: cannot use {used} ordinary marriage cards")
        _need(used + 1 <= len(vik), f"{k} players: not enough Viking cards for {used + 1} rounds")
    _need(set(raw["ordinary_marriage_cards_used"]) == {str(n) for n in range(pmin, pmax + 1)},
          "ordinary_marriage_cards_used needs every player count")
    for k in ("coins", "renown", "track", "vp"):
        _need(isinstance(raw["start"].get(k), int) and raw["start"][k] >= 0, f"start.{k} must be an integer >= 0")
    _need(1 <= raw["start"]["track"] <= len(track), "start.track must be a marriage track space")
    _need(all(len(p) == 2 for p in raw["coastline"]), "coastline points are (lat, lon) pairs")


def load(path: Path | str = DATA_PATH) -> BrianBoruData:
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)
    return BrianBoruData(raw)


DATA = load()
