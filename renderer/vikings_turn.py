"""Vikings turn picture for the chat (issue 14): a view in, a 1120 x 640 picture out.

Left: the offer, one line per combo (price, tile, viking and, for the player to act, what buying it
costs them in gold and VP: V-13, V-16). Right: the acting player's homeland cropped to the columns
in use, the legal cells marked while a tile is placed (V-19 ... V-27). Top: round, coming scoring
and whose turn. Bottom: every player's gold and VP. Every text is at least 22 px.

    draw_vikings_turn(view, highlights=None, legal=None, log=None) -> PIL image
    render_vikings_turn(view, ...) -> PNG bytes
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from renderer.common import GOLD, INK, N_, WHITE, TextLog, display_name, recording, text, tr, translated, wrap
from renderer.picture import (
    FRAME_W,
    MIN_TURN_TEXT,
    PAD,
    PICTURE_H,
    PICTURE_W,
    SOFT,
    badge,
    canvas,
    encode_fast,
    headline,
    score_strip,
)
from renderer.vikings import (
    GRID,
    HIGHLIGHT_BASE,
    HIGHLIGHT_TILE,
    KIND_COLOURS,
    KIND_NAMES,
    LAST_MARK,
    PANEL_BG,
    PANEL_EDGE,
    ROW_KEYS,
    SAIL_DEPTH,
    SAIL_REWARD,
    SEA,
    SEA_SHIPS,
    THREAT,
    _auction_now,
    _draw_figure,
    _name,
    _paste,
    _seat_colour,
    _shield,
    parse_cell,
    special_name,
    tile_caption,
    tile_sprite,
)

STRIP_H = 78
OFFER_W = 540     # the offer's width while the homeland has room enough beside it
OFFER_MIN_W = 400  # a wide homeland (issue 13/14 follow-up) takes the offer's room down to this,
OFFER_MIN_W_PLACING = 340  # or this while nobody buys (no cost column)
BASE_W = 74       # the homeland's base column (a kind badge and its count per row)
READABLE_CELL = 48  # a homeland cell this big is 23 px at Discord's inline size: letters and marks read
SCORING_WORDS = {"small": N_("small scoring"), "major": N_("major scoring"), "final": N_("major + final scoring")}
ACTING_WORDS = {
    "buy": N_("{name} to buy"), "place": N_("{name} to place"), "sail": N_("{name} to sail"),
    "bid": N_("{name} to bid"), "remove": N_("{name} to remove"), "lay": N_("{name} to lay out"),
    "special": N_("{name}: special tile"), "swap": N_("{name} to swap"), "setup": N_("{name} to set up"),
}


def _check(view: Any) -> None:
    if not isinstance(view, dict) or view.get("game", "vikings") != "vikings":
        raise ValueError("a Vikings turn picture needs a Vikings view (view['game'] == 'vikings')")
    if not isinstance(view.get("players"), list) or not view["players"]:
        raise ValueError("the view has no players")


def combo_cost(price: int, gold: int, vp: int) -> tuple[int, int] | None:
    """(gold, VP) that buying at ``price`` costs: the shortfall is exchanged 1 : 1 from VP (V-16),
    never below 0 VP; ``None`` when even that does not cover it (V-13)."""
    if price <= gold:
        return price, 0
    short = price - gold
    return (gold, short) if short <= vp else None


def cost_words(cost: tuple[int, int] | None) -> str:
    if cost is None:
        return tr("too dear")
    g, v = cost
    if v:
        return tr("{gold}g + {vp} VP", gold=g, vp=v)
    return tr("free") if g == 0 else tr("{gold} gold", gold=g)


def _buyable(legal: Iterable[str] | None) -> set[int] | None:
    if legal is None:
        return None
    out = set()
    for a in legal:
        w = str(a).split()
        if len(w) == 2 and w[0] == "buy" and w[1].isdigit():
            out.add(int(w[1]))
    return out


def _player(view: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
    players: list[dict[str, Any]] = view["players"]
    for p in players:
        if p.get("seat") == seat:
            return p
    return None


def kind_badge(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float = 16) -> None:
    col = KIND_COLOURS.get(kind, (128, 128, 128))
    badge(d, cx, cy, r, col, kind, outline=WHITE if kind == "W" else INK)


def _tile_icon(img: Image.Image, d: ImageDraw.ImageDraw, tile: str, x: int, y: int, s: int) -> None:
    code = tile.rstrip("*")
    d.rectangle((x, y, x + s - 1, y + s - 1), fill=SEA_SHIPS if code.startswith("^") else SEA, outline=GRID)
    if code:
        _paste(img, tile_sprite(code, s), x, y)


def tile_words(tile: str | None) -> str:
    """The tile in words (sail colours and island ends never rest on colour or shape alone)."""
    if not tile:
        return tr("no tile yet")  # V-42: during the auction the offer has no tiles
    code = str(tile).rstrip("*")
    if code.startswith("^"):
        reward = SAIL_REWARD.get(code[1:2], "")  # "3g", "2VP" (V-3 / [D-3])
        amount = reward.rstrip("gVP")
        if amount.isdigit():
            reward = tr("{gold}g", gold=amount) if reward.endswith("g") else tr("{vp} VP", vp=amount)
        return f"{tile_caption(code)} {reward}"
    return tile_caption(code)


# --------------------------------------------------------------------------- offer


def _draw_offer(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int, h: int,
                buyer: dict[str, Any] | None, buyable: set[int] | None) -> None:
    wheel = [(i, c) for i, c in enumerate(view.get("wheel") or []) if c]
    sailing = not wheel and view.get("phase") == "sail"
    title = (tr("Offer - cost for {name}", name=display_name(buyer.get("name"))) if buyer else
             tr("Sailors before the major scoring") if sailing else tr("Offer"))  # the heading names the panel
    text(d, (x, y), title, 24, bold=True, max_width=w)
    y += 32
    if not wheel:
        if sailing:  # V-33, V-34: the major scoring waits for the sailors
            lines = wrap(tr("Major scoring: {name} moves sailors first. A sailor takes vikings from the base "
                            "onto empty island tiles of their own row ({rule_sail}); then ships, nobles, scouts "
                            "and goldsmiths score ({rule_score}).", name=_name(view, view.get("active")),
                            rule_sail="V-34", rule_score="V-33"), 22, w - 10)
            for i, ln in enumerate(lines[: max(1, (h - 36) // 30)]):
                text(d, (x, y + 4 + i * 30), ln, 22, max_width=w - 4)
            return
        text(d, (x, y + 4), tr("the offer is empty"), 22, fill=SOFT, max_width=w - 4)
        return
    cols = 1 if (h - 32) // len(wheel) >= 30 or buyer is not None else 2  # the auction box takes room
    cost_w = 110 if buyer is not None else 6
    per_col = -(-len(wheel) // cols)
    row_h = max(30, min(44, (h - 32) // per_col))
    ts = row_h - 4
    cw = w // cols
    for i, (pos, combo) in enumerate(wheel):
        c, r = divmod(i, per_col)
        x0 = x + c * cw
        ry = y + r * row_h
        price = int(combo.get("price", pos))
        cost = combo_cost(price, int(buyer.get("gold", 0)), int(buyer.get("vp", 0))) if buyer else None
        ok = buyer is not None and cost is not None and (buyable is None or pos in buyable)
        if r % 2 == 0:
            d.rectangle((x0 - 4, ry, x0 + cw - 6, ry + row_h - 1), fill=(240, 234, 222))
        text(d, (x0 + 30, ry + row_h / 2), str(price), 26, anchor="rm", bold=True)
        _tile_icon(img, d, str(combo.get("tile") or ""), x0 + 38, ry + 2, ts)
        # one column with room for the kind's word: tile words, badge, word; else (two columns, or a
        # narrow offer beside a wide homeland) the kind's lettered badge alone, at the row's end
        worded = cols == 1 and w - 44 - ts - cost_w >= 176 + 34 + 90
        cap_w = 172 if worded else cw - ts - 90 if cols == 2 else w - 44 - ts - cost_w - 44
        text(d, (x0 + 44 + ts, ry + row_h / 2), tile_words(combo.get("tile")), 22, anchor="lm", max_width=cap_w)
        v = combo.get("viking")
        if v and worded:
            kx = x0 + 44 + ts + 176
            kind_badge(d, str(v), kx + 14, ry + row_h / 2, min(15, row_h / 2 - 2))
            kind = tr(KIND_NAMES[str(v)]) if str(v) in KIND_NAMES else str(v)
            text(d, (kx + 34, ry + row_h / 2), kind, 22, anchor="lm", max_width=x + w - cost_w - (kx + 34))
        elif v:
            bx = x0 + cw - 24 if cols == 2 else x + w - cost_w - 22
            kind_badge(d, str(v), bx, ry + row_h / 2, min(15, row_h / 2 - 2))
        if buyer is not None:
            words = cost_words(cost) if (cost is None or buyable is None or pos in buyable) else tr("not now")
            fill = INK if ok else (150, 40, 40)
            text(d, (x + w - 4, ry + row_h / 2), words, 22, anchor="rm", bold=ok, fill=fill, max_width=106)


def _draw_auction(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int) -> None:
    """The start-player auction (V-41, V-42): the bid, the drawn vikings, the removed kinds, specials."""
    a = view.get("auction") or {}
    d.rounded_rectangle((x - 4, y, x + w, y + 104), radius=8, fill=(255, 246, 214), outline=GOLD, width=2)
    bids = a.get("bids") or None
    if bids:
        leader = bids.get("leader")
        head = (tr("Auction: high bid {bid} by {name}", bid=bids.get("high", 0), name=_name(view, leader))
                if leader is not None else tr("Auction: high bid {bid}, nobody yet", bid=bids.get("high", 0)))
    else:
        head = tr("Auction: drawn vikings")
    removed = a.get("removed") or []
    if removed:
        head += tr("; removed {kinds}", kinds=" ".join(str(k) for k in removed))
    text(d, (x + 6, y + 6), head, 22, bold=True, max_width=w - 14)
    drawn = [str(k) for k in a.get("drawn") or []]
    step = min(36, (w - 20) / max(1, len(drawn)))
    for i, k in enumerate(drawn):
        kind_badge(d, k, x + 20 + i * step, y + 52, min(15, step / 2 - 1))
    specials = view.get("specials_display") or []
    if specials:
        text(d, (x + 6, y + 72), tr("special tiles: {tiles}", tiles=", ".join(special_name(str(t)) for t in specials if t is not None)), 22,
             fill=SOFT, max_width=w - 14)


# --------------------------------------------------------------------------- homeland


def _needed_cols(p: dict[str, Any], cells: list[str]) -> int:
    n = max((len(r) for r in p.get("rows") or []), default=0) + 1
    for c in cells:
        rc = parse_cell(c)
        if rc:
            n = max(n, rc[1])
    return max(3, n)


def _homeland_cols(p: dict[str, Any], highlights: dict[str, list[str]] | None, last: dict[str, Any] | None) -> int:
    hl_cells = [c for k in ("tile", "base") for c in (highlights or {}).get(k, [])]
    last_cells = list((last or {}).get("cells") or []) if (last or {}).get("seat") == p.get("seat") else []
    return _needed_cols(p, hl_cells + last_cells)


def homeland_cell(ncols: int, w: float, h: float, min_text: int = 22) -> int:
    """The cell size of a homeland of ``ncols`` columns drawn in ``w`` x ``h``: as large as both
    allow, from a few sizes only (their sprites are drawn once, then reused)."""
    c = int(min((w - BASE_W - 6) / ncols, (h - min_text - 8) / 6))
    return max(24, min(c, 80)) // 8 * 8


def homeland_width(ncols: int, c: int) -> int:
    """The width :func:`draw_homeland` needs for ``ncols`` columns of ``c`` px."""
    return BASE_W + 6 + ncols * c + 1


def draw_homeland(img: Image.Image, d: ImageDraw.ImageDraw, p: dict[str, Any], x: int, y: int, w: int, h: int,
                  highlights: dict[str, list[str]] | None = None, last: dict[str, Any] | None = None,
                  min_text: int = 22, labels: bool = False) -> None:
    """One homeland cropped to its columns in use (plus one), base counts on the left; ``labels``:
    each highlighted cell names itself (``N3``), as the sailor dialog's picker does (V-34)."""
    last_cells = list((last or {}).get("cells") or []) if (last or {}).get("seat") == p.get("seat") else []
    ncols = _homeland_cols(p, highlights, last)
    base_w = BASE_W
    top = min_text + 8
    c = homeland_cell(ncols, w, h, min_text)
    gx = x + base_w + 6
    gy = y + top
    # column numbers, only as many as are legible
    step = 1 if c >= min_text * 1.2 else 2
    for col in range(1, ncols + 1, step):
        text(d, (gx + (col - 0.5) * c, y + top / 2), str(col), min_text, anchor="mm", fill=(92, 84, 72))
    # base: a kind badge and its count per row; sailors beside the ships row
    base = p.get("base") or {}
    d.rounded_rectangle((x, gy, x + base_w, gy + 6 * c), radius=8, fill=(226, 221, 210), outline=PANEL_EDGE)
    for r in range(6):
        k = "B" if r == 0 else ROW_KEYS[r]
        cy = gy + r * c + c / 2
        rad = min(15, c / 2 - 2)
        kind_badge(d, k, x + 4 + rad, cy, rad)
        n = int(base.get(k, 0) or 0)
        text(d, (x + base_w - 4, cy), f"x{n}" if n else "-", min_text, anchor="rm", bold=bool(n),
             fill=INK if n else (120, 112, 100))
    gw = ncols * c
    d.rectangle((gx, gy, gx + gw, gy + c), fill=SEA_SHIPS)
    d.rectangle((gx, gy + c, gx + gw, gy + 6 * c), fill=SEA)
    for col in range(ncols + 1):
        d.line((gx + col * c, gy, gx + col * c, gy + 6 * c), fill=GRID)
    for r in range(7):
        d.line((gx, gy + r * c, gx + gw, gy + r * c), fill=GRID)
    threatened = set(p.get("threatened") or [])
    defended = set(p.get("defended") or [])
    for r, row in enumerate((p.get("rows") or [])[:6]):
        for i, cell in enumerate(row[:ncols]):
            if not cell or cell == ".":
                continue
            x0, y0 = gx + i * c, gy + r * c
            code = cell.rstrip("*")
            _paste(img, tile_sprite(code, c), x0, y0)
            if r == 0:
                if f"^{i + 1}" in defended:
                    _shield(d, x0 + c * 0.745, y0 + c * 0.1, c * 0.24)
                elif SAIL_DEPTH.get(code[1:2]):  # V-31: an undefended ship's threat arrow
                    ax, ay, aw = x0 + c * 0.87, y0 + c * 0.2, c * 0.1
                    d.polygon([(ax - aw, ay), (ax + aw, ay), (ax, ay + aw * 2)], fill=THREAT)
                continue
            if cell.endswith("*"):
                cx = c * 0.64 if code[0] in "MX" else c * 0.5
                _draw_figure(img, d, ROW_KEYS[r], x0, y0, c, cx, f"{ROW_KEYS[r]}{i + 1}" in threatened)
    for key, colour in (("tile", HIGHLIGHT_TILE), ("base", HIGHLIGHT_BASE)):
        for cell in (highlights or {}).get(key) or []:
            rc = parse_cell(cell)
            if rc is None or rc[1] > ncols:
                continue
            r, col = rc
            x0, y0 = gx + (col - 1) * c, gy + r * c
            d.rectangle((x0 + 2, y0 + 2, x0 + c - 2, y0 + c - 2), fill=colour, outline=INK, width=2)
            m = c * 0.22
            if key == "tile" and labels:  # the cell's name instead of the ring, as the picker says it
                text(d, (x0 + c / 2, y0 + c / 2), cell, max(min_text, int(c * 0.42)), anchor="mm", bold=True,
                     fill=INK, max_width=c - 6)
            elif key == "tile":  # a ring: the viking may stand here
                d.ellipse((x0 + m, y0 + m, x0 + c - m, y0 + c - m), outline=INK, width=max(3, c // 12))
            else:  # a cross: the tile alone, the viking goes to the base
                lw = max(3, c // 12)
                d.line((x0 + m, y0 + m, x0 + c - m, y0 + c - m), fill=INK, width=lw)
                d.line((x0 + m, y0 + c - m, x0 + c - m, y0 + m), fill=INK, width=lw)
    for cell in last_cells:
        rc = parse_cell(cell)
        if rc is None or rc[1] > ncols:
            continue
        r, col = rc
        x0, y0 = gx + (col - 1) * c, gy + r * c
        d.rectangle((x0 + 1, y0 + 1, x0 + c - 1, y0 + c - 1), outline=LAST_MARK, width=max(3, c // 14))


# --------------------------------------------------------------------------- picture


def _headline_words(view: dict[str, Any]) -> tuple[str, str]:
    rnd = view.get("round")
    scorings = view.get("scorings") or ["small", "major", "small", "major", "small", "final"]
    left = tr("VIKINGS")
    if rnd:
        left += "  " + tr("round {round} of {rounds}", round=rnd, rounds=6)
        if view.get("phase") != "over" and 1 <= int(rnd) <= len(scorings):
            kind = scorings[int(rnd) - 1]
            left += tr(", then {scoring}", scoring=tr(SCORING_WORDS[kind]) if kind in SCORING_WORDS else kind)
    phase = view.get("phase")
    if phase == "over":
        return left, tr("game over")
    active = view.get("active")
    if active is None:
        return left, ""
    name = _name(view, active)
    return left, tr(ACTING_WORDS[str(phase)], name=name) if str(phase) in ACTING_WORDS else f"{name} {phase}"


@translated(MIN_TURN_TEXT)
def draw_vikings_turn(view: dict[str, Any], *, highlights: dict[str, list[str]] | None = None, labels: bool = False,
                      legal: Iterable[str] | None = None, log: TextLog | None = None,
                      shown: int | None = None) -> Image.Image:
    """The turn picture. ``legal``: the acting seat's legal action texts (marks combos it may not buy,
    e.g. V-14); ``highlights``: ``{"tile": [...], "base": [...]}`` cells of the pending placement;
    ``shown``: the seat whose homeland is drawn (None: the player acting);
    ``tr``/``ntr`` (keyword-only): the table's translator, see :func:`renderer.common.translated`."""
    _check(view)
    with recording(log):
        return _draw(view, highlights, legal, labels, shown)


STRIP_Y = PICTURE_H - FRAME_W - 6 - STRIP_H
BODY_Y = FRAME_W + 8 + 52  # below the headline


@dataclass(frozen=True)
class TurnLayout:
    """Where the turn picture puts the offer (left) and the shown homeland (right)."""

    shown: dict[str, Any] | None  # the player whose homeland is drawn
    highlights: dict[str, list[str]] | None       # the marks drawn on it (only on the acting player's own)
    offer_w: int
    hw: int                       # the homeland panel's width
    hy: int                       # the grid's top (below the panel's title line)
    home_h: int
    cell: int                     # the homeland's cell size in px (0: no homeland)


def turn_layout(view: dict[str, Any], highlights: dict[str, list[str]] | None = None, y: int = BODY_Y,
                shown_seat: int | None = None) -> TurnLayout:
    """The split between offer and homeland: the homeland of the player acting (placing: the buyer;
    ``shown_seat``: that seat's instead, e.g. the player who just moved in a recap's frame) gets
    :data:`OFFER_W`'s rest, and a wide one (late in the game, 12 columns) takes room from the
    offer (down to :data:`OFFER_MIN_W`) until its cells reach :data:`READABLE_CELL`, so that at
    Discord's inline size (550 px wide) its buildings and ship marks read (issue 13/14 follow-up)."""
    active = view.get("active")
    pending = view.get("pending") or None
    shown = _player(view, active) or (view["players"][0] if view["players"] else None)
    if pending and pending.get("tile"):
        shown = _player(view, pending.get("seat")) or shown
    elif shown_seat is not None:
        shown = _player(view, shown_seat) or shown
    owner = pending.get("seat") if pending else active  # placing: the buyer; sailing: the one to act
    hl = highlights if shown is not None and shown.get("seat") == owner else None
    hy = y + (46 if pending and pending.get("tile") else 40)
    home_h = STRIP_Y - 14 - hy
    hw = PICTURE_W - PAD - (PAD + OFFER_W + 20)
    c = 0
    if shown is not None:
        ncols = _homeland_cols(shown, hl, view.get("last"))
        widest = PICTURE_W - PAD - (PAD + (OFFER_MIN_W if view.get("phase") == "buy" else OFFER_MIN_W_PLACING) + 20)
        c = homeland_cell(ncols, hw - 4, home_h)
        wide = min(homeland_cell(ncols, widest - 4, home_h), max(c, READABLE_CELL))
        if wide > c:
            hw, c = max(hw, homeland_width(ncols, wide) + 4), wide
    return TurnLayout(shown, hl, PICTURE_W - PAD - hw - 20 - PAD, hw, hy, home_h, c)


def _draw(view: dict[str, Any], highlights: dict[str, list[str]] | None, legal: Iterable[str] | None,
          labels: bool = False, shown_seat: int | None = None) -> Image.Image:
    img, d = canvas()
    active = view.get("active")
    left, right = _headline_words(view)
    colour = _seat_colour(active) if active is not None else None
    y = headline(d, left, right, colour, _name(view, active)[:1])
    strip_y = STRIP_Y
    mid_h = strip_y - y - 8
    pending = view.get("pending") or None
    acting = _player(view, active)
    phase = view.get("phase")
    lay = turn_layout(view, highlights, y, shown_seat)
    shown, hl, hy, home_h, hw, offer_w = lay.shown, lay.highlights, lay.hy, lay.home_h, lay.hw, lay.offer_w
    buyer = acting if phase == "buy" else None
    placing = bool(highlights and (highlights.get("tile") or highlights.get("base")))
    auction = _auction_now(view)
    two_line = placing and phase != "sail" and offer_w < 500  # a narrow offer: one mark a line
    legend_h = (74 if two_line else 40) if placing else 0
    below = legend_h + (112 if auction else 0)
    _draw_offer(img, d, view, PAD, y, offer_w, mid_h - below, buyer, _buyable(legal))
    if auction:
        _draw_auction(d, view, PAD, strip_y - 8 - legend_h - 108, offer_w)
    hx = PAD + offer_w + 20
    d.rounded_rectangle((hx - 8, y - 4, hx + hw + 4, strip_y - 8), radius=10, fill=PANEL_BG, outline=PANEL_EDGE)
    if pending and pending.get("tile"):
        who = _name(view, pending.get("seat"))
        _tile_icon(img, d, str(pending["tile"]), hx, y, 40)
        line = tr("{name} places {tile}", name=who, tile=tile_words(pending["tile"]))
        text(d, (hx + 48, y + 8), line, 22, bold=True, max_width=hw - 100)
        if pending.get("viking"):
            kind_badge(d, str(pending["viking"]), hx + hw - 20, y + 20, 16)
    elif shown is not None:
        text(d, (hx, y + 4), tr("{name}'s homeland", name=display_name(shown.get("name"))), 24, bold=True, max_width=hw)
    if shown is not None:
        draw_homeland(img, d, shown, hx, hy, hw - 4, home_h, hl, view.get("last"), labels=labels)
    # legend of the marks, only while placing
    if placing:
        lx: float = PAD
        ly = strip_y - legend_h + 6
        d.rectangle((lx - 4, ly - 4, PAD + offer_w, strip_y - 6), fill=(252, 250, 245))
        d.rectangle((lx, ly, lx + 24, ly + 24), fill=HIGHLIGHT_TILE, outline=INK, width=2)
        d.ellipse((lx + 5, ly + 5, lx + 19, ly + 19), outline=INK, width=3)
        sailing = view.get("phase") == "sail"
        room = PAD + offer_w - lx - 34 if sailing or two_line else (offer_w - 2 * 30 - 16) / 2
        lx += 30 + text(d, (lx + 30, ly), tr("a sailor may bring a viking") if sailing else tr("viking stands"), 22,
                        max_width=room) + 16
        if two_line:
            lx, ly = PAD, ly + 34
        if not sailing:
            d.rectangle((lx, ly, lx + 24, ly + 24), fill=HIGHLIGHT_BASE, outline=INK, width=2)
            d.line((lx + 5, ly + 5, lx + 19, ly + 19), fill=INK, width=3)
            d.line((lx + 5, ly + 19, lx + 19, ly + 5), fill=INK, width=3)
            text(d, (lx + 30, ly), tr("viking to base"), 22, max_width=PAD + offer_w - lx - 34)
    cells = []
    for p in view["players"]:
        s = p.get("seat")
        name = display_name(p.get("name", tr("seat {seat}", seat=s)))
        if s == view.get("start_player"):
            name = tr("{name} (start)", name=name)
        values = [tr("{gold} gold", gold=p.get("gold", 0)), tr("{vp} VP", vp=p.get("vp", 0))]
        cells.append((name, _seat_colour(int(s or 0)), name[:1], values,
                      s == active and phase != "over"))
    score_strip(d, strip_y, STRIP_H, cells)
    return img


@translated(MIN_TURN_TEXT)
def render_vikings_turn(view: dict[str, Any], *, highlights: dict[str, list[str]] | None = None,
                        legal: Iterable[str] | None = None, log: TextLog | None = None, labels: bool = False,
                        shown: int | None = None) -> bytes:
    """The turn picture as image bytes; ``labels``: the highlighted cells name themselves (V-34)."""
    return encode_fast(draw_vikings_turn(view, highlights=highlights, legal=legal, log=log, labels=labels,
                                         shown=shown))

