"""Vikings table image: an engine view (docs/engine-api.md, ``view(seat)``) in, PNG bytes out.

One picture shows the whole table: the round track with the scoring after each round, the
offer (wheel positions with tile, viking and price), the progress-variant extras when the view
has them, and every player's homeland with gold, VP, start-player and active markers. Nothing
here changes the view or talks to the engine; the CLI at the bottom is the only importer of
``engine.vikings`` and does so lazily.

    python -m renderer.vikings TABLE.txt -o out.png     # a table in vikings-notation.md
    python -m renderer.vikings VIEW.json -o out.png     # a view dict saved as JSON
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.core import msg_text
from renderer.common import (
    GOLD,
    INK,
    MUTED,
    N_,
    OI_GREEN,
    OI_ORANGE,
    PAPER,
    RGB,
    SEAT_COLOURS,
    WHITE,
    TextLog,
    coin,
    dashed_rect,
    display_name,
    encode_png,
    fit_text,
    is_view_json,
    ntr,
    read_source,
    readable_on,
    recording,
    star,
    text,
    text_width,
    tr,
    translated,
    wrap,
    write_png,
)

# --------------------------------------------------------------------------- game data

ROW_KEYS = "^WNSGF"  # homeland rows top to bottom (V-19 … V-21): ships, W, N, S, G, F
KIND_NAMES = {"F": N_("fisher"), "G": N_("goldsmith"), "S": N_("scout"), "N": N_("noble"), "W": N_("warrior"),
              "B": N_("sailor")}
"""Kind words (English message ids: translate with ``tr`` where drawn)."""
# The game's own viking colours (V-1 words table); every figure also carries its letter.
KIND_COLOURS: dict[str, RGB] = {
    "F": (40, 105, 205), "G": (245, 200, 35), "S": (45, 150, 60),
    "N": (205, 40, 40), "W": (28, 28, 28), "B": (155, 155, 160),
}
SAIL_COLOURS: dict[str, RGB] = {"r": (215, 45, 40), "g": (45, 160, 70), "y": (245, 205, 40), "b": (40, 105, 205)}
# V-3 / [D-3]: what a ship pays and how deep it threatens (index into ROW_KEYS).
SAIL_REWARD = {"r": "3g", "g": "5g", "y": "2VP", "b": "3VP"}
SAIL_DEPTH = {"r": 2, "g": 3, "y": 4, "b": 5}
SCORING_WORD = {"small": N_("small"), "major": N_("major"), "final": N_("final")}

# --------------------------------------------------------------------------- palette

SEA: RGB = (208, 228, 242)
SEA_SHIPS: RGB = (184, 211, 233)
GRID: RGB = (176, 202, 224)
LAND: RGB = (224, 198, 140)
LAND_SPECIAL: RGB = (236, 214, 120)
COAST: RGB = (128, 96, 52)
SEAM: RGB = (200, 172, 112)
BASE_BG: RGB = (226, 221, 210)
PANEL_BG: RGB = (252, 250, 245)
PANEL_EDGE: RGB = (200, 192, 178)
HIGHLIGHT_TILE: RGB = OI_GREEN    # the viking may stand on the new tile there
HIGHLIGHT_BASE: RGB = OI_ORANGE   # the tile fits there, its viking goes to the base
LAST_MARK: RGB = (160, 20, 130)   # cells of the last action
THREAT: RGB = (235, 0, 75)        # struck, lying vikings (V-31); apart from the nobles' red
ACTIVE: RGB = GOLD
HULL: RGB = (110, 70, 35)

WIDTH = 1280
MARGIN = 20
SS = 3  # supersampling factor of the cached sprites


def parse_cell(cell: str) -> tuple[int, int] | None:
    """``"N3"`` → (row index, column); ``None`` if the text is not a homeland cell."""
    if len(cell) < 2 or cell[0] not in ROW_KEYS or not cell[1:].isdigit():
        return None
    col = int(cell[1:])
    return (ROW_KEYS.index(cell[0]), col) if col >= 1 else None


# --------------------------------------------------------------------------- sprites


def _downsample(img: Image.Image, w: int, h: int) -> Image.Image:
    return img.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=2048)
def figure_sprite(kind: str, height: int, lying: bool = False) -> Image.Image:
    """A viking pawn in its kind's colour with the kind letter on its body (colour-blind safe)."""
    h = height * SS
    w = int(height * 0.72) * SS
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    col = KIND_COLOURS.get(kind, (128, 128, 128))
    edge = (255, 255, 255) if kind == "W" else INK
    lw = max(SS, int(h * 0.045))
    head = h * 0.34
    d.ellipse((w / 2 - head / 2, lw, w / 2 + head / 2, lw + head), fill=col, outline=edge, width=lw)
    body_top = head * 0.82
    d.rounded_rectangle((lw, body_top, w - lw, h - lw), radius=int(w * 0.28), fill=col, outline=edge, width=lw)
    from renderer.common import font

    size = int(h * 0.40)
    d.text((w / 2, body_top + (h - body_top) * 0.52), kind, font=font(size), anchor="mm",
           fill=readable_on(col), stroke_width=max(1, size // 14), stroke_fill=readable_on(col))
    out = _downsample(img, w // SS, height)
    return out.rotate(90, expand=True) if lying else out


def _building(d: ImageDraw.ImageDraw, letter: str, x: float, y: float, s: float) -> None:
    """A small building glyph (four roof shapes) with its letter a-d; (x, y) is the top-left."""
    wall = (245, 240, 228)
    lw = max(1, int(s * 0.07))
    roof = (150, 60, 40)
    body = (x + s * 0.12, y + s * 0.42, x + s * 0.88, y + s)
    if letter == "a":  # pitched roof house
        d.polygon([(x, y + s * 0.45), (x + s / 2, y + s * 0.05), (x + s, y + s * 0.45)], fill=roof, outline=INK)
    elif letter == "b":  # tower with crenellations
        body = (x + s * 0.22, y + s * 0.25, x + s * 0.78, y + s)
        for i in range(3):
            cx = x + s * (0.22 + i * 0.22)
            d.rectangle((cx, y + s * 0.05, cx + s * 0.13, y + s * 0.27), fill=roof, outline=INK)
    elif letter == "c":  # long hall, low roof
        body = (x, y + s * 0.5, x + s, y + s)
        d.polygon([(x - s * 0.04, y + s * 0.52), (x + s * 0.2, y + s * 0.2), (x + s * 0.8, y + s * 0.2),
                   (x + s * 1.04, y + s * 0.52)], fill=roof, outline=INK)
    else:  # d: dome
        d.pieslice((x + s * 0.1, y + s * 0.1, x + s * 0.9, y + s * 0.8), 180, 360, fill=roof, outline=INK)
    d.rectangle(body, fill=wall, outline=INK, width=lw)
    from renderer.common import font

    fs = int(s * 0.46)
    d.text(((body[0] + body[2]) / 2, (body[1] + body[3]) / 2 + s * 0.02), letter, font=font(fs),
           anchor="mm", fill=INK, stroke_width=max(1, fs // 12), stroke_fill=INK)


@lru_cache(maxsize=2048)
def tile_sprite(code: str, size: int) -> Image.Image:
    """An island or ship tile without its viking, transparent where the sea shows through.

    ``L`` has its coast on the left, ``R`` on the right and ``M``/``X`` none, so that a row
    ``L M M R`` reads as one island (V-25). ``X`` is the progress variant's building tile.
    """
    s = size * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    lw = max(SS, int(s * 0.035))
    if code.startswith("^"):
        # the ship sits in the left 3/4 of the cell; the right quarter is for defended/threat marks
        sail = SAIL_COLOURS.get(code[1:2], (200, 200, 200))
        d.polygon([(s * 0.03, s * 0.64), (s * 0.74, s * 0.64), (s * 0.62, s * 0.86), (s * 0.15, s * 0.86)],
                  fill=HULL, outline=INK)
        d.line((s * 0.385, s * 0.05, s * 0.385, s * 0.64), fill=INK, width=lw)
        d.rectangle((s * 0.07, s * 0.1, s * 0.70, s * 0.58), fill=sail, outline=INK, width=lw)
        return _downsample(img, size, size)
    iy = s * 0.1
    rad = int(s * 0.3)
    kind = code[0]
    fill = LAND_SPECIAL if kind == "X" else LAND
    box: tuple[float, float, float, float]
    if kind == "L":
        box = (s * 0.08, iy, s + rad * 2, s - iy)
    elif kind == "R":
        box = (-rad * 2, iy, s * 0.92, s - iy)
    else:
        box = (-rad * 2, iy, s + rad * 2, s - iy)
    d.rounded_rectangle(box, radius=rad, fill=fill, outline=COAST, width=lw)
    if kind in "MRX":  # seam with the tile on the left: tiles stay countable in an island
        d.line((0, iy + lw, 0, s - iy - lw), fill=SEAM, width=lw)
    if kind in "MX" and len(code) > 1:
        _building(d, code[1], s * 0.07, s * 0.2, s * 0.36)
    if kind == "X":
        star(d, s * 0.25, s * 0.76, s * 0.12, fill=GOLD)
    return _downsample(img, size, size)


# --------------------------------------------------------------------------- layout


@dataclass
class Panel:
    seat: int
    x: int
    y: int
    w: int
    h: int
    cell: int
    ncols: int
    grid_x: int
    grid_y: int
    base_x: int
    base_w: int
    label_x: int


@dataclass
class VikingsLayout:
    """Where everything goes; tests use it to find cells on the picture."""

    width: int
    height: int
    track_y: int
    offer_y: int
    offer_h: int
    slot_w: int
    side_x: int
    extras_y: int
    extras_h: int
    legend_y: int
    legend_h: int
    footer_y: int
    final_y: int
    final_h: int
    panels: dict[int, Panel] = field(default_factory=dict)

    def cell_box(self, seat: int, cell: str) -> tuple[int, int, int, int]:
        """Pixel box (x0, y0, x1, y1) of a homeland cell such as ``"N3"`` or ``"^2"``."""
        rc = parse_cell(cell)
        if rc is None:
            raise ValueError(f"not a homeland cell: {cell!r}")
        p = self.panels[seat]
        r, c = rc
        x0 = p.grid_x + (c - 1) * p.cell
        y0 = p.grid_y + r * p.cell
        return (x0, y0, x0 + p.cell, y0 + p.cell)

    def base_box(self, seat: int, kind: str) -> tuple[int, int, int, int]:
        """Box of the base count of a viking kind (sailors sit beside the ships row)."""
        p = self.panels[seat]
        r = 0 if kind == "B" else ROW_KEYS.index(kind)
        y0 = p.grid_y + r * p.cell
        return (p.base_x, y0, p.base_x + p.base_w, y0 + p.cell)

    def slot_box(self, pos: int) -> tuple[int, int, int, int]:
        x0 = MARGIN + pos * self.slot_w
        return (x0, self.offer_y + 30, x0 + self.slot_w - 6, self.offer_y + self.offer_h)


HEADER_H = 52
COLNUM_H = 24
LABEL_W = 70
MIN_COLS = 3
TWO_UP_CELL = 46  # homelands go two a row when their cells stay at least this big


def _row_len(row: list[str]) -> int:
    return len(row)


def _needed_cols(player: dict[str, Any], extra_cells: list[str]) -> int:
    n = max((_row_len(r) for r in player.get("rows", [])), default=0) + 1
    for cell in extra_cells:
        rc = parse_cell(cell)
        if rc:
            n = max(n, rc[1])
    return max(MIN_COLS, n)


def _highlight_seat(view: dict[str, Any], highlights: dict | None) -> int | None:
    if not highlights:
        return None
    if highlights.get("seat") is not None:
        return int(highlights["seat"])
    pending = view.get("pending")
    if pending and pending.get("seat") is not None:
        return int(pending["seat"])
    return view.get("active")


AUCTION_PHASES = ("bid", "remove", "lay")


def _auction_now(view: dict[str, Any]) -> bool:
    """The auction (V-41, V-42) is shown while it runs: bidding, removing, laying out."""
    auction = view.get("auction")
    if not auction:
        return False
    if view.get("phase") in AUCTION_PHASES:
        return True
    return isinstance(auction, dict) and bool(auction.get("drawn") or auction.get("bids"))


def _has_extras(view: dict[str, Any]) -> bool:
    return bool(view.get("specials_display")) or _auction_now(view)


def layout_vikings(view: dict[str, Any], *, highlights: dict | None = None,
                   focus: int | None = None) -> VikingsLayout:
    players = view.get("players", [])
    hseat = _highlight_seat(view, highlights)
    hcells = [c for key in ("tile", "base") for c in (highlights or {}).get(key, [])]
    last = view.get("last") or {}
    y = MARGIN
    track_y = y
    y += 112
    # after the game the result comes first, where the (empty) offer used to be
    final_y = y
    final_h = 0
    if isinstance(view.get("final"), dict):
        final_h = 56 + sum(max(30, 20 * len(w) + 10) for _, w in _final_rows(view))
        y += final_h + 14
    offer_y = y
    show_offer = view.get("phase") not in (None, "over") or any(view.get("wheel") or [])
    offer_h = 196 if show_offer else 0
    y += offer_h + (14 if offer_h else 0)
    extras_y = y
    extras_h = 136 if _has_extras(view) else 0
    y += extras_h + (12 if extras_h else 0)
    legend_y = y
    legend_h = 34 if highlights and (highlights.get("tile") or highlights.get("base")) else 0
    y += legend_h + (6 if legend_h else 0)

    panel_w = WIDTH - 2 * MARGIN
    grid_x_rel = 14 + LABEL_W
    panels: dict[int, Panel] = {}
    needs = {}
    for p in players:
        seat = p["seat"]
        extra = list(hcells) if seat == hseat else []
        if last.get("seat") == seat:
            extra += list(last.get("cells") or [])
        needs[seat] = _needed_cols(p, extra)
    # Every homeland is cropped to its columns in use (plus one, and any marked cell), issue 14.
    # One cell size for all ordinary panels (easier to compare); the focus seat gets bigger cells.
    def size_for(ncols: int, cap: int, width: int = panel_w) -> tuple[int, int]:
        # base column = 1.5 cells; solve width = label + base + ncols cells + padding
        avail = width - grid_x_rel - 16
        c = int(avail / (ncols + 1.6))
        c = max(30, min(cap, c))
        return c, int(c * 1.5)

    ordinary = [needs[p["seat"]] for p in players if p["seat"] != focus]
    half = (panel_w - 12) // 2
    two = focus is None and len(players) >= 2 and min(size_for(n, 64, half)[0] for n in ordinary) >= TWO_UP_CELL
    if two:  # short homelands side by side: half the height, the same cell size or larger
        c = min(size_for(n, 64, half)[0] for n in ordinary)
        h = HEADER_H + COLNUM_H + 6 * c + 14
        for i, p in enumerate(players):
            seat = p["seat"]
            px = MARGIN + (i % 2) * (half + 12)
            py = y + (i // 2) * (h + 12)
            base_x = px + grid_x_rel
            panels[seat] = Panel(seat, px, py, half, h, c, needs[seat], base_x + int(c * 1.5) + 8,
                                 py + HEADER_H + COLNUM_H, base_x, int(c * 1.5), px + 14)
        y += ((len(players) + 1) // 2) * (h + 12)
    else:
        cap = 54 if focus is not None else (60 if len(players) >= 4 else 64)
        common_c = min((size_for(n, cap)[0] for n in ordinary), default=cap)
        for p in players:
            seat = p["seat"]
            if seat == focus:
                c, base_w = size_for(needs[seat], 84)
            else:
                c, base_w = common_c, int(common_c * 1.5)
            h = HEADER_H + COLNUM_H + 6 * c + 14
            label_x = MARGIN + 14
            base_x = MARGIN + grid_x_rel
            panels[seat] = Panel(seat, MARGIN, y, panel_w, h, c, needs[seat], base_x + base_w + 8,
                                 y + HEADER_H + COLNUM_H, base_x, base_w, label_x)
            y += h + 12
    footer_y = y
    y += 34
    height = y + MARGIN - 10
    side_w = 210
    slot_w = (WIDTH - 2 * MARGIN - side_w) // 12
    return VikingsLayout(WIDTH, height, track_y, offer_y, offer_h, slot_w, MARGIN + 12 * slot_w + 6,
                         extras_y, extras_h, legend_y, legend_h, footer_y, final_y, final_h, panels)


# --------------------------------------------------------------------------- drawing


def _name(view: dict[str, Any], seat: int | None) -> str:
    for p in view.get("players", []):
        if p.get("seat") == seat:
            return display_name(p.get("name", f"seat {seat}"))
    return f"seat {seat}"


def _seat_colour(seat: int) -> RGB:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _paste(img: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    img.paste(sprite, (int(x), int(y)), sprite)


PHASE_WORDS = {
    "buy": (N_("{name} to buy a combo"), N_("TO BUY")), "place": (N_("{name} to place the tile"), N_("TO PLACE")),
    "sail": (N_("{name} to sail (major scoring)"), N_("TO SAIL")),
    "bid": (N_("{name} to bid for start player"), N_("TO BID")),
    "remove": (N_("{name} to remove a viking"), N_("TO REMOVE")),
    "lay": (N_("{name} to lay out vikings"), N_("TO LAY OUT")),
    "special": (N_("{name} to take a special tile"), N_("SPECIAL TILE")),
    "swap": (N_("{name} to swap a building"), N_("TO SWAP")), "setup": (N_("{name} to set up"), N_("SETTING UP")),
}


def _phase_text(view: dict[str, Any]) -> str:
    phase = view.get("phase")
    who = _name(view, view.get("active")) if view.get("active") is not None else ""
    if phase == "over":
        return tr("Game over")
    if phase is None:
        return ""
    if str(phase) not in PHASE_WORDS:
        return f"{who} {phase}".strip()
    return tr(PHASE_WORDS[str(phase)][0], name=who).strip(" :")


def _draw_check(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: RGB) -> None:
    d.line([(cx - s * 0.5, cy), (cx - s * 0.15, cy + s * 0.38), (cx + s * 0.55, cy - s * 0.42)],
           fill=fill, width=max(2, int(s * 0.22)), joint="curve")


def _scoring_icon(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float) -> None:
    if kind == "small":
        coin(d, cx, cy, 8)
    elif kind == "major":
        star(d, cx, cy, 13, fill=GOLD)
    else:  # final: a crown
        pts = [(cx - 13, cy + 9), (cx - 13, cy - 7), (cx - 6, cy + 1), (cx, cy - 11), (cx + 6, cy + 1),
               (cx + 13, cy - 7), (cx + 13, cy + 9)]
        d.polygon(pts, fill=GOLD, outline=INK)


def _draw_track(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], L: VikingsLayout) -> None:
    y = L.track_y
    rnd = int(view.get("round") or 0)  # 0: a written-down table outside any round
    scorings = view.get("scorings") or ["small", "major", "small", "major", "small", "final"]
    over = view.get("phase") == "over"
    x: float = MARGIN
    phase = _phase_text(view)
    active = view.get("active")
    pw = min(text_width(phase, 24) + 8, WIDTH / 2 - MARGIN - 40)
    px = WIDTH - MARGIN - pw
    room = px - 52  # the words on the left end before the acting player's box
    x += text(d, (x, y + 4), tr("VIKINGS"), 32, bold=True, max_width=room - x) + 22
    if rnd:
        x += text(d, (x, y + 8), tr("Round {round} of {rounds}", round=min(rnd, 6), rounds=6), 26, bold=True,
                  max_width=max(40, room - x)) + 12
    else:
        x += text(d, (x, y + 10), tr("a written-down table"), 22, fill=MUTED, max_width=max(40, room - x)) + 12
    nxt = scorings[rnd - 1] if 1 <= rnd <= len(scorings) else ""
    if not over and nxt and room - x > 40:
        word = tr("then major + final scoring") if nxt == "final" else (
            tr("then {kind} scoring", kind=tr(SCORING_WORD[nxt])) if nxt in SCORING_WORD else nxt)
        text(d, (x, y + 12), word, 22, fill=MUTED, max_width=room - x)
    if active is not None:
        d.rounded_rectangle((px - 40, y + 2, WIDTH - MARGIN, y + 40), radius=8, fill=ACTIVE)
        d.ellipse((px - 32, y + 11, px - 12, y + 31), fill=_seat_colour(active), outline=INK)
    text(d, (px, y + 9), phase, 24, bold=True, within=(px - 4, y + 2, WIDTH - MARGIN, y + 40))

    ty = y + 52
    if not rnd:  # a written-down table is outside the rounds: no track
        return
    # round track: a box per round, the scoring symbol after each
    bx = MARGIN
    for i in range(6):
        r = i + 1
        done = over or r < rnd
        current = (not over) and r == rnd
        box = (bx, ty, bx + 40, ty + 40)
        if done:
            d.rounded_rectangle(box, radius=6, fill=(160, 152, 140), outline=(120, 112, 100), width=2)
            text(d, (bx + 20, ty + 21), str(r), 22, fill=WHITE, anchor="mm", bold=True)
            _draw_check(d, bx + 33, ty + 8, 10, (40, 130, 60))
        elif current:
            d.rounded_rectangle((bx - 3, ty - 3, bx + 43, ty + 43), radius=8, fill=ACTIVE, outline=INK, width=3)
            text(d, (bx + 20, ty + 21), str(r), 24, anchor="mm", bold=True)
        else:
            d.rounded_rectangle(box, radius=6, fill=WHITE, outline=(150, 142, 130), width=2)
            text(d, (bx + 20, ty + 21), str(r), 22, fill=MUTED, anchor="mm")
        kind = scorings[i] if i < len(scorings) else "small"
        _scoring_icon(d, kind, bx + 64, ty + 13)
        text(d, (bx + 64, ty + 38), tr(SCORING_WORD[kind]) if kind in SCORING_WORD else kind, 16, fill=MUTED,
             anchor="mm", max_width=64)
        bx += 98
    # stacks, bag and the last move on the right of the track
    info = []
    if view.get("stacks_left") is not None:
        info.append(tr("stacks left {n}", n=view["stacks_left"]))
    if view.get("bag") is not None:
        info.append(tr("bag {n} vikings", n=view["bag"]))
    rx = WIDTH - MARGIN
    text(d, (rx, ty + 2), "  ·  ".join(info), 18, fill=MUTED, anchor="ra", max_width=WIDTH - MARGIN - bx - 10)
    last = view.get("last")
    if last and last.get("action"):
        s = tr("last: {name} - {action}", name=_name(view, last.get("seat")), action=last["action"])
        s = fit_text(s, 20, WIDTH - MARGIN - bx - 10)
        w = text_width(s, 20)
        d.rounded_rectangle((rx - w - 14, ty + 24, rx, ty + 50), radius=6, outline=LAST_MARK, width=3)
        text(d, (rx - 7, ty + 37), s, 20, fill=LAST_MARK, anchor="rm", bold=True,
             within=(rx - w - 14, ty + 24, rx, ty + 50))


SAIL_NAMES = {"r": N_("red ship"), "g": N_("green ship"), "y": N_("yellow ship"), "b": N_("blue ship")}


def tile_caption(tile: str) -> str:
    """Words for a tile, so that ends and sail colours do not rest on shape or colour alone."""
    code = tile.rstrip("*")
    if code.startswith("^"):
        return tr(SAIL_NAMES[code[1:2]]) if code[1:2] in SAIL_NAMES else tr("ship")
    if code == "L":
        return tr("left end")
    if code == "R":
        return tr("right end")
    if code[:1] == "M":
        return tr("middle {code}", code=code[1:])
    if code[:1] == "X":
        return tr("building {code}", code=code[1:])
    return code


def _tile_on_sea(img: Image.Image, d: ImageDraw.ImageDraw, code: str, x: int, y: int, s: int) -> None:
    d.rectangle((x, y, x + s - 1, y + s - 1), fill=SEA_SHIPS if code.startswith("^") else SEA, outline=GRID)
    _paste(img, tile_sprite(code.rstrip("*"), s), x, y)
    if code.startswith("^"):
        _ship_label(d, code, x, y, s)


def _ship_label(d: ImageDraw.ImageDraw, code: str, x: int, y: int, s: int) -> None:
    reward = SAIL_REWARD.get(code[1:2], "?")
    fs = max(16, int(s * 0.25))
    text(d, (x + s * 0.385, y + s * 0.34), reward, fs, fill=readable_on(SAIL_COLOURS.get(code[1:2], WHITE)),
         anchor="mm", bold=True)


def _draw_offer(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], L: VikingsLayout) -> None:
    y = L.offer_y
    ow = text(d, (MARGIN, y + 2), tr("Offer"), 22, bold=True, max_width=200)
    text(d, (MARGIN + ow + 14, y + 6), tr("type  buy P  (P = price in gold)"), 17, fill=MUTED,
         max_width=L.side_x - MARGIN - ow - 20)
    wheel = list(view.get("wheel") or [])[:12]
    wheel += [None] * (12 - len(wheel))
    prices = [w["price"] for w in wheel if w]
    top = max(prices) if prices else None
    specials_on = bool((view.get("options") or {}).get("specials")) and bool(view.get("specials_display"))
    for pos, combo in enumerate(wheel):
        x0, y0, x1, y1 = L.slot_box(pos)
        sw = x1 - x0
        if combo is None:
            dashed_rect(d, (x0, y0, x1, y1), (185, 178, 165))
            text(d, ((x0 + x1) / 2, y0 + 20), str(pos), 22, fill=(185, 178, 165), anchor="mm")
            continue
        d.rounded_rectangle((x0, y0, x1, y1), radius=8, fill=PANEL_BG, outline=PANEL_EDGE, width=2)
        price = combo.get("price", pos)
        coin(d, x0 + 16, y0 + 20, 9)
        text(d, (x0 + 30, y0 + 21), str(price), 26, anchor="lm", bold=True)
        if price != pos:
            text(d, (x1 - 5, y0 + 21), f"#{pos}", 16, fill=MUTED, anchor="rm")
        if specials_on and price == top and pos != 0:  # V-46: the most expensive combo takes a special
            star(d, x1 - 12, y0 + 12, 9, fill=GOLD)
        ts = min(60, sw - 14)
        tx = x0 + (sw - ts) // 2
        tile = str(combo.get("tile") or "")
        if tile:
            _tile_on_sea(img, d, tile, tx, y0 + 36, ts)
        else:
            dashed_rect(d, (tx, y0 + 36, tx + ts, y0 + 36 + ts), (185, 178, 165))
        caption = tile_caption(tile) if tile else tr("no tile yet")  # V-42: no tiles during the auction
        text(d, ((x0 + x1) / 2, y0 + 36 + ts + 9), caption, 16, fill=MUTED, anchor="mm", within=(x0, y0, x1, y1))
        v = combo.get("viking")
        if v:
            fig = figure_sprite(v, 44)
            _paste(img, fig, x0 + (sw - fig.width) / 2, y0 + 36 + ts + 19)
    # side box: the pending purchase, else nothing
    sx = L.side_x
    box = (sx + 6, y + 30, WIDTH - MARGIN, y + L.offer_h)
    pending = view.get("pending")
    if pending:
        seat = pending.get("seat")
        d.rounded_rectangle(box, radius=10, fill=(255, 246, 214), outline=ACTIVE, width=4)
        placing = view.get("phase") == "place" and not pending.get("placed")
        label = (tr("{name} places", name=_name(view, seat)) if placing
                 else tr("{name} bought", name=_name(view, seat)))
        text(d, (box[0] + 10, box[1] + 8), label, 20, bold=True, max_width=box[2] - box[0] - 16)
        tile = str(pending.get("tile", ""))
        _tile_on_sea(img, d, tile, box[0] + 14, box[1] + 40, 64)
        text(d, (box[0] + 46, box[1] + 116), tile_caption(tile), 16, fill=MUTED, anchor="mm", max_width=88)
        v = pending.get("viking")
        if v:
            _paste(img, figure_sprite(v, 56), box[0] + 90, box[1] + 44)
        if pending.get("start_tile"):
            _tile_on_sea(img, d, "L", box[0] + 134, box[1] + 40, 48)
            text(d, (box[0] + 158, box[1] + 96), tr("+ start"), 16, anchor="ma", max_width=min(120, 2 * (box[2] - box[0] - 158)))
        if placing:
            text(d, (box[0] + 10, box[3] - 30), tr("type  place CELL"), 16, fill=MUTED, max_width=box[2] - box[0] - 16)
    else:
        dashed_rect(d, box, (210, 204, 192))
        text(d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), tr("nothing to place"), 16, fill=MUTED,
             anchor="mm", within=box)


def _label(v: Any) -> str:
    if isinstance(v, dict):
        return str(v.get("name") or v.get("id") or v.get("kind") or "?")
    return str(v)


def special_name(name: str) -> str:
    """A special tile's display name in the picture's language (V-45..V-49; the id stays in notation)."""
    try:
        from engine.vikings.data import SPECIAL_WORD
    except ImportError:  # the renderer also works on views saved as JSON without the engine
        SPECIAL_WORD = {}
    word = SPECIAL_WORD.get(name)
    return tr(word.id) if word is not None else name.replace("_", " ")


def _special_lines(name: str) -> list[str]:
    """A special tile's card text (V-49): its name (which says its effect) and when it acts."""
    try:
        from engine.vikings.data import SPECIAL_TILES
    except ImportError:
        SPECIAL_TILES = {}
    info = SPECIAL_TILES.get(name)
    if not info:
        return [special_name(name)]
    whens = {"now": N_("at once"), "small+major": N_("small & major scoring"), "major": N_("major scoring"),
             "final": N_("final scoring")}
    w = str(info.get("when", ""))
    return [special_name(name), tr(whens[w]) if w in whens else w]


def _draw_extras(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], L: VikingsLayout) -> None:
    """Progress variant: the four displayed special tiles (V-45) and the auction (V-40 … V-42)."""
    y = L.extras_y
    x = MARGIN
    display = view.get("specials_display")
    if display:
        text(d, (x, y), tr("Special tiles"), 20, bold=True, max_width=4 * 158)
        cw = 150
        cx = x
        for item in display:
            box = (cx, y + 28, cx + cw, y + L.extras_h - 4)
            if item is None:
                dashed_rect(d, box, (185, 178, 165))
                text(d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), tr("empty"), 16, fill=MUTED, anchor="mm",
                     within=box)
            else:
                d.rounded_rectangle(box, radius=8, fill=LAND_SPECIAL, outline=COAST, width=2)
                star(d, box[0] + 14, box[1] + 15, 9, fill=GOLD)
                lines = _special_lines(_label(item))
                # the name says the effect ("+1 VP per noble"): up to 4 lines, the first beside the star
                for i, ln in enumerate(wrap(lines[0], 16, cw - 34)[:4]):
                    left = box[0] + (28 if i == 0 else 8)
                    text(d, (left, box[1] + 7 + 19 * i), ln, 16, bold=i == 0, max_width=box[2] - 6 - left)
                if len(lines) > 1:
                    text(d, (box[0] + 8, box[3] - 8), lines[1], 16, fill=MUTED, anchor="ld", max_width=cw - 12)
            cx += cw + 8
        x = cx + 24
    auction = view.get("auction")
    if _auction_now(view):
        text(d, (x, y), tr("Auction"), 20, bold=True, max_width=WIDTH - MARGIN - x)
        ay = y + 30
        items = dict(auction) if isinstance(auction, dict) else {"drawn": auction}
        drawn = items.pop("drawn", None) or items.pop("vikings", None) or []
        removed = items.pop("removed", None) or []
        if isinstance(removed, str):
            removed = [removed]
        bids = items.pop("bids", None)
        ax: float = x
        for k in drawn:
            fig = figure_sprite(str(k), 36)
            _paste(img, fig, ax, ay)
            ax += fig.width + 3
        if drawn:
            ax += 4 + text(d, (ax + 4, ay + 10), tr("drawn"), 16, fill=MUTED, max_width=120) + 8
        if removed:  # out of the game [D-9], one per round so far
            rx0 = ax
            ax += 6
            for k in removed:
                fig = figure_sprite(str(k), 30)
                _paste(img, fig, ax, ay + 4)
                ax += fig.width + 4
            dashed_rect(d, (rx0, ay, ax + 2, ay + 38), THREAT, dash=4)
            text(d, (ax + 8, ay + 10), tr("removed"), 16, fill=MUTED, max_width=max(40, WIDTH - MARGIN - ax - 8))
        parts = []
        if isinstance(bids, dict):
            if bids.get("leader") is not None:
                parts.append(tr("high bid {bid} by {name}", bid=bids.get("high", 0), name=_name(view, bids["leader"])))
            else:
                parts.append(tr("no bid yet"))
            if bids.get("active"):
                parts.append(tr("still in: {names}", names=", ".join(_name(view, s) for s in bids["active"])))
        for k, v in items.items():
            parts.append(f"{k.replace('_', ' ')}: {v}")
        if parts:
            text(d, (x, ay + 48), "   ".join(parts), 17, max_width=WIDTH - MARGIN - x)


def _draw_legend(d: ImageDraw.ImageDraw, L: VikingsLayout, who: str) -> None:
    y = L.legend_y
    x: float = MARGIN
    x += text(d, (x, y + 6), tr("{name}: where the tile may go", name=who), 19, bold=True,
              max_width=(WIDTH - 2 * MARGIN) * 0.4) + 18
    for i, (colour, words) in enumerate(((HIGHLIGHT_TILE, tr("viking stands on the tile")),
                                         (HIGHLIGHT_BASE, tr("tile only, viking to the base")))):
        d.rectangle((x, y + 4, x + 26, y + 28), fill=colour, outline=INK)
        x += 34
        room = (WIDTH - MARGIN - x) / (2 - i) - (24 if i == 0 else 0)
        x += text(d, (x, y + 6), words, 19, max_width=room) + 24


def _strike(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], w: int) -> None:
    """A red X with a white halo, visible on every viking colour."""
    x0, y0, x1, y1 = box
    for colour, width in ((WHITE, w + 4), (THREAT, w)):
        d.line((x0, y0, x1, y1), fill=colour, width=width)
        d.line((x0, y1, x1, y0), fill=colour, width=width)


def _draw_figure(img: Image.Image, d: ImageDraw.ImageDraw, kind: str, x0: int, y0: int, c: int,
                 cx: float, threatened: bool) -> None:
    fh = int(c * 0.66)
    if threatened:  # V-31: the viking lies down and is struck through
        fig = figure_sprite(kind, fh, lying=True)
        fx, fy = x0 + cx - fig.width / 2, y0 + c * 0.56 - fig.height / 2
        _paste(img, fig, fx, fy)
        w = max(3, c // 16)
        _strike(d, (fx - 2, fy - 4, fx + fig.width + 2, fy + fig.height + 4), w)
    else:
        fig = figure_sprite(kind, fh)
        _paste(img, fig, x0 + cx - fig.width / 2, y0 + (c - fh) / 2)


def _shield(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    """Defended ship (V-30): a warrior's black shield with a white rim and a check."""
    pts = [(x, y), (x + s, y), (x + s, y + s * 0.55), (x + s / 2, y + s * 1.1), (x, y + s * 0.55)]
    d.polygon(pts, fill=KIND_COLOURS["W"], outline=WHITE, width=2)
    _draw_check(d, x + s / 2, y + s * 0.45, s * 0.5, WHITE)


def _draw_panel(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], p: dict[str, Any],
                P: Panel, highlights: dict | None, is_hseat: bool, winners: list[int]) -> None:
    seat = P.seat
    active = view.get("active") == seat and view.get("phase") != "over"
    c = P.cell
    x1 = P.x + P.w
    y1 = P.y + P.h
    d.rounded_rectangle((P.x, P.y, x1, y1), radius=12, fill=PANEL_BG,
                        outline=ACTIVE if active else PANEL_EDGE, width=6 if active else 2)
    d.rounded_rectangle((P.x + 6, P.y + 6, P.x + 16, y1 - 6), radius=4, fill=_seat_colour(seat))
    # header: name, markers, gold, VP, specials
    hx: float = P.x + 26
    hy = P.y + 8
    d.ellipse((hx, hy + 6, hx + 24, hy + 30), fill=_seat_colour(seat), outline=INK, width=2)
    hx += 32
    name = display_name(p.get("name", tr("seat {seat}", seat=seat)))
    hx += text(d, (hx, hy + 2), name, 28, bold=True, max_width=min(360, P.w - 360)) + 14

    def chip(label: str, bg: RGB, fg: RGB | None = None) -> None:
        nonlocal hx
        w = text_width(label, 17) + 16
        if hx + w > x1 - 290:  # no room left of gold and VP (a narrow panel): the frame still tells
            return
        d.rounded_rectangle((hx, hy + 6, hx + w, hy + 32), radius=13, fill=bg, outline=INK)
        text(d, (hx + w / 2, hy + 19), label, 17, fill=fg or readable_on(bg), anchor="mm", bold=True,
             within=(hx, hy + 6, hx + w, hy + 32))
        hx += w + 8

    if seat in winners:
        chip(tr("WINNER"), GOLD)
    if view.get("start_player") == seat:
        chip(tr("START PLAYER"), INK)
    if active:
        words = PHASE_WORDS.get(str(view.get("phase")), ("", N_("TO PLAY")))
        chip(tr(words[1]), ACTIVE)
    if view.get("seat") == seat:
        chip(tr("YOU"), _seat_colour(seat), WHITE)
    if p.get("start_tile_pending"):
        chip(tr("start tile to place"), (255, 255, 255))
    # right side: gold and VP
    rx: float = x1 - 16
    vp = str(p.get("vp", 0))
    w = text(d, (rx, hy + 4), tr("{vp} VP", vp=vp), 28, anchor="ra", bold=True, max_width=140)
    star(d, rx - w - 18, hy + 19, 14, fill=(250, 250, 250))
    rx -= w + 48
    g = str(p.get("gold", 0))
    w = text(d, (rx, hy + 4), tr("{gold} gold", gold=g), 28, anchor="ra", bold=True, max_width=140)
    coin(d, rx - w - 16, hy + 19, 12)
    rx -= w + 46
    specials = p.get("specials") or []
    if specials:
        s = tr("specials: {tiles}", tiles=", ".join(special_name(_label(x)) for x in specials))
        room = rx - hx - 10
        if room > 60:
            text(d, (rx, hy + 10), s, 17, fill=MUTED, anchor="ra", max_width=room)

    gx, gy = P.grid_x, P.grid_y
    gw = P.ncols * c
    # column numbers and base title
    text(d, (P.base_x + P.base_w / 2, gy - COLNUM_H / 2), tr("base"), 16, fill=MUTED, anchor="mm",
         max_width=P.base_w)
    for col in range(1, P.ncols + 1):
        text(d, (gx + (col - 0.5) * c, gy - COLNUM_H / 2), str(col), 16, fill=MUTED, anchor="mm")
    # row labels
    for r in range(6):
        ry = gy + r * c
        if r == 0:
            text(d, (P.label_x + LABEL_W / 2 - 4, ry + c / 2), tr("ships"), 18, anchor="mm", bold=True,
                 max_width=LABEL_W - 4)
            continue
        k = ROW_KEYS[r]
        rad = min(15, c * 0.28)
        cx, cy = P.label_x + 20, ry + c / 2
        d.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=KIND_COLOURS[k],
                  outline=WHITE if k == "W" else INK, width=2)
        text(d, (cx, cy + 1), k, max(16, int(rad * 1.15)), fill=readable_on(KIND_COLOURS[k]), anchor="mm", bold=True)
    # base: one count per kind, sailors beside the ships row
    d.rounded_rectangle((P.base_x, gy, P.base_x + P.base_w, gy + 6 * c), radius=8, fill=BASE_BG,
                        outline=PANEL_EDGE)
    base = p.get("base") or {}
    for r in range(6):
        k = "B" if r == 0 else ROW_KEYS[r]
        n = int(base.get(k, 0) or 0)
        ry = gy + r * c
        fh = int(c * 0.58)
        fig = figure_sprite(k, fh)
        fx = P.base_x + 6
        if n:
            _paste(img, fig, fx, ry + (c - fh) / 2)
            text(d, (fx + fig.width + 4, ry + c / 2), f"x{n}", max(16, int(c * 0.36)), anchor="lm", bold=True)
        else:
            text(d, (fx + fig.width / 2, ry + c / 2), "-", max(16, int(c * 0.3)), fill=(175, 168, 155),
                 anchor="mm")
    # sea
    d.rectangle((gx, gy, gx + gw, gy + c), fill=SEA_SHIPS)
    d.rectangle((gx, gy + c, gx + gw, gy + 6 * c), fill=SEA)
    for col in range(P.ncols + 1):
        d.line((gx + col * c, gy, gx + col * c, gy + 6 * c), fill=GRID)
    for r in range(7):
        d.line((gx, gy + r * c, gx + gw, gy + r * c), fill=GRID)
    # tiles and vikings
    rows = list(p.get("rows") or [])
    threatened = set(p.get("threatened") or [])
    defended = set(p.get("defended") or [])
    for r, row in enumerate(rows[:6]):
        for i, cell in enumerate(row):
            if not cell or cell == ".":
                continue
            col = i + 1
            x0 = gx + i * c
            y0 = gy + r * c
            code = cell.rstrip("*")
            _paste(img, tile_sprite(code, c), x0, y0)
            if r == 0:
                _ship_label(d, code, x0, y0, c)
                name = f"^{col}"
                if name in defended:
                    _shield(d, x0 + c * 0.745, y0 + c * 0.1, c * 0.24)
                else:  # V-31: undefended, threatens down to the sail's row
                    depth = SAIL_DEPTH.get(code[1:2])
                    if depth:
                        ax, ay, aw = x0 + c * 0.87, y0 + c * 0.16, c * 0.09
                        d.polygon([(ax - aw, ay), (ax + aw, ay), (ax, ay + aw * 1.6)], fill=THREAT)
                        text(d, (ax, y0 + c * 0.5), ROW_KEYS[depth], max(16, int(c * 0.26)), fill=THREAT,
                             anchor="mm", bold=True)
                continue
            if cell.endswith("*"):
                fig_x = c * 0.64 if code[0] in "MX" else c * 0.5
                _draw_figure(img, d, ROW_KEYS[r], x0, y0, c, fig_x, f"{ROW_KEYS[r]}{col}" in threatened)
    # highlighted cells for the pending placement
    if highlights and is_hseat:
        pend = view.get("pending") or {}
        for key, colour in (("tile", HIGHLIGHT_TILE), ("base", HIGHLIGHT_BASE)):
            for cell in highlights.get(key) or []:
                rc = parse_cell(cell)
                if rc is None or rc[1] > P.ncols:
                    continue
                r, col = rc
                x0, y0 = gx + (col - 1) * c, gy + r * c
                d.rectangle((x0 + 1, y0 + 1, x0 + c - 1, y0 + c - 1), fill=colour, outline=INK, width=2)
                fg = readable_on(colour)
                text(d, (x0 + c / 2, y0 + c * 0.3), cell, max(16, int(c * 0.3)), fill=fg, anchor="mm", bold=True)
                if key == "tile" and pend.get("viking"):
                    fig = figure_sprite(str(pend["viking"]), int(c * 0.42))
                    _paste(img, fig, x0 + (c - fig.width) / 2, y0 + c * 0.52)
                else:
                    text(d, (x0 + c / 2, y0 + c * 0.72), tr("base"), max(16, int(c * 0.22)), fill=fg, anchor="mm",
                         max_width=c - 4)
    # the last action's cells
    last = view.get("last") or {}
    if last.get("seat") == seat:
        for cell in last.get("cells") or []:
            rc = parse_cell(cell)
            if rc is None or rc[1] > P.ncols:
                continue
            r, col = rc
            x0, y0 = gx + (col - 1) * c, gy + r * c
            d.rectangle((x0 + 1, y0 + 1, x0 + c - 1, y0 + c - 1), outline=LAST_MARK, width=max(3, c // 14))


def _draw_footer(img: Image.Image, d: ImageDraw.ImageDraw, L: VikingsLayout) -> None:
    y = L.footer_y + 4
    x: float = MARGIN
    _shield(d, x, y + 2, 18)
    x += 26
    room = (WIDTH - 2 * MARGIN - 140) / 4  # four keys share the line
    x += text(d, (x, y + 3), tr("ship defended by a warrior"), 16, fill=MUTED, max_width=room) + 22
    fig = figure_sprite("N", 18, lying=True)
    _paste(img, fig, x, y + 6)
    _strike(d, (x - 2, y + 2, x + fig.width + 2, y + 22), 3)
    x += fig.width + 8
    x += text(d, (x, y + 3), tr("threatened viking: scores nothing"), 16, fill=MUTED, max_width=room) + 22
    d.polygon([(x, y + 6), (x + 12, y + 6), (x + 6, y + 15)], fill=THREAT)
    x += 16
    x += text(d, (x, y + 3), tr("S  undefended ship threatens rows W down to S"), 16, fill=MUTED,
              max_width=room * 1.4) + 22
    d.rectangle((x, y + 2, x + 22, y + 22), outline=LAST_MARK, width=3)
    x += 30
    text(d, (x, y + 3), tr("last move"), 16, fill=MUTED, max_width=WIDTH - MARGIN - x)


FINAL_TEXT = 16
FINAL_TEXT_X = 360


def _final_rows(view: dict[str, Any]) -> list[tuple[dict[str, Any], list[str]]]:
    """Per player: the final scoring lines (V-37) wrapped to the final box's width."""
    final = view.get("final")
    if not isinstance(final, dict):
        return []
    lines = final.get("lines")
    out = []
    for i, p in enumerate(view.get("players", [])):
        seat = p.get("seat", i)
        entry: Any = lines[seat] if isinstance(lines, list) and seat < len(lines) else []
        if isinstance(entry, dict):
            entry = list(entry.items())
        parts = []
        for item in entry or []:
            if isinstance(item, list | tuple) and len(item) == 2:
                k, v = item
                parts.append(f"{k} {v:+d}" if isinstance(v, int) else f"{k} {v}")
            else:
                parts.append(msg_text(item))  # a structured scoring line (issue 16), in English here
        wrapped = wrap("  ·  ".join(parts), FINAL_TEXT, WIDTH - 2 * MARGIN - FINAL_TEXT_X - 16) if parts else []
        out.append((p, wrapped))
    return out


def _draw_final(d: ImageDraw.ImageDraw, view: dict[str, Any], L: VikingsLayout, winners: list[int]) -> None:
    y = L.final_y
    d.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + L.final_h), radius=12, fill=(255, 246, 214),
                        outline=ACTIVE, width=4)
    names = ", ".join(_name(view, s) for s in winners) or "-"
    head = ntr("Final scoring - winner: {names}", "Final scoring - winners: {names}", max(1, len(winners)),
               names=names)
    text(d, (MARGIN + 16, y + 10), head, 24, bold=True, max_width=WIDTH - 2 * MARGIN - 32)
    ly = y + 48
    for p, wrapped in _final_rows(view):
        seat = p.get("seat", 0)
        d.ellipse((MARGIN + 16, ly + 3, MARGIN + 34, ly + 21), fill=_seat_colour(seat), outline=INK)
        if seat in winners:
            star(d, MARGIN + 25, ly + 12, 8, fill=GOLD)
        head = tr("{name}: {vp} VP, {gold} gold", name=display_name(p.get("name")), vp=p.get("vp"), gold=p.get("gold"))
        text(d, (MARGIN + 44, ly), head, 20, bold=True, max_width=FINAL_TEXT_X - 60)
        for i, ln in enumerate(wrapped):
            text(d, (MARGIN + FINAL_TEXT_X, ly + 2 + 20 * i), ln, FINAL_TEXT,
                 max_width=WIDTH - 2 * MARGIN - FINAL_TEXT_X - 16)
        ly += max(30, 20 * len(wrapped) + 10)


@translated(16)  # MIN_TABLE_TEXT (issue 14)
def draw_vikings(view: dict[str, Any], *, highlights: dict | None = None, focus: int | None = None,
                 last: bool = True, log: TextLog | None = None) -> Image.Image:
    """The table as a PIL image (``render_vikings`` encodes it). ``last=False`` hides the last move;
    ``log`` records every text drawn (all at least 16 px: issue 14)."""
    with recording(log):
        return _draw_vikings(view, highlights=highlights, focus=focus, last=last)


def _draw_vikings(view: dict[str, Any], *, highlights: dict | None, focus: int | None,
                  last: bool) -> Image.Image:
    if not isinstance(view, dict) or view.get("game", "vikings") != "vikings":
        raise ValueError("render_vikings needs a Vikings view (view['game'] == 'vikings')")
    if not isinstance(view.get("players"), list) or not view["players"]:
        raise ValueError("the view has no players")
    seats = {p.get("seat") for p in view["players"]}
    if focus is not None and focus not in seats:
        raise ValueError(f"focus seat {focus} is not at this table (seats {sorted(seats)})")
    if highlights is not None:
        unknown = set(highlights) - {"tile", "base", "seat"}
        if unknown:
            raise ValueError(f"unknown highlight keys {sorted(unknown)}; use 'tile' and 'base'")
        for key in ("tile", "base"):
            for cell in highlights.get(key) or []:
                if parse_cell(str(cell)) is None:
                    raise ValueError(f"highlight {key!r}: {cell!r} is not a cell like 'N3' or '^2'")
    if not last:
        view = dict(view, last=None)
    L = layout_vikings(view, highlights=highlights, focus=focus)
    img = Image.new("RGB", (L.width, L.height), PAPER)
    d = ImageDraw.Draw(img)
    _draw_track(img, d, view, L)
    if L.offer_h:
        _draw_offer(img, d, view, L)
    if L.extras_h:
        _draw_extras(img, d, view, L)
    hseat = _highlight_seat(view, highlights)
    if L.legend_h:
        _draw_legend(d, L, _name(view, hseat))
    final = view.get("final")
    winners = list(final.get("winners") or []) if isinstance(final, dict) else []
    for p in view["players"]:
        _draw_panel(img, d, view, p, L.panels[p["seat"]], highlights, p["seat"] == hseat, winners)
    _draw_footer(img, d, L)
    if L.final_h:
        _draw_final(d, view, L, winners)
    return img


@translated(16)
def render_vikings(view: dict[str, Any], *, highlights: dict | None = None, focus: int | None = None,
                   last: bool = True) -> bytes:
    """PNG bytes of the whole table. ``highlights = {"tile": [...], "base": [...]}`` marks legal
    cells of the pending placement; ``focus`` draws that seat's homeland bigger."""
    return encode_png(draw_vikings(view, highlights=highlights, focus=focus, last=last))


def highlights_from_actions(actions: Any) -> dict[str, list[str]]:
    """Highlights for the pending placement from the seat's legal action texts.

    ``place CELL base`` is only offered where the viking could stand on the tile (V-26), so those
    cells are ``tile``; cells with only ``place CELL`` take the tile alone, the viking goes to
    the base (V-27). ``start CELL`` (the start tile, V-24) carries no viking: ``base`` colour.
    """
    stand: set[str] = set()
    cells: set[str] = set()
    for a in actions:
        words = str(a).split()
        if len(words) >= 2 and words[0] in ("place", "start") and parse_cell(words[1]):
            cells.add(words[1])
            if words[0] == "place" and words[-1] == "base":
                stand.add(words[1])

    def order(c: str) -> tuple[int, int]:
        r, col = parse_cell(c) or (0, 0)
        return (r, col)

    return {"tile": sorted(stand, key=order), "base": sorted(cells - stand, key=order)}


# --------------------------------------------------------------------------- CLI


def table_view(notation_text: str) -> dict[str, Any]:
    """A view of a table written in vikings-notation.md: homelands, gold, VP, start player.

    There is no wheel, round or turn in the notation, so those parts stay empty. Raises
    ``engine.core.NotationError`` (a ``ValueError``) naming the line and column of bad input.
    """
    from engine.vikings.data import cell_name  # lazily: drawing a view never needs the engine
    from engine.vikings.notation import parse_table

    table = parse_table(notation_text)
    players = []
    for seat, p in enumerate(table.players):
        h = p.homeland
        players.append({
            "seat": seat, "name": p.name, "gold": p.gold, "vp": p.vp,
            "rows": [list(r) for r in h.rows],
            "base": dict(h.base),
            "threatened": [cell_name(r, c) for r, c in h.threatened_cells()],  # V-31
            "defended": [f"^{col}" for col, _sail, dfd in h.ships() if dfd],   # V-30
            "start_tile_pending": h.start_pending,
            "specials": list(h.specials),
        })
    return {
        "game": "vikings", "options": {}, "round": None,
        "scorings": ["small", "major", "small", "major", "small", "final"],
        "phase": None, "active": None, "start_player": table.start_index,
        "wheel": [None] * 12, "pending": None, "players": players,
        "stacks_left": None, "bag": None, "last": None, "final": None,
    }


def _cells(s: str | None) -> list[str]:
    return [c.strip() for c in (s or "").replace(",", " ").split() if c.strip()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m renderer.vikings",
                                 description="Draw a Vikings table (notation text or view JSON) as a PNG.")
    ap.add_argument("file", help="a table in vikings-notation.md, or a view saved as .json ('-' = stdin)")
    ap.add_argument("-o", "--output", required=True, help="PNG file to write")
    ap.add_argument("--focus", type=int, default=None, help="seat whose homeland is drawn bigger")
    ap.add_argument("--tile", default="", help="cells to highlight: viking may stand on the tile (e.g. N3,W2)")
    ap.add_argument("--base", default="", help="cells to highlight: tile only, viking to the base")
    args = ap.parse_args(argv)
    raw = read_source(args.file)
    if raw is None:
        return 2
    try:
        if is_view_json(args.file, raw):
            view = json.loads(raw)
        else:
            view = table_view(raw)
        hl = {"tile": _cells(args.tile), "base": _cells(args.base)} if (args.tile or args.base) else None
        png = render_vikings(view, highlights=hl, focus=args.focus)
    except ImportError as e:
        print(f"reading the notation needs engine.vikings.notation: {e}", file=sys.stderr)
        return 2
    except (ValueError, KeyError, TypeError) as e:
        print(f"{args.file}: {e}", file=sys.stderr)
        return 2
    return write_png(args.output, png)


if __name__ == "__main__":
    raise SystemExit(main())
