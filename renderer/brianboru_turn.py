"""Brian Boru turn picture for the chat (issue 14): a public view in, a 1120 x 640 picture out.

Left: the trick in progress (B-17, B-18): the active town, its colour and region, each card played so
far with who played it, and what the player to act must decide. Right: every player's VP, coins,
renown and claims (B-31), and the marriage track in brief (B-24, B-27). Every text is at least 22 px.
Drawn from the public view only: a hand never shows here (see ``renderer.brianboru.draw_hand``).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from engine.brianboru.data import DATA
from renderer.brianboru import (
    CARD_COLOURS,
    PANEL_BG,
    PANEL_EDGE,
    PENDING_WORDS,
    _check,
    _name,
    initials,
    seat_colour,
    town_shape,
)
from renderer.common import GOLD, INK, TextLog, fit_text, readable_on, recording, star, text
from renderer.picture import PAD, PICTURE_H, PICTURE_W, badge, canvas, encode_fast, headline, soft

RULE_OF = {"town": "B-9", "keep": "B-14", "active": "B-17", "lead": "B-17", "play": "B-18", "option": "B-20",
           "extra": "B-22", "expand": "B-22", "free": "B-22", "princess": "B-27", "raid": "B-28",
           "monastery": "B-30"}


def _town(view: dict[str, Any], name: str | None) -> dict[str, Any] | None:
    return next((t for t in view.get("towns") or [] if t.get("name") == name), None)


def _region_name(rid: str | None) -> str:
    if rid in DATA.region_index:
        return DATA.region_names[DATA.region_index[rid]]
    return str(rid or "?")


def decision_words(view: dict[str, Any]) -> str:
    """What the player to act must decide, from the public ``pending`` (never its hidden options)."""
    p = view.get("pending")
    if view.get("phase") == "over":
        return "The game is over."
    if not p:
        return ""
    kind = p.get("kind")
    rule = p.get("rule") or RULE_OF.get(kind, "")
    if kind == "keep":
        waiting = ", ".join(_name(view, s) for s in p.get("seats") or [])
        return f"Draft: {waiting} to keep 2 cards ({rule})"
    what = PENDING_WORDS.get(kind, str(kind))
    extra = ""
    if kind == "play":
        extra = ": any colour; the highest white or town-colour card wins, B-19"
    elif kind == "lead":
        town = _town(view, view.get("active_town"))
        extra = f": {town['colour']} or white" if town else ""
    return f"{_name(view, p.get('seat'))} must {what}{extra} ({rule})"


def _card(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], value: int, colour: str,
          win: bool) -> None:
    x0, y0, x1, y1 = box
    fill = CARD_COLOURS.get(colour, (200, 200, 200))
    d.rounded_rectangle(box, radius=10, fill=(255, 255, 255), outline=GOLD if win else INK, width=5 if win else 2)
    d.rounded_rectangle((x0 + 4, y0 + 4, x1 - 4, y1 - 36), radius=8, fill=fill, outline=INK if colour == "white"
                        else fill)
    text(d, ((x0 + x1) / 2, (y0 + y1 - 32) / 2), str(value), 44, fill=readable_on(fill), anchor="mm", bold=True)
    text(d, ((x0 + x1) / 2, y1 - 8), colour, 22, anchor="md", bold=True)


def draw_brianboru_turn(view: dict[str, Any], *, log: TextLog | None = None) -> Image.Image:
    """The turn picture of a (public) Brian Boru view."""
    _check(view)
    with recording(log):
        return _draw(view)


def _draw(view: dict[str, Any]) -> Image.Image:
    img, d = canvas()
    letters = initials(view)
    pend = view.get("pending") or {}
    seat = pend.get("seat")
    trick = view.get("trick") or {}
    left = f"BRIAN BORU  round {view.get('round', '?')} of {view.get('rounds', '?')}"
    if view.get("phase") == "tricks":
        left += f", trick {trick.get('number', 1)} of {trick.get('of', '?')}"
    elif view.get("phase"):
        left += f", {view['phase']}"
    right = ""
    if view.get("phase") == "over":
        right = "game over"
    elif seat is not None:
        right = f"{_name(view, seat)} to {PENDING_WORDS.get(pend.get('kind'), pend.get('kind'))}"
    elif pend.get("kind") == "keep":
        right = "draft: keep 2 cards"
    colour = seat_colour(seat) if seat is not None else None
    y = headline(d, fit_text(left, 26, PICTURE_W - 560), fit_text(right, 28, 500), colour,
                 letters[seat] if seat is not None else "")
    lw = 560
    bottom = PICTURE_H - 18
    # ---- left: the trick
    d.rounded_rectangle((PAD - 6, y, PAD + lw, bottom), radius=10, fill=PANEL_BG, outline=PANEL_EDGE)
    x = PAD + 6
    ty = y + 10
    town = _town(view, view.get("active_town"))
    if town:
        town_shape(d, x + 14, ty + 16, str(town.get("colour")), 13)
        head = f"Trick for {town['name']}"
        text(d, (x + 36, ty + 2), fit_text(head, 28, lw - 60), 28, bold=True)
        soft(d, (x + 36, ty + 38), fit_text(f"{town.get('colour')} town in {_region_name(town.get('region'))}",
                                            22, lw - 60))
    else:
        text(d, (x, ty + 2), "No active town yet", 28, bold=True)
    cy = ty + 78
    cards = trick.get("cards") or []
    winner = trick.get("winner")
    n = max(len(cards), len(view["players"]) - 0)
    cw = min(100, (lw - 20) // max(1, n) - 8)
    ch = 136
    for i, c in enumerate(cards):
        cx = x + i * (cw + 8)
        s = int(c.get("seat", 0))
        _card(d, (cx, cy, cx + cw, cy + ch), int(c.get("card", 0)), str(c.get("colour", "")), winner == s)
        badge(d, cx + cw / 2, cy + ch + 20, 15, seat_colour(s), letters[s])
        text(d, (cx + cw / 2, cy + ch + 40), fit_text(_name(view, s), 22, cw + 6), 22, anchor="ma")
        if i == 0:
            soft(d, (cx + cw / 2, cy + ch + 68), "led", anchor="ma")
        if winner == s:
            star(d, cx + cw - 16, cy + ch + 20, 12, fill=GOLD)
    if not cards:
        soft(d, (x, cy + 10), "no card played yet" if view.get("phase") == "tricks" else "no trick now")
    # what must be decided
    dy = bottom - 96
    d.rounded_rectangle((PAD, dy, PAD + lw - 6, bottom - 6), radius=8, fill=(255, 246, 214), outline=GOLD, width=3)
    lines = _wrap(decision_words(view), 24, lw - 30)
    for i, ln in enumerate(lines[:3]):
        text(d, (PAD + 12, dy + 8 + i * 28), ln, 24, bold=i == 0)
    # ---- right: players
    rx = PAD + lw + 16
    rw = PICTURE_W - PAD - rx
    d.rounded_rectangle((rx - 6, y, rx + rw, bottom), radius=10, fill=PANEL_BG, outline=PANEL_EDGE)
    cols = [("VP", 226), ("coins", 310), ("renown", 406), ("track", 494)]
    hy = y + 8
    text(d, (rx + 6, hy), "Player", 22, bold=True)
    for label, cx in cols:
        text(d, (rx + cx, hy), label, 22, anchor="ra", bold=True)
    rows = view["players"]
    row_h = min(64, (bottom - hy - 34 - 74) // max(1, len(rows)))
    claims = view.get("claims") or []
    acting = set(view.get("acting") or [])
    py = hy + 32
    for p in rows:
        s = int(p["seat"])
        if s in acting:
            d.rounded_rectangle((rx - 2, py - 2, rx + rw - 4, py + row_h - 4), radius=6, fill=GOLD)
        badge(d, rx + 18, py + 14, 14, seat_colour(s), letters[s])
        name = str(p.get("name"))
        if view.get("marker") == s:
            name += " (marker)"
        if view.get("phase") == "draft" and p.get("chosen"):
            name += " - kept"
        text(d, (rx + 38, py + 14), fit_text(name, 22, 150), 22, anchor="lm", bold=s in acting)
        vals = [p.get("vp", 0), p.get("coins", 0), p.get("renown", 0), p.get("track", 1)]
        for (label, cx), v in zip(cols, vals, strict=True):
            text(d, (rx + cx, py + 14), str(v), 24 if label == "VP" else 22, anchor="rm", bold=label == "VP")
        mine = [c for c in claims if c.get("owner") == s]
        if row_h >= 54:
            words = "claims: " + (", ".join(f"{c.get('name')} {c.get('points')}" for c in mine) or "none")
            soft(d, (rx + 38, py + 28), fit_text(words, 22, rw - 50))
        py += row_h
    # marriage track in brief and the card on offer
    my = bottom - 74
    order = sorted(rows, key=lambda p: -int(p.get("track", 1)))
    top = order[0] if order else None
    m = view.get("marriage") or {}
    rev = (m.get("revealed") or {}).get("title")
    lead = f"Marriage track (top {DATA.top_space}): {top.get('name')} leads on {top.get('track')}" if top else ""
    soft(d, (rx + 6, my), fit_text(lead, 22, rw - 12))
    soft(d, (rx + 6, my + 30), fit_text(f"on offer: {rev}" if rev else "no marriage card on offer", 22, rw - 12))
    return img


def _wrap(s: str, size: int, width: float) -> list[str]:
    from renderer.common import wrap

    return wrap(s, size, width)


def render_brianboru_turn(view: dict[str, Any], *, log: TextLog | None = None) -> bytes:
    return encode_fast(draw_brianboru_turn(view, log=log))
