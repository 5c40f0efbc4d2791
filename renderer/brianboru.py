"""Brian Boru table image: an engine view (``BrianBoruGame.view(seat)``, docs/brian-boru.md) in, PNG out.

The picture has two parts. On the left, a map of Ireland drawn from the data file's coastline and
town coordinates (equirectangular, longitudes scaled by cos(latitude)): the eight regions shaded and
outlined (each town's nearest-neighbour cell, clipped to the coast), each with its name, threshold,
points and claim token (face down ``?``, face up on the board, or in a player's colour); roads;
towns in their colour *and* shape (red square, blue circle, yellow diamond: colour-blind safe);
player discs with the player's initial; Viking control markers; monasteries; the active-town
marker. On the right: the players (coins, renown, invaders, church discs, VP, marriage cards,
claims, hand and draft status), the marriage track with its bonuses and the revealed marriage card,
the battle area, the church area, the trick in progress and, at the end, the final scoring.

A hand is never part of this picture: :func:`render_hand` draws one player's hand (and the cards in
front of them during the draft) for private replies only.

The map geometry comes from ``engine.brianboru.data`` (the house data file), computed once per process.

    python -m renderer.brianboru POSITION.txt -o out.png   # a position in brian-boru-notation.md
    python -m renderer.brianboru VIEW.json -o out.png      # a view dict saved as JSON
    python -m renderer.brianboru VIEW.json --hand 2 -o hand.png   # seat 2's hand (the view needs "you")
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFilter

from engine.brianboru.data import DATA, marriage_title, tokenize
from engine.core import msg_text
from renderer.common import (
    GOLD,
    GOLD_DARK,
    INK,
    MUTED,
    N_,
    PAPER,
    RGB,
    WHITE,
    coin,
    display_name,
    encode_png,
    is_view_json,
    ntr,
    read_source,
    readable_on,
    star,
    text,
    text_width,
    tr,
    translated,
    wrap,
    write_png,
)
from renderer.picture import MIN_HAND_TEXT

# --------------------------------------------------------------------------- palette

SEA: RGB = (196, 222, 238)
COAST: RGB = (92, 80, 62)
ROAD: RGB = (140, 112, 80)
BORDER: RGB = (96, 84, 70)
PANEL_BG: RGB = (252, 250, 245)
PANEL_EDGE: RGB = (200, 192, 178)
# the game's town / card colours; every town also has its own shape, every card its word
TOWN_COLOURS: dict[str, RGB] = {"red": (200, 40, 40), "blue": (30, 90, 200), "yellow": (245, 210, 40)}
CARD_COLOURS: dict[str, RGB] = {**TOWN_COLOURS, "white": (250, 250, 250)}
TOWN_SHAPES = {"red": "square", "blue": "circle", "yellow": "diamond"}
# seat colours away from the three town colours and from the Vikings' black; initials on every disc
SEAT_COLOURS: list[RGB] = [(126, 58, 160), (0, 150, 100), (235, 130, 20), (215, 110, 170), (120, 80, 45)]
VIKING: RGB = (25, 25, 25)
MONASTERY: RGB = (250, 248, 240)
CARD_BACK_KEPT: RGB = (46, 104, 78)     # a kept card, face down (the draft, B-14)
CARD_BACK_FRONT: RGB = (214, 198, 160)  # a card in front of a player, still to choose from
ACTIVE: RGB = GOLD
LAST_MARK: RGB = (160, 20, 130)
# soft land shades, one per region (data order); neighbours differ
REGION_SHADES: list[RGB] = [
    (214, 226, 176), (236, 214, 170), (200, 214, 200), (226, 222, 160),
    (236, 200, 190), (196, 218, 170), (222, 206, 226), (240, 226, 190),
]

# --------------------------------------------------------------------------- sizes

MAP_H = 1000          # map height in pixels (the width follows from the projection)
MAP_PAD = 0.12        # degrees of sea around the island
SIDE_W = 640          # the side panel
MARGIN = 14
TOWN_R = 12           # half the size of a town's shape
MIN_TOWN_GAP = 32     # towns closer than this on the map are nudged apart (schematic, like the board)
LABEL = 16            # town name size (issue 14: legible when opened)
SS = 2                # supersampling of the static base map

MAX_WIDTH = 1600


def seat_colour(seat: int) -> RGB:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


# --------------------------------------------------------------------------- geometry (static, cached)


@dataclass(frozen=True)
class MapGeometry:
    width: int
    height: int
    towns: dict[str, tuple[float, float]]        # town name -> pixel centre on the map
    coast: list[tuple[float, float]]
    region_label: dict[str, tuple[float, float, float, float]]  # region id -> label box
    town_label: dict[str, tuple[float, float, str]]             # town -> (x, y, anchor)


def _project() -> tuple[Any, float, float]:
    lats = [p[0] for p in DATA.coastline] + [t["lat"] for t in DATA.raw["towns"]]
    lons = [p[1] for p in DATA.coastline] + [t["lon"] for t in DATA.raw["towns"]]
    lat0, lat1 = min(lats) - MAP_PAD, max(lats) + MAP_PAD
    lon0, lon1 = min(lons) - MAP_PAD, max(lons) + MAP_PAD
    k = math.cos(math.radians((lat0 + lat1) / 2))
    scale = MAP_H / (lat1 - lat0)
    width = (lon1 - lon0) * k * scale

    def proj(lat: float, lon: float) -> tuple[float, float]:
        return ((lon - lon0) * k * scale, (lat1 - lat) * scale)

    return proj, width, scale


def _spread(points: dict[str, tuple[float, float]], gap: float) -> dict[str, tuple[float, float]]:
    """Push towns that lie closer than ``gap`` apart a little (deterministic, a few rounds)."""
    pts = {n: list(p) for n, p in points.items()}
    names = list(pts)
    for _ in range(40):
        moved = False
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                pa, pb = pts[a], pts[b]
                dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                dist = math.hypot(dx, dy)
                if dist >= gap:
                    continue
                if dist < 1e-6:
                    dx, dy, dist = 1.0, 0.0, 1.0
                push = (gap - dist) / 2 + 0.5
                ux, uy = dx / dist, dy / dist
                pa[0] -= ux * push
                pa[1] -= uy * push
                pb[0] += ux * push
                pb[1] += uy * push
                moved = True
        if not moved:
            break
    return {n: (p[0], p[1]) for n, p in pts.items()}


def _overlaps(box: tuple[float, float, float, float], boxes: list[tuple[float, float, float, float]]) -> bool:
    x0, y0, x1, y1 = box
    return any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in boxes)


@lru_cache(maxsize=1)
def geometry() -> MapGeometry:
    proj, width, _scale = _project()
    w, h = int(math.ceil(width)), MAP_H
    raw = {t["name"]: proj(t["lat"], t["lon"]) for t in DATA.raw["towns"]}
    towns = _spread(raw, MIN_TOWN_GAP)
    coast = [proj(lat, lon) for lat, lon in DATA.coastline]
    # town labels: below, above, right, left — the first place free of towns and earlier labels
    taken: list[tuple[float, float, float, float]] = [
        (x - TOWN_R - 3, y - TOWN_R - 3, x + TOWN_R + 3, y + TOWN_R + 3) for x, y in towns.values()]
    labels: dict[str, tuple[float, float, str]] = {}
    for name in DATA.town_names:
        x, y = towns[name]
        tw = text_width(name, LABEL) + 4
        th = LABEL + 2
        options = [
            (x, y + TOWN_R + 3, "ma", (x - tw / 2, y + TOWN_R + 2, x + tw / 2, y + TOWN_R + 3 + th)),
            (x, y - TOWN_R - 3, "md", (x - tw / 2, y - TOWN_R - 3 - th, x + tw / 2, y - TOWN_R - 2)),
            (x + TOWN_R + 4, y, "lm", (x + TOWN_R + 3, y - th / 2, x + TOWN_R + 4 + tw, y + th / 2)),
            (x - TOWN_R - 4, y, "rm", (x - TOWN_R - 4 - tw, y - th / 2, x - TOWN_R - 3, y + th / 2)),
        ]
        chosen = None
        for lx, ly, anchor, box in options:
            inside = box[0] >= 2 and box[2] <= w - 2 and box[1] >= 2 and box[3] <= h - 2
            if inside and not _overlaps(box, taken):
                chosen = (lx, ly, anchor, box)
                break
        if chosen is None:
            chosen = next((o for o in options if o[3][0] >= 2 and o[3][2] <= w - 2), options[0])
        labels[name] = chosen[:3]
        taken.append(chosen[3])
    # region labels: near the middle of the region's towns, spiralling out to a free place
    region_label: dict[str, tuple[float, float, float, float]] = {}
    lw, lh = 150, 46  # fits a 16 px region name and its threshold line beside the claim token
    for r, rid in enumerate(DATA.region_ids):
        pts = [towns[DATA.town_names[t]] for t in DATA.region_towns[r]]
        cx = sum(p[0] for p in pts) / len(pts)
        cy = sum(p[1] for p in pts) / len(pts)
        best = None
        for ring in range(0, 40):
            for step in range(max(1, ring * 8)):
                a = 2 * math.pi * step / max(1, ring * 8)
                x = cx + math.cos(a) * ring * 7 - lw / 2
                y = cy + math.sin(a) * ring * 7 - lh / 2
                box = (x, y, x + lw, y + lh)
                if box[0] < 4 or box[2] > w - 4 or box[1] < 4 or box[3] > h - 4:
                    continue
                if not _overlaps(box, taken):
                    best = box
                    break
            if best:
                break
        best = best or (cx - lw / 2, cy - lh / 2, cx + lw / 2, cy + lh / 2)
        region_label[rid] = best
        taken.append(best)
    return MapGeometry(w, h, towns, coast, region_label, labels)


def _clip(poly: list[tuple[float, float]], a: tuple[float, float], b: tuple[float, float]) -> list[tuple[float, float]]:
    """The part of ``poly`` nearer to ``a`` than to ``b`` (Sutherland–Hodgman on their bisector)."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    nx, ny = b[0] - a[0], b[1] - a[1]

    def side(p: tuple[float, float]) -> float:
        return (p[0] - mx) * nx + (p[1] - my) * ny

    out = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        sp, sq = side(p), side(q)
        if sp <= 0:
            out.append(p)
        if (sp < 0 < sq) or (sq < 0 < sp):
            t = sp / (sp - sq)
            out.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
    return out


@lru_cache(maxsize=1)
def base_map() -> Image.Image:
    """Sea, the regions shaded and outlined, the coast and the roads: what never changes."""
    g = geometry()
    W, H = g.width * SS, g.height * SS
    sc = [(x * SS, y * SS) for x, y in g.coast]
    names = DATA.town_names
    pts = {n: (g.towns[n][0] * SS, g.towns[n][1] * SS) for n in names}
    # regions: each town's nearest-neighbour cell in its region's shade and its region's label value
    shade = Image.new("RGB", (W, H), SEA)
    label = Image.new("L", (W, H), 0)
    ds, dl = ImageDraw.Draw(shade), ImageDraw.Draw(label)
    frame: list[tuple[float, float]] = [(-W, -H), (2 * W, -H), (2 * W, 2 * H), (-W, 2 * H)]
    for i, n in enumerate(names):
        cell = frame
        for m in names:
            if m != n and cell:
                cell = _clip(cell, pts[n], pts[m])
        if len(cell) >= 3:
            r = DATA.town_region[i]
            ds.polygon(cell, fill=REGION_SHADES[r % len(REGION_SHADES)])
            dl.polygon(cell, fill=(r + 1) * 28)
    land = Image.new("L", (W, H), 0)
    ImageDraw.Draw(land).polygon(sc, fill=255)
    img = Image.new("RGB", (W, H), SEA)
    img.paste(shade, (0, 0), land)
    # region borders where the label changes, inside the land only
    edges = label.filter(ImageFilter.FIND_EDGES).point(lambda v: 255 if v > 0 else 0)
    edges = edges.filter(ImageFilter.MaxFilter(3))
    inner = land.filter(ImageFilter.MinFilter(5))
    mask = Image.new("L", (W, H), 0)
    mask.paste(edges, (0, 0), inner)
    img.paste(Image.new("RGB", (W, H), BORDER), (0, 0), mask)
    d = ImageDraw.Draw(img)
    d.line([*sc, sc[0]], fill=COAST, width=3 * SS, joint="curve")
    for a, b in DATA.raw["roads"]:
        (x0, y0), (x1, y1) = pts[a], pts[b]
        _dashed(d, x0, y0, x1, y1, ROAD, 3 * SS, 7 * SS)
    return img.resize((g.width, g.height), Image.Resampling.LANCZOS)


def _dashed(d: ImageDraw.ImageDraw, x0: float, y0: float, x1: float, y1: float, fill: RGB, width: int,
            dash: float) -> None:
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    t = 0.0
    while t < length:
        e = min(length, t + dash)
        d.line((x0 + ux * t, y0 + uy * t, x0 + ux * e, y0 + uy * e), fill=fill, width=width)
        t += dash * 1.8


# --------------------------------------------------------------------------- view checks


def _check(view: Any) -> None:
    if not isinstance(view, dict) or view.get("game") != "brian-boru":
        raise ValueError("render_brianboru needs a Brian Boru view (view['game'] == 'brian-boru')")
    players = view.get("players")
    if not isinstance(players, list) or not players:
        raise ValueError("the view has no players")
    towns = view.get("towns")
    if not isinstance(towns, list):
        raise ValueError("the view has no towns")
    for t in towns:
        if t.get("name") not in DATA.town_index:
            raise ValueError(f"unknown town {t.get('name')!r} in the view")
        o = t.get("owner")
        if o is not None and not 0 <= o < len(players):
            raise ValueError(f"town {t['name']}: owner {o} is not a seat of this table")


def initials(view: dict[str, Any]) -> list[str]:
    """One letter per seat: the name's first letter, or the seat number when letters repeat."""
    firsts = [display_name(p.get("name"))[:1].upper() for p in view["players"]]
    if len(set(firsts)) == len(firsts) and all(c.isascii() and c.isalnum() for c in firsts):
        return firsts
    return [str(i + 1) for i in range(len(firsts))]


def _name(view: dict[str, Any], seat: int | None) -> str:
    if seat is None:
        return "-"
    for p in view["players"]:
        if p.get("seat") == seat:
            return display_name(p.get("name"))
    return tr("seat {seat}", seat=seat)


# --------------------------------------------------------------------------- symbols as words

COLOUR_WORDS = {"red": N_("red"), "blue": N_("blue"), "yellow": N_("yellow"), "white": N_("white")}
"""Card and town colours (keys of the view) as English message ids: translate with ``tr`` where drawn."""


_SYMBOLS = {"coin": N_("coin"), "pay": N_("pay a coin"), "battle": N_("invader"), "control": N_("control"),
            "renown": N_("renown"), "church": N_("church"), "marriage": N_("marriage"), "expand": N_("expand"),
            "free": N_("free a town")}


def _symbol_words(tok: str, n: int) -> str:
    """One B-22 symbol, ``n`` times, in the table's language (one: the word; more: a plural message,
    so a word such as "renown" has one catalog entry, not a singular and a plural one)."""
    if n == 1:
        return tr(_SYMBOLS[tok]) if tok in _SYMBOLS else tok
    if tok == "coin":
        return ntr("{n} coin", "{n} coins", n)
    if tok == "pay":
        return ntr("pay {n} coin", "pay {n} coins", n)
    if tok == "battle":
        return ntr("{n} invader", "{n} invaders", n)
    if tok == "control":
        return ntr("{n} control", "{n} control", n)
    if tok == "renown":
        return ntr("{n} renown", "{n} renown", n)
    if tok == "church":
        return ntr("{n} church", "{n} church", n)
    if tok == "marriage":
        return ntr("{n} marriage", "{n} marriage", n)
    if tok == "expand":
        return ntr("{n} expand", "{n} expand", n)
    if tok == "free":
        return ntr("free {n} town", "free {n} towns", n)
    return f"{n} {tok}"


def action_words(symbols: str) -> str:
    """``"coin coin coin expand"`` → ``"3 coins, expand"`` (B-22 symbols as short words)."""
    out: list[list[Any]] = []
    for tok in tokenize(symbols):
        if out and out[-1][0] == tok:
            out[-1][1] += 1
        else:
            out.append([tok, 1])
    words = []
    for tok, n in out:
        if tok.startswith("vp "):
            words.append(tr("{vp} VP", vp=int(tok[3:]) * n))
            continue
        if tok.startswith("town in "):
            rid = tok[8:]
            name = DATA.region_names[DATA.region_index[rid]] if rid in DATA.region_index else rid
            words.append(ntr("town in {region}", "{n} towns in {region}", n, region=name))
            continue
        words.append(_symbol_words(tok, n))
    return ", ".join(words)


def card_text(value: int) -> tuple[str, str, list[str]]:
    """(colour, main action words, secondary action words) of action card ``value``."""
    c = DATA.cards[value]
    colour = ("red", "blue", "yellow", "white")[c.colour]
    return colour, action_words(c.main_text), [action_words(s) for s in c.secondary_text]


# --------------------------------------------------------------------------- pieces


def town_shape(d: ImageDraw.ImageDraw, x: float, y: float, colour: str, r: float = TOWN_R) -> None:
    fill = TOWN_COLOURS.get(colour, (150, 150, 150))
    shape = TOWN_SHAPES.get(colour, "circle")
    if shape == "square":
        d.rectangle((x - r * 0.9, y - r * 0.9, x + r * 0.9, y + r * 0.9), fill=fill, outline=INK, width=2)
    elif shape == "diamond":
        k = r * 1.25
        d.polygon([(x, y - k), (x + k, y), (x, y + k), (x - k, y)], fill=fill, outline=INK, width=2)
    else:
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=2)


def disc(d: ImageDraw.ImageDraw, x: float, y: float, r: float, seat: int, letter: str) -> None:
    col = seat_colour(seat)
    d.ellipse((x - r - 1, y - r - 1, x + r + 1, y + r + 1), fill=WHITE)
    d.ellipse((x - r, y - r, x + r, y + r), fill=col, outline=INK, width=1)
    size = max(9, int(r * 1.35))
    text(d, (x, y + 0.5), letter, size, fill=readable_on(col), anchor="mm", bold=True)


def viking_marker(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    """A black shield with a white V (a Viking control marker, B-28)."""
    d.polygon([(x - r, y - r), (x + r, y - r), (x + r, y + r * 0.2), (x, y + r * 1.2), (x - r, y + r * 0.2)],
              fill=VIKING, outline=WHITE)
    text(d, (x, y - r * 0.05), "V", max(9, int(r * 1.4)), fill=WHITE, anchor="mm", bold=True)


def monastery_glyph(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    """A small white church with a cross (a monastery, B-30)."""
    d.rectangle((x - r, y - r * 0.2, x + r, y + r), fill=MONASTERY, outline=INK)
    d.polygon([(x - r * 1.15, y - r * 0.15), (x, y - r * 0.95), (x + r * 1.15, y - r * 0.15)], fill=(150, 60, 40),
              outline=INK)
    d.line((x, y - r * 1.6, x, y - r * 0.9), fill=INK, width=2)
    d.line((x - r * 0.35, y - r * 1.35, x + r * 0.35, y - r * 1.35), fill=INK, width=2)


def claim_token(d: ImageDraw.ImageDraw, x: float, y: float, r: float, claim: dict[str, Any],
                letters: list[str]) -> None:
    """A hexagonal claim token: face down ``?``, face up gold with its points, or in its owner's colour."""
    pts = [(x + r * math.cos(math.pi / 6 + i * math.pi / 3), y + r * math.sin(math.pi / 6 + i * math.pi / 3))
           for i in range(6)]
    owner = claim.get("owner")
    if not claim.get("face_up"):
        d.polygon(pts, fill=(150, 140, 125), outline=INK)
        text(d, (x, y), "?", int(r * 1.2), fill=WHITE, anchor="mm", bold=True)
    elif owner is None:
        d.polygon(pts, fill=GOLD, outline=GOLD_DARK, width=2)
        text(d, (x, y), str(claim.get("points", "")), int(r * 1.05), fill=INK, anchor="mm", bold=True)
    else:
        col = seat_colour(owner)
        d.polygon(pts, fill=col, outline=GOLD, width=3)
        letter = letters[owner] if owner < len(letters) else "?"
        text(d, (x, y), letter, int(r * 1.05), fill=readable_on(col), anchor="mm", bold=True)


def _detail_lines(value: int, ts: int, wmax: float) -> tuple[list[str], list[str], list[str], list[str]]:
    """The wrapped lines of a detailed card face: win label, main action, lose label, secondary ones."""
    _colour, main, secondary = card_text(value)
    lose = ntr("if it loses:", "if it loses, one of:", len(secondary))
    sec = [ln for i, s in enumerate(secondary, 1) for ln in wrap(f"{i}) {s}" if len(secondary) > 1 else s, ts, wmax)]
    return wrap(tr("if it wins:"), ts, wmax), wrap(main, ts, wmax), wrap(lose, ts, wmax), sec


def card_detail_height(value: int, width: float, text_size: int, band: float) -> float:
    """The height a detailed :func:`card_face` ``width`` px wide needs for all its lines."""
    step = text_size + 3
    return band + 8 + step * sum(map(len, _detail_lines(value, text_size, width - 14))) + 5 + 10


def card_face(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], value: int, *,
              detail: bool = False, outline: RGB = INK, width: int = 2, text_size: int = 14,
              band: float | None = None) -> None:
    """An action card: its colour (and the colour's word), its value, and with ``detail`` its actions
    (``text_size``: the size of the action texts and their labels; ``band``: the coloured band's
    height, default a share of the card's)."""
    x0, y0, x1, y1 = box
    colour = card_text(value)[0]
    fill = CARD_COLOURS[colour]
    d.rounded_rectangle(box, radius=8, fill=WHITE, outline=outline, width=width)
    band = band if band is not None and detail else (y1 - y0) * (0.62 if not detail else 0.36)
    d.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y0 + band), radius=6, fill=fill,
                        outline=INK if colour == "white" else fill)
    fg = readable_on(fill)
    if not detail:
        big = int(min((x1 - x0) * 0.5, band * 0.62))
        text(d, ((x0 + x1) / 2, y0 + 3 + (band - 3) / 2), str(value), big, fill=fg, anchor="mm", bold=True)
        text(d, ((x0 + x1) / 2, y1 - 5), _colour_word(colour).upper(), 12, fill=INK, anchor="md", bold=True,
             within=(x0 + 2, y0, x1 - 2, y1))
        return
    ts = text_size
    step = ts + 3
    text(d, (x0 + 9, y0 + 7), _colour_word(colour).upper(), ts - 1 if ts <= 14 else ts, fill=fg, bold=True,
         within=(x0 + 7, y0, (x0 + x1) / 2 - 14, y0 + band))
    text(d, ((x0 + x1) / 2, y0 + band * 0.62), str(value), int(band * 0.55), fill=fg, anchor="mm", bold=True)
    y = y0 + band + 8
    wmax = x1 - x0 - 14
    label = ts - 1 if ts <= 14 else ts
    inside = (x0 + 5, y0, x1 - 5, y1)
    soft = MUTED if ts <= 14 else (92, 84, 72)
    wins, mains, loses, lines = _detail_lines(value, ts, wmax)
    for ln in wins:  # a long translation of a label wraps (the hand picture's narrow cards)
        text(d, (x0 + 7, y), ln, label, fill=soft, bold=True, within=inside)
        y += step
    for ln in mains:
        text(d, (x0 + 7, y), ln, ts, within=inside)
        y += step
    y += 5
    for ln in loses:
        text(d, (x0 + 7, y), ln, label, fill=soft, bold=True, within=inside)
        y += step
    room = max(1, int((y1 - 4 - y) // step))  # a long translation: the last line that fits ends in ..
    if len(lines) > room:
        lines = lines[: room - 1] + [lines[room - 1] + " .........."]
    for ln in lines:
        text(d, (x0 + 7, y), ln, ts, within=inside)
        y += step


def _colour_word(colour: str) -> str:
    return tr(COLOUR_WORDS[colour]) if colour in COLOUR_WORDS else colour


# --------------------------------------------------------------------------- the map


def _draw_map(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], ox: int, oy: int,
              letters: list[str], last: set[str]) -> None:
    g = geometry()
    img.paste(base_map(), (ox, oy))
    d.rectangle((ox, oy, ox + g.width - 1, oy + g.height - 1), outline=PANEL_EDGE, width=1)
    claims = {c["region"]: c for c in view.get("claims") or []}
    # region labels with threshold, points and the claim token
    for rid, box in g.region_label.items():
        x0, y0, x1, y1 = (v + o for v, o in zip(box, (ox, oy, ox, oy)))
        d.rounded_rectangle((x0, y0, x1, y1), radius=6, fill=(255, 252, 240), outline=BORDER)
        r = DATA.region_index[rid]
        c = claims.get(rid, {"face_up": False, "owner": None, "points": DATA.points[r],
                             "threshold": DATA.thresholds[r]})
        text(d, (x0 + 6, y0 + 4), DATA.region_names[r].upper(), 14, bold=True, within=(x0 + 4, y0, x1 - 28, y1))
        need = tr("{n}+ towns  {vp} VP", n=c.get("threshold", DATA.thresholds[r]), vp=c.get("points", DATA.points[r]))
        text(d, (x0 + 6, y0 + 24), need, 16, fill=(92, 84, 72), within=(x0 + 4, y0, x1 - 28, y1))
        claim_token(d, x1 - 15, (y0 + y1) / 2, 12, c, letters)
    active = view.get("active_town")
    for t in view["towns"]:
        name = t["name"]
        x, y = g.towns[name]
        x, y = x + ox, y + oy
        if name in last:
            d.ellipse((x - TOWN_R - 9, y - TOWN_R - 9, x + TOWN_R + 9, y + TOWN_R + 9), outline=LAST_MARK, width=3)
        if name == active:
            d.ellipse((x - TOWN_R - 7, y - TOWN_R - 7, x + TOWN_R + 7, y + TOWN_R + 7), fill=ACTIVE,
                      outline=GOLD_DARK, width=2)
        town_shape(d, x, y, t["colour"])
        if t.get("owner") is not None:
            disc(d, x, y, TOWN_R * 0.78, t["owner"], letters[t["owner"]])
        if t.get("monastery"):
            monastery_glyph(d, x - TOWN_R - 2, y + TOWN_R - 3, 7)
        if t.get("viking"):
            viking_marker(d, x + TOWN_R + 2, y - TOWN_R + 1, 8.5)
        lx, ly, anchor = g.town_label[name]
        text(d, (lx + ox, ly + oy), name, LABEL, fill=INK, anchor=anchor)
    _draw_legend(d, ox + 10, oy + g.height - 134)


def _draw_legend(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    d.rounded_rectangle((x, y, x + 170, y + 124), radius=6, fill=(255, 252, 240), outline=PANEL_EDGE)
    box = (x, y, x + 170, y + 124)
    rows = [("red", tr("red town")), ("blue", tr("blue town")), ("yellow", tr("yellow town"))]
    for i, (colour, label) in enumerate(rows):
        town_shape(d, x + 16, y + 13 + i * 20, colour, 7)
        text(d, (x + 32, y + 13 + i * 20), label, 16, anchor="lm", within=(x + 30, y, x + 168, y + 124))
    viking_marker(d, x + 16, y + 72, 6)
    text(d, (x + 32, y + 73), tr("Vikings"), 16, anchor="lm", within=(x + 30, box[1], box[2] - 2, box[3]))
    monastery_glyph(d, x + 16, y + 94, 5)
    text(d, (x + 32, y + 93), tr("monastery"), 16, anchor="lm", within=(x + 30, box[1], box[2] - 2, box[3]))
    d.ellipse((x + 9, y + 106, x + 23, y + 120), fill=ACTIVE, outline=GOLD_DARK)
    text(d, (x + 32, y + 113), tr("active town"), 16, anchor="lm", within=(x + 30, box[1], box[2] - 2, box[3]))


# --------------------------------------------------------------------------- the side panel

PHASE_WORDS = {"setup": N_("set-up: start towns"), "draft": N_("draft"), "tricks": N_("tricks"),
               "upkeep": N_("upkeep"), "over": N_("game over")}
PENDING_WORDS = {"town": N_("place a disc"), "keep": N_("keep 2 cards"), "active": N_("choose the active town"),
                 "lead": N_("lead a card"), "play": N_("play a card"), "option": N_("choose a secondary action"),
                 "extra": N_("pay for extras"), "expand": N_("expand or not"), "free": N_("free a town"),
                 "princess": N_("decide on the Princess"), "raid": N_("choose the raided town"),
                 "monastery": N_("place a monastery")}
"""Phase and decision words (English message ids: translate with ``tr`` where drawn)."""
PRINCESS_WORDS = {"support": N_("support"), "trade": N_("trade"), "refuse": N_("refuse")}


def card_title(revealed: dict[str, Any]) -> str:
    """The marriage card on offer's title in the picture's language (issue 16; the id stays in data)."""
    return marriage_title(str(revealed.get("id")), str(revealed.get("title"))).translate(tr, ntr)


def _section(d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, title: str) -> int:
    d.rounded_rectangle((x, y, x + w, y + h), radius=8, fill=PANEL_BG, outline=PANEL_EDGE)
    text(d, (x + 10, y + 6), title, 15, fill=MUTED, bold=True, within=(x + 8, y, x + w - 8, y + h))
    return y + 26


def _status(view: dict[str, Any]) -> str:
    p = view.get("pending")
    phase = view.get("phase")
    if phase == "over" or p is None:
        return tr(PHASE_WORDS[phase]) if phase in PHASE_WORDS else ""
    kind = p.get("kind", "")
    what = tr(PENDING_WORDS[kind]) if kind in PENDING_WORDS else kind
    if kind == "keep":
        waiting = [_name(view, s) for s in p.get("seats") or []]
        return tr("draft: waiting for {names} to keep 2 cards", names=", ".join(waiting))
    return tr("{name} to {what}", name=_name(view, p.get("seat")), what=what)


def _players_height(view: dict[str, Any]) -> int:
    return 30 + 54 * len(view["players"])


def _draw_players(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int, letters: list[str]) -> int:
    h = _players_height(view)
    y = _section(d, x, y, w, h, tr("PLAYERS"))
    acting = set(view.get("acting") or [])
    claims = view.get("claims") or []
    phase = view.get("phase")
    for p in view["players"]:
        s = p["seat"]
        if s in acting:
            d.rounded_rectangle((x + 4, y - 2, x + w - 4, y + 50), radius=6, fill=(255, 240, 200))
        disc(d, x + 20, y + 12, 10, s, letters[s])
        marks = []
        if view.get("marker") == s:
            marks.append(tr("holds the marker"))
        if view.get("start_player") == s:
            marks.append(tr("start player"))
        if p.get("princess"):
            choice = str(p["princess"])  # B-27: support | trade | refuse
            marks.append(tr("Princess: {choice}", choice=tr(PRINCESS_WORDS[choice]) if choice in PRINCESS_WORDS
                            else choice))
        head = display_name(p.get("name")) + (f"  ({', '.join(marks)})" if marks else "")
        hw = text(d, (x + 38, y + 3), head, 16, bold=s in acting, max_width=w - 170)
        mine = [c for c in claims if c.get("owner") == s]
        if mine and w - 150 - hw > 40:
            words = ", ".join(f"{c.get('name')} {c.get('points')}" for c in mine)
            text(d, (x + 50 + hw, y + 5), tr("claims: {claims}", claims=words), 14, fill=GOLD_DARK, bold=True,
                 max_width=w - 150 - hw)
        # VP big at the right
        text(d, (x + w - 12, y + 2), tr("{vp} VP", vp=p.get("vp", 0)), 18, anchor="ra", bold=True, max_width=100)
        cx: float = x + 38
        yy = y + 29
        coin(d, cx + 7, yy + 7, 7)
        cx += text(d, (cx + 18, yy), str(p.get("coins", 0)), 14) + 30
        star(d, cx, yy + 7, 7, fill=GOLD)
        if phase == "draft":
            status = tr("kept") if p.get("chosen") else (tr("choosing") if s in acting else "")
            status = (tr("hand {n}", n=p.get("hand_size", 0)) + "  " + status).strip()
        elif phase == "tricks":
            status = tr("hand {n}", n=p.get("hand_size", 0))
        else:
            status = ""
        end = x + w - 12 - (text_width(status, 13) + 16 if status else 0)  # the counters stop before the hand
        m = p.get("marriages") or []
        for i, word in enumerate((tr("renown {n}", n=p.get("renown", 0)), tr("invaders {n}", n=p.get("invaders", 0)),
                                  tr("church {n}", n=p.get("church", 0)), tr("marriages {n}", n=len(m)))):
            start = cx + 10 if i == 0 else cx
            if end - start < 40:
                break
            cx += text(d, (start, yy), word, 14, max_width=(end - start) / (4 - i)) + (24 if i == 0 else 14)
        if status:
            text(d, (x + w - 12, yy), status, 13, fill=MUTED, anchor="ra", max_width=w / 3)
        y += 54
    return y + 4


def _draw_marriage(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int,
                   letters: list[str]) -> int:
    h = 150
    y = _section(d, x, y, w, h, tr("MARRIAGE TRACK"))
    spaces = DATA.top_space
    sw = (w - 20) / spaces
    by = y + 2
    for i in range(1, spaces + 1):
        bx = x + 10 + (i - 1) * sw
        d.rounded_rectangle((bx + 2, by, bx + sw - 2, by + 62), radius=5, fill=(250, 238, 238),
                            outline=PANEL_EDGE)
        text(d, (bx + 6, by + 3), str(i), 12, fill=MUTED)
        bonus = DATA.track[i]
        cx = bx + sw / 2
        if bonus == "coin":
            coin(d, cx + 6, by + 10, 6)
        elif bonus == "renown":
            star(d, cx + 6, by + 10, 7, fill=GOLD)
        elif bonus == "any town":
            d.rectangle((cx, by + 4, cx + 12, by + 16), fill=(200, 200, 200), outline=INK)
            text(d, (cx + 6, by + 10), "+", 12, anchor="mm", bold=True)
        here = [p["seat"] for p in view["players"] if p.get("track", 1) == i]
        for k, s in enumerate(here):
            col, row = k % 3, k // 3
            disc(d, bx + 12 + col * 17, by + 30 + row * 18, 7.5, s, letters[s])
    text(d, (x + 10, by + 66), tr("bonus beside a disc: coin / renown / a disc on any town ({rule})", rule="B-25"),
         12, fill=MUTED, max_width=w - 20)
    m = view.get("marriage") or {}
    rev = m.get("revealed")
    yy = by + 86
    if rev:
        d.rounded_rectangle((x + 10, yy, x + w - 10, yy + 30), radius=6, fill=(255, 246, 214), outline=GOLD)
        reward = action_words(str(rev.get("reward") or "").replace(",", " ")) or tr(
            "support, trade or 4 VP ({rule})", rule="B-27")
        line = tr("On offer: {card} - {reward}", card=card_title(rev), reward=reward)
        text(d, (x + 18, yy + 8), line, 14, bold=True, max_width=w - 150)
    else:
        text(d, (x + 18, yy + 8), tr("No marriage card on offer."), 14, fill=MUTED, max_width=w - 150)
    text(d, (x + w - 18, yy + 8), tr("stack: {n} left", n=m.get("stack_left", 0)), 13, fill=MUTED, anchor="ra",
         max_width=110)
    return y + h - 22


def _draw_battle_church(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int,
                        letters: list[str]) -> int:
    h = 92
    half = (w - 10) // 2
    yy = _section(d, x, y, half, h, tr("BATTLE AREA"))
    n = int(view.get("battle") or 0)
    for i in range(min(n, 12)):
        cx = x + 20 + i * 19
        d.polygon([(cx, yy + 2), (cx + 8, yy + 8), (cx, yy + 14), (cx - 8, yy + 8)], fill=(90, 90, 90),
                  outline=INK)
    text(d, (x + 12, yy + 20), ntr("{n} invader waiting", "{n} invaders waiting", n), 14, bold=True,
         max_width=half - 20)
    rev = view.get("viking_cards_revealed") or []
    cards = tr("Viking cards: {cards}, {n} left", cards=" ".join(map(str, rev)) or "-",
               n=view.get("viking_cards_left", 0))
    text(d, (x + 12, yy + 40), cards, 12, fill=MUTED, max_width=half - 20)
    cx0 = x + half + 10
    yy = _section(d, cx0, y, w - half - 10, h, tr("CHURCH AREA"))
    for k, p in enumerate(view["players"]):
        col, row = k % 3, k // 3
        px = cx0 + 12 + col * 98
        py = yy + row * 30
        disc(d, px + 8, py + 9, 8, p["seat"], letters[p["seat"]])
        c = int(p.get("church") or 0)
        for j in range(min(c, 5)):
            d.rectangle((px + 22 + j * 10, py + 3, px + 29 + j * 10, py + 15), fill=seat_colour(p["seat"]),
                        outline=INK)
        text(d, (px + 24 + min(c, 5) * 10, py + 2), str(c), 13, bold=True)
    return y + h + 8


def _draw_trick(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int, letters: list[str]) -> int:
    trick = view.get("trick") or {}
    cards = trick.get("cards") or []
    h = 142
    title = tr("CURRENT TRICK")
    if view.get("phase") == "tricks":
        title = tr("TRICK {trick} OF {tricks}", trick=trick.get("number", 1), tricks=trick.get("of", "?"))
    yy = _section(d, x, y, w, h, title)
    active = view.get("active_town")
    if active:
        colour = next((t["colour"] for t in view["towns"] if t["name"] == active), "")
        town_shape(d, x + w - 150, yy - 14, colour, 7)
        text(d, (x + w - 138, yy - 14), tr("for {town} ({colour})", town=active, colour=_colour_word(colour)), 13,
             anchor="lm", max_width=130)
    if not cards:
        text(d, (x + 12, yy + 6), tr("No cards played yet.") if view.get("phase") == "tricks" else "-", 14,
             fill=MUTED, max_width=w - 24)
        return y + h + 8
    winner = trick.get("winner")
    cw, ch = 62, 82
    for i, c in enumerate(cards):
        cx = x + 12 + i * (cw + 40)
        wins = winner is not None and c.get("seat") == winner
        card_face(d, (cx, yy, cx + cw, yy + ch), c["card"], outline=GOLD if wins else INK, width=4 if wins else 2)
        disc(d, cx + cw + 12, yy + 12, 9, c["seat"], letters[c["seat"]])
        text(d, (cx, yy + ch + 3), _name(view, c["seat"]), 12, max_width=cw + 34)
        if i == 0:
            text(d, (cx + cw + 4, yy + 30), tr("led"), 12, fill=MUTED, max_width=36)
        if wins:
            star(d, cx + cw + 12, yy + 44, 8, fill=GOLD)
    return y + h + 8


def _final_height(view: dict[str, Any]) -> int:
    final = view.get("final")
    if not isinstance(final, dict):
        return 0
    return 40 + sum(20 * max(1, len(_final_lines(p))) + 8 for p in final.get("players") or [])


def _final_lines(p: dict[str, Any]) -> list[str]:
    return wrap("  ·  ".join(msg_text(x) for x in p.get("lines") or []), 12, SIDE_W - 190)  # issue 16


def _draw_final(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int, letters: list[str]) -> int:
    final = view["final"]
    h = _final_height(view)
    winners = final.get("winners") or []
    d.rounded_rectangle((x, y, x + w, y + h), radius=8, fill=(255, 246, 214), outline=GOLD, width=3)
    head = ntr("FINAL SCORING - winner: {names}", "FINAL SCORING - winners: {names}", max(1, len(winners)),
               names=", ".join(map(display_name, winners)) or "-")
    text(d, (x + 10, y + 8), head, 16, bold=True, max_width=w - 20)
    yy = y + 36
    for p in final.get("players") or []:
        seat = next((q["seat"] for q in view["players"] if q.get("name") == p.get("name")), None)
        if seat is not None:
            disc(d, x + 18, yy + 9, 8, seat, letters[seat])
        if p.get("name") in winners:
            star(d, x + 36, yy + 9, 7, fill=GOLD)
        text(d, (x + 48, yy + 1), tr("{name}: {vp} VP", name=display_name(p.get("name")), vp=p.get("vp")), 14, bold=True,
             max_width=120)
        lines = _final_lines(p)
        for i, ln in enumerate(lines):
            text(d, (x + 175, yy + 2 + 20 * i), ln, 12, max_width=w - 185)
        yy += 20 * max(1, len(lines)) + 8
    return y + h + 8


# --------------------------------------------------------------------------- public API


@translated(16)  # the picture's minimum text size (issue 14)
def draw_brianboru(view: dict[str, Any], *, last: bool = True, log: Any = None) -> Image.Image:
    """The table as a PIL image (``render_brianboru`` encodes it).

    ``view["last"] = {"towns": [names]}`` (optional, e.g. set from the last events) rings those
    towns; ``last=False`` leaves the ring out. ``log`` (a ``TextLog``) records every text drawn.
    """
    from renderer.common import recording, text_floor
    from renderer.picture import MIN_TABLE_TEXT

    _check(view)
    with recording(log), text_floor(MIN_TABLE_TEXT):  # issue 14: every text legible when opened
        return _draw_brianboru(view, last)


def _draw_brianboru(view: dict[str, Any], last: bool) -> Image.Image:
    g = geometry()
    letters = initials(view)
    marked: set[str] = set()
    if last and isinstance(view.get("last"), dict):
        marked = {str(t) for t in view["last"].get("towns") or []}
    side_x = MARGIN + g.width + MARGIN
    width = side_x + SIDE_W + MARGIN
    side_h = 44 + _players_height(view) + 8 + 150 + 8 + 100 + 150 + (_final_height(view) + 8)
    height = max(g.height + 2 * MARGIN + 30, side_h + 2 * MARGIN)
    img = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(img)
    rnd = view.get("round") or 0
    title = tr("Brian Boru")
    if rnd:
        title += " - " + tr("round {round} of {rounds}", round=rnd, rounds=view.get("rounds", "?"))
    tw = text(d, (MARGIN, MARGIN - 2), title, 22, bold=True, max_width=g.width * 0.55)
    text(d, (MARGIN + tw + 20, MARGIN + 4), _status(view), 15, fill=MUTED, max_width=g.width - tw - 20)
    _draw_map(img, d, view, MARGIN, MARGIN + 30, letters, marked)
    y = MARGIN
    y = _draw_players(d, view, side_x, y, SIDE_W, letters) + 4
    y = _draw_marriage(d, view, side_x, y, SIDE_W, letters) + 8
    y = _draw_battle_church(d, view, side_x, y, SIDE_W, letters)
    y = _draw_trick(d, view, side_x, y, SIDE_W, letters)
    if _final_height(view):
        _draw_final(d, view, side_x, y, SIDE_W, letters)
    return img


@translated(16)  # the picture's minimum text size (issue 14)
def render_brianboru(view: dict[str, Any], *, last: bool = True) -> bytes:
    """PNG bytes of the whole table (map and side panel). Never shows a hand."""
    return encode_png(draw_brianboru(view, last=last))


def town_centre(name: str) -> tuple[int, int]:
    """Where town ``name``'s shape is drawn in a :func:`render_brianboru` image (for tests and tools)."""
    g = geometry()
    x, y = g.towns[name]
    return int(round(x + MARGIN)), int(round(y + MARGIN + 30))


HAND_W = 1120                          # the chat width (issue 14)
HAND_PAD = 18
HAND_GAP = 12
HAND_SECTION_GAP = 30                  # between the hand and the cards in front (a rule in the middle)
HAND_MAX_COLS = 4                      # cards a row: 22 px words fit a card 259 px wide
HAND_MAX_CARD_W = 300
HAND_TOP = 62                          # below the title line
HAND_LABEL_H = 34                      # a row title ("Your hand is empty")
HAND_TEXT = 22                         # as a turn picture's: the hand reads at Discord's inline size
HAND_BAND = 62                         # a card's coloured band: colour word and value


@dataclass(frozen=True)
class HandLayout:
    """Where :func:`draw_hand` puts things: the hand and the cards in front side by side, each a
    block of ``rows`` rows, so that up to 8 cards (B-13) fill a picture of chat shape (about 1120 x
    600) whose words stay 22 px: at Discord's inline size (550 x 350) as legible as a turn picture's
    (QA, issue 13/14 follow-up; before, five narrow cards a row and 18 px words made 8 px inline)."""

    width: int
    height: int
    note: str                                                # a line above the blocks ("Your hand is empty")
    labels: list[tuple[list[str], float, float]]             # each block's title lines, its x range
    cards: list[tuple[int, tuple[int, int, int, int], bool]]  # value, box, in front of the player?
    label_y: int


def hand_layout(hand: list[int], draft: list[int], labels: list[str]) -> HandLayout:
    """The layout of ``hand`` and ``draft`` (the cards in front of the player) under ``labels``
    (one per block: the hand's, then the draft's)."""
    blocks = [(labels[0], hand, False)] if hand else []
    note = "" if hand or not draft else labels[0]
    if draft:
        blocks.append((labels[-1], draft, True))
    if not blocks:
        return HandLayout(HAND_W, 320, labels[0], [], [], HAND_TOP)
    rows = 1
    while sum(-(-len(c) // rows) for _, c, _d in blocks) > HAND_MAX_COLS:
        rows += 1
    cols = [-(-len(c) // rows) for _, c, _d in blocks]
    free = HAND_W - 2 * HAND_PAD - (sum(cols) - len(cols)) * HAND_GAP - (len(cols) - 1) * HAND_SECTION_GAP
    cw = int(min(HAND_MAX_CARD_W, free / sum(cols)))
    ch = int(max(card_detail_height(v, cw, HAND_TEXT, HAND_BAND) for _, c, _d in blocks for v in c))
    label_y = HAND_TOP + (HAND_LABEL_H if note else 0)
    placed: list[tuple[list[str], float, float]] = []
    x = HAND_PAD
    for (label, _cards, _d), n in zip(blocks, cols, strict=True):
        bw = n * cw + (n - 1) * HAND_GAP
        placed.append((wrap(label, HAND_TEXT, bw), x, x + bw))
        x += bw + HAND_SECTION_GAP
    label_h = 8 + (HAND_TEXT + 6) * max(len(lines) for lines, _a, _b in placed)
    top = label_y + label_h
    boxes: list[tuple[int, tuple[int, int, int, int], bool]] = []
    for (_label, cards, in_front), (_lines, bx, _bx1) in zip(blocks, placed, strict=True):
        n = -(-len(cards) // rows)
        for i, v in enumerate(cards):
            r, c = divmod(i, n)
            x0 = int(bx) + c * (cw + HAND_GAP)
            y0 = top + r * (ch + HAND_GAP)
            boxes.append((v, (x0, y0, x0 + cw, y0 + ch), in_front))
    height = max(top + rows * (ch + HAND_GAP) - HAND_GAP + HAND_PAD, 320)
    return HandLayout(HAND_W, height, note, placed, boxes, label_y)


@translated(MIN_HAND_TEXT)  # the picture's minimum text size (issue 14)
def draw_hand(view: dict[str, Any], seat: int, *, log: Any = None) -> Image.Image:
    """``seat``'s hand (and the cards in front of them while drafting, and their pending keep), every
    card's number, colour word and both actions at 22 px (see :class:`HandLayout`)."""
    from renderer.common import recording
    from renderer.picture import FRAME, FRAME_W

    if not isinstance(view, dict) or view.get("game") != "brian-boru":
        raise ValueError("render_hand needs a Brian Boru view (view['game'] == 'brian-boru')")
    you = view.get("you")
    if not isinstance(you, dict) or view.get("seat") != seat:
        raise ValueError(f"the view is not seat {seat}'s own view (view(seat) holds the hand under 'you')")
    hand = list(you.get("hand") or [])
    draft = list(you.get("draft") or [])
    choice = list(you.get("choice") or [])
    labels = [tr("Your hand") if hand else tr("Your hand is empty")]
    if draft:
        labels.append(tr("In front of you (keep 2, pass the rest)") if not choice else
                      tr("In front of you - you keep {first} and {second}", first=choice[0], second=choice[1]))
    with recording(log):  # the layout measures the words in the picture's language
        lay = hand_layout(hand, draft, labels)
        img = Image.new("RGB", (lay.width, lay.height), PAPER)
        d = ImageDraw.Draw(img)
        d.rectangle((0, 0, lay.width - 1, lay.height - 1), outline=FRAME, width=FRAME_W)
        name = _name(view, seat)
        col = seat_colour(seat)
        d.ellipse((HAND_PAD, HAND_PAD, HAND_PAD + 26, HAND_PAD + 26), fill=col, outline=INK)
        head = tr("{name} - round {round}, private", name=name, round=view.get("round", "?"))
        text(d, (HAND_PAD + 36, HAND_PAD), head, 24, bold=True, max_width=HAND_W - HAND_PAD - 36 - 12)
        soft = (92, 84, 72)
        if lay.note:
            text(d, (HAND_PAD, HAND_TOP + 2), lay.note, HAND_TEXT, fill=soft, bold=True, max_width=HAND_W - 2 * HAND_PAD)
        for i, (lines, x0, x1) in enumerate(lay.labels):
            for j, ln in enumerate(lines):
                text(d, (x0, lay.label_y + 2 + j * (HAND_TEXT + 6)), ln, HAND_TEXT, fill=soft, bold=True,
                     within=(x0 - 2, 0, x1 + 2, lay.height))
            if i:  # a rule between the hand and the cards in front of the player
                rx = x0 - HAND_SECTION_GAP / 2
                d.line((rx, lay.label_y, rx, lay.height - HAND_PAD), fill=(190, 182, 168), width=2)
        for v, box, in_front in lay.cards:
            kept = v in choice and in_front
            card_face(d, box, v, detail=True, outline=GOLD if kept else INK, width=4 if kept else 2,
                      text_size=HAND_TEXT, band=HAND_BAND)
    return img


@translated(MIN_HAND_TEXT)  # the picture's minimum text size (issue 14)
def render_hand(view: dict[str, Any], seat: int) -> bytes:
    """PNG bytes of ``seat``'s cards; only for that player's private replies."""
    from renderer.picture import encode_fast

    return encode_fast(draw_hand(view, seat))


# --------------------------------------------------------------------------- notation → view


def position_view(notation_text: str) -> dict[str, Any]:
    """A view of a position in brian-boru-notation.md (no round, trick or hands in the notation).

    Raises ``engine.core.NotationError`` (a ``ValueError``) naming the line and column of bad input.
    """
    from engine.brianboru.notation import parse_position

    pos = parse_position(notation_text)
    owner = {t: s for s, p in enumerate(pos.players) for t in p.towns}
    claim_owner = {r: s for s, p in enumerate(pos.players) for r in p.claims}
    towns = [{"name": n, "region": DATA.region_ids[DATA.town_region[i]],
              "colour": ("red", "blue", "yellow")[DATA.town_colour[i]], "owner": owner.get(n),
              "viking": n in pos.vikings, "monastery": n in pos.monasteries}
             for i, n in enumerate(DATA.town_names)]
    claims = [{"region": rid, "name": DATA.region_names[r], "threshold": DATA.thresholds[r],
               "points": DATA.points[r], "face_up": rid in claim_owner or rid in pos.claims_on_board,
               "owner": claim_owner.get(rid)} for r, rid in enumerate(DATA.region_ids)]
    marker = next((s for s, p in enumerate(pos.players) if p.marker), None)
    players = [{"seat": s, "name": p.name, "coins": p.coins, "vp": p.vp, "renown": p.renown,
                "invaders": p.invaders, "church": p.church, "track": p.track,
                "marriages": ["?"] * p.marriages, "princess": p.princess, "hand_size": 0, "draft_size": 0,
                "chosen": False} for s, p in enumerate(pos.players)]
    return {"game": "brian-boru", "round": None, "rounds": None, "phase": None, "acting": [],
            "start_player": None, "leader": None, "marker": marker, "active_town": None, "battle": 0,
            "viking_cards_left": 0, "viking_cards_revealed": [], "marriage": {"revealed": None, "stack_left": 0},
            "towns": towns, "claims": claims, "trick": {"number": 1, "of": 0, "cards": [], "winner": None},
            "players": players, "pending": None, "final": None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m renderer.brianboru",
                                 description="Draw a Brian Boru table (position notation or view JSON) as a PNG.")
    ap.add_argument("file", help="a position in brian-boru-notation.md, or a view saved as .json ('-' = stdin)")
    ap.add_argument("-o", "--output", required=True, help="PNG file to write")
    ap.add_argument("--hand", type=int, default=None, help="draw this seat's hand instead (a view JSON with 'you')")
    args = ap.parse_args(argv)
    raw = read_source(args.file)
    if raw is None:
        return 2
    try:
        view = json.loads(raw) if is_view_json(args.file, raw) else position_view(raw)
        png = render_hand(view, args.hand) if args.hand is not None else render_brianboru(view)
    except (ValueError, KeyError, TypeError) as e:
        print(f"{args.file}: {e}", file=sys.stderr)
        return 2
    return write_png(args.output, png)


if __name__ == "__main__":
    raise SystemExit(main())
