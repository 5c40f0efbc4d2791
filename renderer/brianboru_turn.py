"""Brian Boru turn picture for the chat (issue 14): a public view in, a 1120 x 640 picture out.

Left: the trick in progress (B-17, B-18): the active town, its colour and region, each card played so
far with who played it, and what the player to act must decide. Right: every player's VP, coins,
renown and claims (B-31), and the marriage track in brief (B-25, B-27). Every text is at least 22 px.
Drawn from the public view only: a hand never shows here (see ``renderer.brianboru.draw_hand``).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from engine.brianboru.data import DATA
from renderer.brianboru import (
    CARD_BACK_FRONT,
    CARD_BACK_KEPT,
    CARD_COLOURS,
    COLOUR_WORDS,
    PANEL_BG,
    PANEL_EDGE,
    PENDING_WORDS,
    PHASE_WORDS,
    _check,
    _name,
    card_title,
    initials,
    seat_colour,
    town_shape,
)
from renderer.common import (
    GOLD,
    INK,
    WHITE,
    TextLog,
    display_name,
    name_forms,
    readable_on,
    recording,
    star,
    text,
    text_width,
    tr,
    translated,
    wrap,
)
from renderer.picture import (
    MIN_TURN_TEXT,
    PAD,
    PICTURE_H,
    PICTURE_W,
    SOFT,
    badge,
    canvas,
    encode_fast,
    headline,
)

RULE_OF = {"town": "B-9", "keep": "B-14", "active": "B-17", "lead": "B-17", "play": "B-18", "option": "B-20",
           "extra": "B-22", "expand": "B-22", "free": "B-22", "princess": "B-27", "raid": "B-28",
           "monastery": "B-30"}


def _town(view: dict[str, Any], name: str | None) -> dict[str, Any] | None:
    return next((t for t in view.get("towns") or [] if t.get("name") == name), None)


def colour_word(colour: object) -> str:
    """A card's or town's colour in the table's language."""
    return tr(COLOUR_WORDS[str(colour)]) if str(colour) in COLOUR_WORDS else str(colour)


def _region_name(rid: str | None) -> str:
    if rid in DATA.region_index:
        return DATA.region_names[DATA.region_index[rid]]
    return str(rid or "?")


def decision_words(view: dict[str, Any]) -> str:
    """What the player to act must decide, from the public ``pending`` (never its hidden options)."""
    p = view.get("pending")
    if view.get("phase") == "over":
        return tr("The game is over.")
    if not p:
        return ""
    kind = p.get("kind")
    rule = p.get("rule") or RULE_OF.get(kind, "")
    if kind == "keep":
        waiting = ", ".join(_name(view, s) for s in p.get("seats") or [])
        return tr("Draft: {names} to keep 2 cards ({rule})", names=waiting, rule=rule)
    what = tr(PENDING_WORDS[kind]) if kind in PENDING_WORDS else str(kind)
    name = _name(view, p.get("seat"))
    if kind == "play":
        return tr("{name} must {what}: any colour; the highest white or town-colour card wins, {rule_win} ({rule})",
                  name=name, what=what, rule_win="B-19", rule=rule)
    town = _town(view, view.get("active_town")) if kind == "lead" else None
    if town:
        return tr("{name} must {what}: {colour} or white ({rule})", name=name, what=what,
                  colour=colour_word(town["colour"]), rule=rule)
    return tr("{name} must {what} ({rule})", name=name, what=what, rule=rule)


def _card(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], value: int, colour: str,
          win: bool) -> None:
    x0, y0, x1, y1 = box
    fill = CARD_COLOURS.get(colour, (200, 200, 200))
    d.rounded_rectangle(box, radius=10, fill=(255, 255, 255), outline=GOLD if win else INK, width=5 if win else 2)
    d.rounded_rectangle((x0 + 4, y0 + 4, x1 - 4, y1 - 36), radius=8, fill=fill, outline=INK if colour == "white"
                        else fill)
    text(d, ((x0 + x1) / 2, (y0 + y1 - 32) / 2), str(value), 44, fill=readable_on(fill), anchor="mm", bold=True)
    text(d, ((x0 + x1) / 2, y1 - 8), colour_word(colour), 22, anchor="md", bold=True, within=(x0 + 2, y0, x1 - 2, y1))


@translated(MIN_TURN_TEXT)
def draw_brianboru_turn(view: dict[str, Any], *, log: TextLog | None = None) -> Image.Image:
    """The turn picture of a (public) Brian Boru view (``tr``/``ntr``: the table's translator)."""
    _check(view)
    with recording(log):
        return _draw(view)


def _draw(view: dict[str, Any]) -> Image.Image:
    img, d = canvas()
    letters = initials(view)
    pend = view.get("pending") or {}
    seat = pend.get("seat")
    trick = view.get("trick") or {}
    left = tr("BRIAN BORU") + "  " + tr("round {round} of {rounds}", round=view.get("round", "?"),
                                         rounds=view.get("rounds", "?"))
    phase = view.get("phase")
    if phase == "tricks":
        left += ", " + tr("trick {trick} of {tricks}", trick=trick.get("number", 1), tricks=trick.get("of", "?"))
    elif phase:
        left += ", " + (tr(PHASE_WORDS[phase]) if phase in PHASE_WORDS else str(phase))
    right = ""
    kind = pend.get("kind")
    if phase == "over":
        right = tr("game over")
    elif seat is not None:
        right = tr("{name} to {what}", name=_name(view, seat),
                   what=tr(PENDING_WORDS[kind]) if kind in PENDING_WORDS else kind)
    elif kind == "keep":
        right = tr("draft: keep 2 cards")
    colour = seat_colour(seat) if seat is not None else None
    y = headline(d, left, right, colour, letters[seat] if seat is not None else "")
    lw = 560
    bottom = PICTURE_H - 18
    # ---- left: the trick (the draft while it lasts)
    d.rounded_rectangle((PAD - 6, y, PAD + lw, bottom), radius=10, fill=PANEL_BG, outline=PANEL_EDGE)
    x = PAD + 6
    ty = y + 10
    town = _town(view, view.get("active_town"))
    if phase == "draft":
        _draw_draft(d, view, x, ty, lw - 20, bottom - 112 - ty)
    elif phase == "setup":
        _draw_setup(d, view, x, ty, lw - 20, bottom - 112 - ty)
    elif town:
        town_shape(d, x + 14, ty + 16, str(town.get("colour")), 13)
        head = tr("Trick for {town}", town=town["name"])
        text(d, (x + 36, ty + 2), head, 28, bold=True, max_width=lw - 60)
        where = tr("{colour} town in {region}", colour=colour_word(town.get("colour")),
                   region=_region_name(town.get("region")))
        text(d, (x + 36, ty + 38), where, 22, fill=SOFT, max_width=lw - 60)
    else:
        text(d, (x, ty + 2), tr("No active town yet"), 28, bold=True, max_width=lw - 20)
    cy = ty + 78
    cards = trick.get("cards") or [] if phase not in ("draft", "setup") else []
    winner = trick.get("winner")
    n = max(len(cards), len(view["players"]) - 0)
    cw = min(100, (lw - 20) // max(1, n) - 8)
    ch = 136
    for i, c in enumerate(cards):
        cx = x + i * (cw + 8)
        s = int(c.get("seat", 0))
        _card(d, (cx, cy, cx + cw, cy + ch), int(c.get("card", 0)), str(c.get("colour", "")), winner == s)
        badge(d, cx + cw / 2, cy + ch + 20, 15, seat_colour(s), letters[s])
        text(d, (cx + cw / 2, cy + ch + 40), _name(view, s), 22, anchor="ma", max_width=cw + 6)
        if i == 0:
            text(d, (cx + cw / 2, cy + ch + 68), tr("led"), 22, fill=SOFT, anchor="ma", max_width=cw + 6)
        if winner == s:
            star(d, cx + cw - 16, cy + ch + 20, 12, fill=GOLD)
    if not cards and phase not in ("draft", "setup"):
        text(d, (x, cy + 10), tr("no card played yet") if phase == "tricks" else tr("no trick now"), 22, fill=SOFT,
             max_width=lw - 20)
    # what must be decided
    dy = bottom - 102
    box = (PAD, dy, PAD + lw - 6, bottom - 6)
    d.rounded_rectangle(box, radius=8, fill=(255, 246, 214), outline=GOLD, width=3)
    decision = decision_words(view)
    lines = _wrap(decision, 24, lw - 30)
    for short in name_forms(decision):  # computer players' names take a line each (QA)
        if len(lines) <= 2:
            break
        lines = _wrap(short, 24, lw - 30)
    if len(lines) > 3:  # a long translation: the third line ends in ..
        lines = lines[:2] + [lines[2] + " " + " ".join(lines[3:])]
    for i, ln in enumerate(lines[:3]):
        text(d, (PAD + 12, dy + 6 + i * 29), ln, 24, bold=i == 0, within=(PAD + 10, dy + 2, PAD + lw - 16, box[3] - 2))
    # ---- right: players
    rx = PAD + lw + 16
    rw = PICTURE_W - PAD - rx
    d.rounded_rectangle((rx - 6, y, rx + rw, bottom), radius=10, fill=PANEL_BG, outline=PANEL_EDGE)
    rows = view["players"]
    heads = {"VP": tr("VP"), "coins": tr("coins"), "renown": tr("renown"), "track": tr("track")}
    vals_of = {"VP": [p.get("vp", 0) for p in rows], "coins": [p.get("coins", 0) for p in rows],
               "renown": [p.get("renown", 0) for p in rows], "track": [p.get("track", 1) for p in rows]}
    # each number column as wide as its heading or widest number, the names get the rest (issue 18:
    # "Poważanie", "stupnice" and "Cormac (marker)" were cut in fixed columns)
    widths = {k: max([text_width(h, 22) + 4] + [text_width(str(v), 24 if k == "VP" else 22) + 4
                                                 for v in vals_of[k]]) for k, h in heads.items()}
    over = sum(w + 14 for w in widths.values()) - (rw - 10 - 38 - NAMES_LEAST)
    if over > 0:  # a long translation: the names keep their room, the widest headings give theirs
        for k in sorted(widths, key=lambda k: -widths[k]):
            widths[k] -= min(over, max(0.0, widths[k] - 60))
            over = sum(w + 14 for w in widths.values()) - (rw - 10 - 38 - NAMES_LEAST)
            if over <= 0:
                break
    cols: list[tuple[str, float]] = []
    col_x = rw - 10.0
    for label in ("track", "renown", "coins", "VP"):
        cols.insert(0, (label, col_x))
        col_x -= widths[label] + 14
    name_w = col_x - 38 + 14 - 6  # from the name's start to the first number column's room
    hy = y + 8
    text(d, (rx + 6, hy), tr("Player"), 22, bold=True, max_width=name_w + 32)
    prev = cols[0][1] - widths["VP"] - 8
    for label, col_x in cols:  # each heading has the room between its column and the previous one
        text(d, (rx + col_x, hy), heads[label], 22, anchor="ra", bold=True, max_width=col_x - prev - 6)
        prev = col_x
    row_h = min(64, (bottom - hy - 34 - 74) // max(1, len(rows)))
    claims = view.get("claims") or []
    acting = set(view.get("acting") or [])
    py = hy + 32
    for p in rows:
        s = int(p["seat"])
        if s in acting:
            d.rounded_rectangle((rx - 2, py - 2, rx + rw - 4, py + row_h - 4), radius=6, fill=GOLD)
        badge(d, rx + 18, py + 14, 14, seat_colour(s), letters[s])
        name = display_name(p.get("name"))
        marker = view.get("marker") == s
        # the start player's marker goes after the name where it fits whole, else on the line below
        with_marker = tr("{name} (marker)", name=name) if marker else name
        fits = [f for f in [with_marker, *name_forms(with_marker)] if text_width(f, 22) + 2 * bool(s in acting) <= name_w]
        below = marker and not fits and row_h >= 54
        text(d, (rx + 38, py + 14), fits[0] if fits else name, 22, anchor="lm", bold=s in acting, max_width=name_w)
        vals = [p.get("vp", 0), p.get("coins", 0), p.get("renown", 0), p.get("track", 1)]
        for (label, col_x), v in zip(cols, vals, strict=True):
            text(d, (rx + col_x, py + 14), str(v), 24 if label == "VP" else 22, anchor="rm", bold=label == "VP")
        mine = [c for c in claims if c.get("owner") == s]
        if row_h >= 54:
            listed = ", ".join(f"{c.get('name')} {c.get('points')}" for c in mine)
            words = tr("claims: {claims}", claims=listed) if listed else tr("claims: none")
            wx = rx + 38.0
            if below:  # no new message: the marker's words, a middle dot, the claims
                wx += text(d, (wx, py + 28), tr("holds the marker") + " \u00b7 ", 22, fill=SOFT, max_width=rw - 50)
            text(d, (wx, py + 28), words, 22, fill=SOFT, max_width=rx + rw - 12 - wx)
        py += row_h
    # marriage track in brief and the card on offer
    my = bottom - 74
    order = sorted(rows, key=lambda p: -int(p.get("track", 1)))
    top = order[0] if order else None
    m = view.get("marriage") or {}
    rev = card_title(m["revealed"]) if m.get("revealed") else None
    lead = tr("Marriage track (top {top}): {name} leads on {track}", top=DATA.top_space, name=display_name(top.get("name")),
              track=top.get("track")) if top else ""
    text(d, (rx + 6, my), lead, 22, fill=SOFT, max_width=rw - 12)
    offer = tr("on offer: {card}", card=rev) if rev else tr("no marriage card on offer")
    text(d, (rx + 6, my + 30), offer, 22, fill=SOFT, max_width=rw - 12)
    return img


NAMES_LEAST = 158  # px the players' names keep in the players' table, whatever its headings need

CHOSEN = (40, 130, 60)  # the check of a player who has chosen their cards (vikings' scoring check)


def card_back(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: tuple[int, int, int]) -> None:
    """A face-down action card."""
    d.rounded_rectangle(box, radius=5, fill=fill, outline=INK, width=2)
    x0, y0, x1, y1 = box
    d.rounded_rectangle((x0 + 5, y0 + 5, x1 - 5, y1 - 5), radius=3, outline=WHITE if fill == CARD_BACK_KEPT else INK,
                        width=1)


def _draw_draft(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int, h: int) -> None:
    """The draft in public (B-13, B-14): per player the cards kept and the cards in front of them,
    face down, counted, and who still chooses. Numbers only: what the cards are stays hidden. QA
    (issue 13/14 follow-up): the picture was an empty 'No active town yet' panel at inline size."""
    text(d, (x, y + 2), tr("The draft"), 28, bold=True, max_width=w)
    lines = wrap(tr("Each player keeps 2 of the cards in front of them and passes the rest to the left ({rule}).",
                    rule="B-14"), 22, w)
    ly = y + 40
    for ln in lines[:2]:
        text(d, (x, ly), ln, 22, fill=SOFT, max_width=w)
        ly += 28
    # the legend: the two backs and the mark of a player who has chosen
    ly += 6
    bw, bh = 22, 30
    lx: float = x
    legend = ((CARD_BACK_KEPT, tr("kept")), (CARD_BACK_FRONT, tr("in front")), (None, tr("chosen")))
    # each word its own width where the three fit the line (issue 18: "przed gracz.."), else a third
    whole = sum(bw + 8 + text_width(word, 22) + 4 + 16 for _f, word in legend) <= w
    for fill, word in legend:
        if fill is None:
            _check_mark(d, lx + bw / 2, ly + bh / 2, 24)
        else:
            card_back(d, (lx, ly, lx + bw, ly + bh), fill)
        room = text_width(word, 22) + 4 if whole else w / 3 - bw - 24
        lx += bw + 8 + text(d, (lx + bw + 8, ly + bh / 2), word, 22, anchor="lm", max_width=room)
        lx += 16
    rows = view["players"]
    top = ly + bh + 12
    rh = int(min(78, (y + h - top) / max(1, len(rows))))
    letters = initials(view)
    acting = set(view.get("acting") or [])
    name_w = 170
    for i, p in enumerate(rows):
        s = int(p["seat"])
        ry = top + i * rh
        if s in acting:  # still to choose
            d.rounded_rectangle((x - 4, ry, x + w + 4, ry + rh - 6), radius=6, fill=GOLD)
        badge(d, x + 14, ry + (rh - 6) / 2, 14, seat_colour(s), letters[s])
        text(d, (x + 34, ry + (rh - 6) / 2), _name(view, s), 22, anchor="lm", bold=s in acting, max_width=name_w - 34)
        kept, front = int(p.get("hand_size", 0) or 0), int(p.get("draft_size", 0) or 0)
        ch = rh - 16
        cw = int(ch * 0.7)
        step = min(cw + 4, (w - name_w - 40) / max(1, kept + front) - 2)
        cx: float = x + name_w
        for n, fill in ((kept, CARD_BACK_KEPT), (front, CARD_BACK_FRONT)):
            for k in range(n):
                card_back(d, (cx + k * step, ry + 5, cx + k * step + cw, ry + 5 + ch), fill)
            if n:  # the count on the group's last card
                mx = cx + (n - 1) * step + cw / 2
                text(d, (mx, ry + 5 + ch / 2), str(n), 22, anchor="mm", bold=True, fill=readable_on(fill))
                cx += (n - 1) * step + cw + 16
        if p.get("chosen"):  # chosen, not yet revealed: the kept cards move when everybody has
            _check_mark(d, min(cx + 12, x + w - 14), ry + (rh - 6) / 2, 26)


def _draw_setup(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int, h: int) -> None:
    """The set-up in public (B-9): the rule, then each player in placing order (clockwise from the
    start player) with the start town they chose, or who places next. QA (issue 18): the set-up
    showed an empty 'No active town yet' panel. Everything drawn is on the board for all to see."""
    text(d, (x, y + 2), tr("Start towns"), 28, bold=True, max_width=w)
    lines = wrap(tr("Clockwise from the start player, each player puts a disc on an empty town in a region "
                    "where no other player has a disc ({rule}).", rule="B-9"), 22, w)
    ly = y + 40
    for ln in lines[:3]:
        text(d, (x, ly), ln, 22, fill=SOFT, max_width=w)
        ly += 28
    rows = view["players"]
    n = max(1, len(rows))
    start = view.get("start_player")
    start = int(start) if isinstance(start, int) and 0 <= start < n else 0
    order = [rows[(start + k) % n] for k in range(n)]  # B-9: clockwise from the start player
    top = ly + 8
    rh = int(min(70, (y + h - top) / n))
    letters = initials(view)
    acting = set(view.get("acting") or [])
    towns = view.get("towns") or []
    name_w = int(min(170, max(text_width(_name(view, int(p["seat"])), 22) + 48 for p in order)))
    for i, p in enumerate(order):
        s = int(p["seat"])
        ry = top + i * rh
        mid = ry + (rh - 6) / 2
        if s in acting:  # places now
            d.rounded_rectangle((x - 4, ry, x + w + 4, ry + rh - 6), radius=6, fill=GOLD)
        mine = [t for t in towns if t.get("owner") == s]
        town = mine[0] if mine else None
        where = tr("{colour} town in {region}", colour=colour_word(town.get("colour")),
                   region=_region_name(town.get("region"))) if town else ""
        tx, room = x + name_w + 30, w - name_w - 30
        one_line = (town is None or rh < 56
                    or text_width(str(town.get("name")), 22) + 14 + text_width(where, 22) <= room)
        ty0 = mid if one_line else mid - 13  # the town's colour and region on the line below if need be
        badge(d, x + 14, ty0, 14, seat_colour(s), letters[s])
        text(d, (x + 34, ty0), _name(view, s), 22, anchor="lm", bold=s in acting, max_width=name_w - 34)
        if town is not None:
            town_shape(d, x + name_w + 12, ty0, str(town.get("colour")), 11)
            tw = text(d, (tx, ty0), str(town.get("name")), 22, anchor="lm", bold=True, max_width=room)
            if one_line:
                text(d, (tx + tw + 10, mid), where, 22, anchor="lm", fill=SOFT, max_width=max(10.0, room - tw - 10))
            else:
                text(d, (x + 34, mid + 13), where, 22, anchor="lm", fill=SOFT, max_width=w - 34)
        elif s in acting:
            place = PENDING_WORDS["town"]  # a message of its own table, translated where drawn
            text(d, (x + name_w + 8, mid), tr(place), 22, anchor="lm", max_width=w - name_w - 8)


def _check_mark(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    d.line([(cx - s * 0.5, cy), (cx - s * 0.15, cy + s * 0.38), (cx + s * 0.55, cy - s * 0.42)],
           fill=CHOSEN, width=max(2, int(s * 0.22)), joint="curve")


def _wrap(s: str, size: int, width: float) -> list[str]:
    from renderer.common import wrap

    return wrap(s, size, width)


@translated(MIN_TURN_TEXT)
def render_brianboru_turn(view: dict[str, Any], *, log: TextLog | None = None) -> bytes:
    return encode_fast(draw_brianboru_turn(view, log=log))
