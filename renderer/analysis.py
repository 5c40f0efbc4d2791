"""The picture of a game's analysis (issue 31): like a chess site's evaluation graph.

1120 x 640 with every text at least 22 px, read inline like the turn pictures (issue 14):

* left, a graph of each player's expected final margin over the best rival (VP) along the game,
  move by move (:class:`engine.players.review.Curve`), a line per seat in its colour with its own
  marker shape at the end (never colour alone), the rounds numbered below (a dashed line where one begins); each person's costliest
  decisions marked on their line with a tag "A1", "A2", "A3" (initial and rank);
* right, a band per player: name, accuracy (the share of decisions within 1 VP of the best) and VP
  lost per decision; a computer seat says it was not reviewed.

What each costly decision was, what was better and why is the text beside the picture (the host
writes it). Every word goes through ``tr``/``ntr`` (the table's language, issue 16).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.players.review import Review, initials
from renderer.common import (
    INK,
    RGB,
    TextLog,
    display_name,
    readable_on,
    recording,
    text,
    text_width,
    tr,
    translated,
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
from renderer.scoring import MARKERS, _marker

PANEL_W = 330  # the players' column
GRID: RGB = (220, 214, 204)
BOX_BG: RGB = (252, 250, 245)
BOX_LINE: RGB = (200, 192, 178)


def _colour(game_id: str, seat: int) -> RGB:
    if game_id == "vikings":
        from renderer.vikings import _seat_colour

        return _seat_colour(seat)
    from renderer.brianboru import seat_colour

    return seat_colour(seat)


def letters(names: Sequence[str]) -> list[str]:
    """One letter per seat (:func:`engine.players.review.initials` of the names as drawn)."""
    return initials([display_name(n) for n in names])


def _nice_step(span: float) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100):
        if span / step <= 6:
            return step
    return 200


def _tag(d: ImageDraw.ImageDraw, x: float, y: float, label: str, fill: RGB) -> None:
    """A costly decision's mark: a pill with the person's initial and the decision's rank."""
    w = text_width(label, 22) + 14
    d.rounded_rectangle((x - w / 2, y - 15, x + w / 2, y + 15), radius=12, fill=fill, outline=INK, width=2)
    text(d, (x, y + 1), label, 22, fill=readable_on(fill), anchor="mm", bold=True)


def _graph(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], review: Review, marks: list[str],
           colours: list[RGB]) -> None:
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=10, fill=BOX_BG, outline=BOX_LINE)
    text(d, (x0 + 12, y0 + 8), tr("Expected final margin over the best rival (VP)"), 22, bold=True,
         within=(x0 + 10, y0, x1 - 8, y1))
    curve = review.curve
    values = [v for row in curve.margins for v in row] or [0.0]
    lo, hi = min(min(values), 0.0), max(max(values), 0.0)
    step = _nice_step(max(1.0, hi - lo))
    lo, hi = step * math.floor(lo / step), step * math.ceil(hi / step)
    if hi == lo:
        hi = lo + step
    gx0, gy0, gx1, gy1 = x0 + 62, y0 + 52, x1 - 46, y1 - 44
    last = max(1, curve.moves[-1] if curve.moves else 1)

    def px(move: float) -> float:
        return gx0 + (gx1 - gx0) * move / last

    def py(v: float) -> float:
        return gy1 - (gy1 - gy0) * (v - lo) / (hi - lo)

    for k in range(int(lo), int(hi) + 1, step):
        yy = py(k)
        d.line((gx0, yy, gx1, yy), fill=INK if k == 0 else GRID, width=2 if k == 0 else 1)
        text(d, (gx0 - 8, yy), f"{k:+d}" if k else "0", 22, anchor="rm", fill=SOFT)
    starts = [0, *curve.rounds, last]
    for r in range(len(starts) - 1):
        if r:
            xx = px(starts[r])
            for yy in range(gy0, gy1, 12):  # dashed: a round begins
                d.line((xx, yy, xx, min(gy1, yy + 6)), fill=BOX_LINE, width=2)
        mid = (px(starts[r]) + px(starts[r + 1])) / 2
        if px(starts[r + 1]) - px(starts[r]) >= 24:
            text(d, (mid, gy1 + 8), str(r + 1), 22, anchor="ma", fill=SOFT)
    ends: list[tuple[float, int]] = []
    for seat, row in enumerate(curve.margins):
        pts = [(px(m), py(v)) for m, v in zip(curve.moves, row, strict=True)]
        if len(pts) > 1:
            d.line(pts, fill=colours[seat], width=3, joint="curve")
        if pts:
            x, y = pts[-1]
            _marker(d, MARKERS[seat % len(MARKERS)], x, y, 7, colours[seat])
            ends.append((y, seat))
    placed_y: list[float] = []
    for y, _seat in sorted(ends):  # the end letters one under the other where the lines end together
        placed_y.append(max(y, placed_y[-1] + 24) if placed_y else y)
    over = max(0.0, (placed_y[-1] if placed_y else 0.0) - (gy1 - 4))  # the stack kept on the graph
    for (_y, seat), ly in zip(sorted(ends), placed_y, strict=True):
        text(d, (px(last) + 12, max(gy0, ly - over)), marks[seat], 22, anchor="lm", bold=True)
    placed: list[tuple[float, float]] = []
    for sr in review.seats:
        for rank, dec in enumerate(sr.costliest, start=1):
            x, y = px(dec.move), py(curve.at(sr.seat, dec.move))
            ty = y - 26 if y - 26 > gy0 + 14 else y + 26
            for _try in range(12):  # tags apart where they can be (a crowded spot: the last place tried)
                if not any(abs(x - ox) < 48 and abs(ty - oy) < 38 for ox, oy in placed):
                    break
                ty += 38 if ty < gy1 - 20 else -114
            ty = min(max(ty, gy0 + 16), gy1 - 16)  # on the graph
            placed.append((x, ty))
            d.line((x, y, x, ty), fill=INK, width=2)
            _tag(d, x, ty, f"{marks[sr.seat]}{rank}", colours[sr.seat])


def _panel(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], review: Review, marks: list[str],
           colours: list[RGB]) -> None:
    x0, y0, x1, y1 = box
    n = max(1, len(review.names))
    band = (y1 - y0) // n
    for seat, name in enumerate(review.names):
        by = y0 + seat * band
        d.rounded_rectangle((x0, by, x1, by + band - 6), radius=8, fill=(246, 241, 230) if seat % 2 else (238, 232, 220),
                            outline=BOX_LINE)
        badge(d, x0 + 22, by + 22, 15, colours[seat], marks[seat])
        text(d, (x0 + 44, by + 8), display_name(name), 24, bold=True, within=(x0 + 40, by, x1 - 6, by + band))
        sr = review.seat(seat)
        rows: list[tuple[str, bool]]
        if sr is None:
            rows = [(tr("computer player: not reviewed"), False)]
        elif sr.accuracy is None:
            rows = [(tr("no decision to review"), False)]
        else:
            rows = [(tr("accuracy {percent} %", percent=round(100 * sr.accuracy)), True),
                    (tr("{vp} VP lost per decision", vp=f"{sr.lost:.1f}"), False)]
            if sr.costliest:  # the graph's tags with what each cost
                rows.append(("   ".join(f"{marks[seat]}{k} -{dec.cost:.1f}" for k, dec in enumerate(sr.costliest, start=1)),
                             False))
        room = (band - 6 - 40) // 26
        for k, (line, bold) in enumerate(rows[: max(1, room)]):
            text(d, (x0 + 12, by + 40 + 26 * k), line, 22, fill=INK if sr is not None else SOFT, bold=bold,
                 within=(x0 + 8, by, x1 - 6, by + band))


@translated(MIN_TURN_TEXT)
def draw_analysis(review: Review, *, title: str = "", log: TextLog | None = None) -> Image.Image:
    """The analysis picture of ``review`` (see the module); ``title``: the headline's left part
    (translated by the caller, e.g. "Vikings, game 12"); ``tr``/``ntr``: the table's translator."""
    if not review.names or len(review.curve.margins) != len(review.names):
        raise ValueError("an analysis picture needs a review with a curve for every seat")
    with recording(log):
        img, d = canvas()
        marks = letters(review.names)
        colours = [_colour(review.game_id, s) for s in range(len(review.names))]
        y = headline(d, tr("Game analysis: {game}", game=title) if title else tr("Game analysis"), "", None, "")
        right_x = PICTURE_W - PAD - PANEL_W
        _graph(d, (PAD - 6, y, right_x - 10, PICTURE_H - 18), review, marks, colours)
        _panel(d, (right_x, y, PICTURE_W - PAD, PICTURE_H - 18), review, marks, colours)
        return img


@translated(MIN_TURN_TEXT)
def render_analysis(review: Review, *, title: str = "", log: TextLog | None = None) -> bytes:
    return encode_fast(draw_analysis(review, title=title, log=log))
