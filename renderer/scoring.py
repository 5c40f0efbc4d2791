"""Scoring pictures for the chat (issue 14): what each player scored, line by line, and the totals.

One picture per small, major or final scoring (Vikings V-32 ... V-38) and for Brian Boru's final
scoring (B-33, B-34), 1120 x 640 with every text at least 22 px. The final picture names the winner
and, given ``history`` (every player's VP at the end of each round, replayed from the action log by
the host), charts it. The lines come from the engines' own scoring breakdown:

* Vikings ``score`` events: ``{"scoring", "gold", "vp", "lines"}``, a line reads ``"what: +3 VP"``;
* Brian Boru ``view["final"]["players"][i]["lines"]``, a line reads ``"what: +2 (B-33.x)"``.

The lines are structured messages (``engine.core.score_line``: what, amount and the signed gold/VP
change), so the picture takes what scored and how much without parsing words (issue 16).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.core import SCORE_LINE, Msg, as_msg
from renderer.common import (
    GOLD,
    INK,
    N_,
    RGB,
    TextLog,
    display_name,
    ntr,
    recording,
    star,
    text,
    text_width,
    tr,
    translated,
    wrap,
    wrap_words,
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

TITLES = {"small": N_("Small scoring"), "major": N_("Major scoring"), "final": N_("Final scoring")}
MARKERS = ("circle", "square", "triangle", "diamond", "down")  # a shape per seat: not colour alone


_AMOUNT = re.compile(r"([+-]\d+) (gold|VP)\b")
_PURE = re.compile(r"^[+-]\d+ (gold|VP)( and [+-]\d+ (gold|VP))*$")
ScoreLine = str | dict[str, Any] | Msg
"""An engine's scoring line: structured (``engine.core.score_line``, as events and views hold it:
``{"msg": "{what}: {amount}", "params": {"what", "amount", "gold", "vp"}}``) or an English string."""


def line_text(line: ScoreLine) -> str:
    """An engine's line (issue 16) in the picture's language: a structured message is translated
    with the picture's ``tr``/``ntr`` (nested words and plurals included; names, cells and rule
    numbers stay as they are); a plain string from an older stored game is drawn as it is."""
    if isinstance(line, str):
        return line
    return as_msg(line).translate(tr, ntr)


def _amount_text(gold: int, vp: int) -> str:
    parts = ([tr("{amount} gold", amount=f"{gold:+d}")] if gold else []) + (
        [tr("{amount} VP", amount=f"{vp:+d}")] if vp else [])
    return " ".join(parts)


def _structured(line: ScoreLine) -> Msg | None:
    """The line as a ``{what}: {amount}`` message (issue 16), or ``None`` for any other line."""
    if isinstance(line, str):
        return None
    m = as_msg(line)
    return m if m.id == SCORE_LINE and isinstance(m.params.get("what"), Msg) else None


def split_line(line: ScoreLine) -> tuple[str, str]:
    """A scoring line as (what scored, how much): ``"3 nobles x 2 VP: +6 VP"`` -> (``"3 nobles x 2 VP"``,
    ``"+6 VP"``). A structured line gives its ``what`` (translated) and its signed gold/VP change
    (no words are parsed); from an English string, rule tags and a trailing remark in brackets are
    dropped, and a long explanation after the colon keeps only its signed amounts (the chat
    narration carries the whole line)."""
    m = _structured(line)
    if m is not None:
        amount = _amount_text(int(m.params.get("gold") or 0), int(m.params.get("vp") or 0))
        said = m.params.get("amount")
        if not amount and isinstance(said, Msg) and said.id == "nothing":
            amount = line_text(said)
        return line_text(m.params["what"]), amount
    s = re.sub(r"\s*\([^()]*\)\s*$", "", line_text(line).strip())
    if ": " not in s:
        return s, ""
    head, tail = s.rsplit(": ", 1)
    if _PURE.match(tail) or tail in ("nothing",):
        return head, tail.replace(" and ", " ")
    head, tail = s.split(": ", 1)
    found = _AMOUNT.findall(tail)
    if found:
        return head, " ".join(f"{n} {u}" for n, u in found)
    return head, tail if len(tail) <= 12 else ""


def _column_group(line: ScoreLine, what: str, amount: str) -> tuple[str, dict[str, int]] | None:
    """Lines that differ only in their column add up: (group key, signed amounts), else ``None``.
    A structured line is grouped by its message and parameters, the column left out."""
    m = _structured(line)
    if m is not None:
        w = m.params["what"]
        if "col" not in w.params:
            return None
        rest = {k: v for k, v in w.params.items() if k != "col"}
        key = repr((w.id, Msg("", rest).to_json()))
        return key, {"gold": int(m.params.get("gold") or 0), "VP": int(m.params.get("vp") or 0)}
    key = re.sub(r" in column \d+", "", what)
    found = _AMOUNT.findall(amount)
    if key == what or not found:
        return None
    sums: dict[str, int] = {}
    for n, u in found:
        sums[u] = sums.get(u, 0) + int(n)
    return key, sums


def _grouped_label(line: ScoreLine, n: int) -> str | None:
    """The label of ``n`` structured lines that differ only in their column, in the picture's
    language (its own message: a translation cannot be cut at "in column"); ``None`` otherwise."""
    m = _structured(line)
    if m is None:
        return None
    what = m.params["what"]
    colour = what.params.get("colour")
    colour = line_text(colour) if colour is not None else ""
    if what.id == "undefended {colour} ship in column {col}":
        return ntr("{n} undefended {colour} ship", "{n} undefended {colour} ships", n, colour=colour)
    if what.id == "{colour} ship in column {col}, defended":
        return ntr("{n} defended {colour} ship", "{n} defended {colour} ships", n, colour=colour)
    if what.id == "scout in column {col}":
        return ntr("scouts in {n} column", "scouts in {n} columns", n)
    if what.id == "threatened scout in column {col}":
        return ntr("{n} threatened scout", "{n} threatened scouts", n)
    return None


def merge_lines(lines: Sequence[ScoreLine]) -> list[tuple[str, str]]:
    """Split lines, and add up those that differ only in their column (``"... ship in column 3"``):
    three penalty lines of undefended yellow ships become ``"3 x undefended yellow ship: -6 VP"``."""
    out: list[tuple[str, str]] = []
    groups: dict[str, list[tuple[int, dict[str, int]]]] = {}
    for line in lines:
        what, amount = split_line(line)
        group = _column_group(line, what, amount)
        if group is not None:
            groups.setdefault(group[0], []).append((len(out), group[1]))
        out.append((what, amount))
    drop: set[int] = set()
    for members in groups.values():
        if len(members) < 2:
            continue
        sums: dict[str, int] = {}
        for _i, amounts in members:
            for u, v in amounts.items():
                if v:
                    sums[u] = sums.get(u, 0) + v
        first = members[0][0]
        label = _grouped_label(lines[first], len(members)) or "{} x {}".format(
            len(members), re.sub(r" in column \d+", "", out[first][0]))
        out[first] = (label, " ".join(
            tr("{amount} gold", amount=f"{v:+d}") if u == "gold" else tr("{amount} VP", amount=f"{v:+d}")
            for u, v in sums.items()))
        drop.update(i for i, _a in members[1:])
    return [x for i, x in enumerate(out) if i not in drop]


Placed = tuple[float, int, list[str], str, str]
"""A scoring line placed: its column's x offset, first row, the label's lines, the label, the amount."""


@dataclass
class LinePlan:
    """Where a player's scoring lines go in their band: columns ``cols`` (x offset, width) with
    rows ``pitch`` px apart; a label at most its column's width less the amounts column (wrapped
    onto more rows, never cut when ``whole``)."""

    cols: list[tuple[float, float]]
    amount_w: float
    pitch: int
    placed: list[Placed]
    whole: bool

    def label_w(self, x: float) -> float:
        w = next(cw for cx, cw in self.cols if cx == x)
        return w - self.amount_w - AMOUNT_GAP

    def col_w(self, x: float) -> float:
        return next(cw for cx, cw in self.cols if cx == x)


AMOUNT_GAP = 18  # between a label and its amount, and the amount from the column's end (10 of it)


def _wrap_whole(s: str, width: float, bold: bool = False) -> list[str] | None:
    """``s`` in lines at most ``width`` px wide at 22 px, every word whole; ``None`` when one word
    alone is wider."""
    width -= 2 if bold else 0  # a bold text's stroke on each side
    lines = wrap_words(s, 22, width)
    return None if any(text_width(ln, 22) > width for ln in lines) else lines or [""]


def _place(lines: Sequence[tuple[str, str]], cols: Sequence[tuple[float, float]], amount_w: float, rows: int,
           first_fit: bool = False, cut: bool = False) -> list[Placed] | None:
    """Lines in order down each column (wrapped to its width), a label's rows never split between
    columns; with ``first_fit`` a line goes to the first column with room for it (a two-row label
    may leave a column for the next, a shorter line then fills its last row); with ``cut`` a word
    too wide is cut rather than refused. ``None`` when they do not all fit."""
    out: list[Placed] = []
    used = [0] * len(cols)
    c = 0
    for what, amount in lines:
        for k in range(0 if first_fit else c, len(cols)):
            room = cols[k][1] - amount_w - AMOUNT_GAP - 2
            parts = (wrap(what, 22, room) or [""]) if cut else _wrap_whole(what, room)
            if parts is not None and used[k] + len(parts) <= rows:
                c = k
                break
        else:
            return None
        out.append((cols[c][0], used[c], parts, what, amount))
        used[c] += len(parts)
    return sorted(out, key=lambda p: (p[0], p[1]))


def _columns(width: int, n: int, first: float = 0.0) -> list[tuple[float, float]]:
    """``n`` columns over ``width`` px: equal, or the first ``first`` of the width."""
    if n == 1:
        return [(0, min(640, width))]  # amounts stay near their words
    if first:
        return [(0, width * first), (width * first, width * (1 - first))]
    return [(width * k / n, width / n) for k in range(n)]


def _plan_lines(lines: Sequence[tuple[str, str]], width: int, amount_w: float, height: int) -> LinePlan:
    """The layout that shows every label whole (issue 18: "active-town mark.." was cut): one
    column, else two (equal, else one wider), else three; a label too wide for its column takes
    more rows; rows 26 px apart, else 24 (the text stays 22 px, the pictures' minimum). When
    nothing fits, the lines that fit are shown (long words cut) and the last row says how many
    more the chat has."""
    tries = [(1, 0.0), (2, 0.0), (2, 0.42), (2, 0.58), (2, 0.36), (2, 0.64), (3, 0.0)]
    for n, first in tries:
        for pitch in (26, 24):
            rows = max(1, (height - 6) // pitch)
            cols = _columns(width, n, first)
            if min(w for _x, w in cols) - amount_w - AMOUNT_GAP < 150:
                continue
            placed = _place(lines, cols, amount_w, rows) or _place(lines, cols, amount_w, rows, first_fit=True)
            if placed is not None:
                return LinePlan(cols, amount_w, pitch, placed, True)
    # nothing fits: two columns, tight rows, and a last row pointing to the chat
    pitch, cols = 24, _columns(width, 2)
    rows = max(1, (height - 6) // pitch)
    kept = list(lines)
    while kept:
        more = len(lines) - len(kept)
        shown = kept + ([(ntr("{n} more line in the chat", "{n} more lines in the chat", more), "")] if more else [])
        placed = _place(shown, cols, amount_w, rows, cut=True)
        if placed is not None:
            return LinePlan(cols, amount_w, pitch, placed, False)
        kept.pop()
    note = ntr("{n} more line in the chat", "{n} more lines in the chat", len(lines))
    return LinePlan([(0, width)], 0, pitch, [(0, 0, [note], note, "")], False)


def _band_needed(lines: Sequence[tuple[str, str]], width: int, amount_w: float, least: int,
                 most: int) -> int | None:
    """The least band height (``least`` .. ``most`` px) in which every label is whole."""
    for h in range(least, most + 1, 6):
        if _plan_lines(lines, width, amount_w, h - 8).whole:
            return h
    return None


def _marker(d: ImageDraw.ImageDraw, shape: str, x: float, y: float, r: float, fill: RGB) -> None:
    if shape == "square":
        d.rectangle((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=2)
    elif shape == "triangle":
        d.polygon([(x, y - r * 1.2), (x + r * 1.1, y + r), (x - r * 1.1, y + r)], fill=fill, outline=INK)
    elif shape == "down":
        d.polygon([(x, y + r * 1.2), (x + r * 1.1, y - r), (x - r * 1.1, y - r)], fill=fill, outline=INK)
    elif shape == "diamond":
        d.polygon([(x, y - r * 1.3), (x + r * 1.3, y), (x, y + r * 1.3), (x - r * 1.3, y)], fill=fill, outline=INK)
    else:
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=2)


def _chart(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], history: Sequence[Sequence[int]],
           players: list[dict[str, Any]]) -> None:
    """VP per player after each round: a line, a marker shape and the initial per player."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=10, fill=(252, 250, 245), outline=(200, 192, 178))
    title = tr("VP after each round")
    heads = _wrap_whole(title, x1 - 8 - (x0 + 12) - 6, bold=True)  # more lines rather than cut (issue 18)
    heads = heads if heads is not None and len(heads) <= 3 else [title]
    for k, ln in enumerate(heads):
        text(d, (x0 + 12, y0 + 8 + 26 * k), ln, 22, bold=True, within=(x0 + 10, y0, x1 - 8, y1))
    gx0, gy0, gx1, gy1 = x0 + 58, y0 + 48 + 26 * (len(heads) - 1), x1 - 40, y1 - 40
    top = max([1] + [int(v) for row in history for v in row])
    step = max(1, (top + 4) // 5)
    top = step * ((top + step - 1) // step)
    n = max(1, len(history) - 1)
    for k in range(0, top + 1, step * (2 if top // step > 5 else 1)):
        yy = gy1 - (gy1 - gy0) * k / top
        d.line((gx0, yy, gx1, yy), fill=(220, 214, 204))
        text(d, (gx0 - 8, yy), str(k), 22, anchor="rm", fill=SOFT)
    for r in range(len(history)):
        xx = gx0 + (gx1 - gx0) * r / n
        text(d, (xx, gy1 + 6), str(r), 22, anchor="ma", fill=SOFT)
    for i, p in enumerate(players):
        pts = [(gx0 + (gx1 - gx0) * r / n, gy1 - (gy1 - gy0) * int(row[i]) / top)
               for r, row in enumerate(history) if i < len(row)]
        colour = p["colour"]
        if len(pts) > 1:
            d.line(pts, fill=colour, width=4, joint="curve")
        for x, y in pts:
            _marker(d, MARKERS[i % len(MARKERS)], x, y, 6, colour)
        if pts:
            x, y = pts[-1]
            text(d, (x + 12, y), p["letter"], 22, anchor="lm", bold=True)


@translated(MIN_TURN_TEXT)
def draw_scoring(title: str, players: list[dict[str, Any]], *, winners: Sequence[int] = (),
                 history: Sequence[Sequence[int]] | None = None, subtitle: str = "",
                 log: TextLog | None = None) -> Image.Image:
    """The generic scoring picture. ``players``: ``{"seat", "name", "colour", "letter", "total"
    (words), "lines": [str]}`` in seat order; ``winners``: seats; ``history``: VP rows per round end.
    ``title``, ``subtitle`` and the totals come translated; ``tr``/``ntr``: the table's translator."""
    with recording(log):
        img, d = canvas()
        right = ""
        if winners:
            names = ", ".join(p["name"] for p in players if p["seat"] in winners)
            right = ntr("Winner: {names}", "Winners: {names}", len(winners), names=names)
        win_colour = next((p["colour"] for p in players if p["seat"] in winners), None) if len(winners) == 1 else None
        win_letter = next((p["letter"] for p in players if p["seat"] in winners), "")
        y = headline(d, title + (f"  {subtitle}" if subtitle else ""), right, win_colour, win_letter)
        n = max(1, len(players))
        total_h = PICTURE_H - 18 - y
        merged = [merge_lines(p.get("lines") or []) for p in players]
        # the name column as wide as its names and totals need (130..190 px), the amounts column
        # as wide as its widest amount; a player with more lines gets a taller band, and the chart
        # narrows, when a label would not be whole otherwise (issue 18: "active-town mark.." was cut)
        head_w = int(min(190, max([130] + [text_width(p["name"], 24) + 48 + (34 if p["seat"] in winners else 0)
                                           for p in players]
                                  + [text_width(t, 22) + 20 for p in players for t in p.get("total") or []])))
        amount_w = max([text_width(a, 22) + 4 for m in merged for _w, a in m if a] + [0])
        bands = [total_h // n] * n
        for chart_w in ((330, 290, 250, 210) if history else (0,)):
            right_x = PICTURE_W - PAD - chart_w
            bw = right_x - PAD
            plans = [_plan_lines(m, bw - head_w - 10, amount_w, b - 8) for m, b in zip(merged, bands, strict=True)]
            if all(pl.whole for pl in plans):
                break
            needs = [_band_needed(m, bw - head_w - 10, amount_w, 46 + 26 * len(p.get("total") or []), total_h)
                     for m, p in zip(merged, players, strict=True)]
            if all(h is not None for h in needs) and sum(h or 0 for h in needs) <= total_h:
                spare = total_h - sum(h or 0 for h in needs)
                bands = [(h or 0) + spare // n for h in needs]
                plans = [_plan_lines(m, bw - head_w - 10, amount_w, b - 8) for m, b in zip(merged, bands, strict=True)]
                break
            bands = [total_h // n] * n
        if history:
            _chart(d, (right_x + 10, y, PICTURE_W - PAD, PICTURE_H - 18), history, players)
        for i, p in enumerate(players):
            by = y + sum(bands[:i])
            band = bands[i]
            won = p["seat"] in winners
            d.rounded_rectangle((PAD - 6, by, right_x, by + band - 6), radius=8,
                                fill=(255, 240, 190) if won else (246, 241, 230) if i % 2 else (238, 232, 220),
                                outline=GOLD if won else (200, 192, 178), width=3 if won else 1)
            badge(d, PAD + 14, by + 20, 14, p["colour"], p["letter"])
            text(d, (PAD + 34, by + 8), p["name"], 24, bold=True, max_width=head_w - 40 - (30 if won else 0))
            if won:
                star(d, PAD + head_w - 14, by + 20, 12, fill=GOLD)
            tl = p.get("total") or []
            for k, t in enumerate(tl[: max(1, (band - 40) // 26)]):
                text(d, (PAD + 4, by + 36 + k * 26), t, 22, bold=k == 0, max_width=head_w - 8)
            plan = plans[i]
            for cx, r, rows, what, amount in plan.placed:
                lx = PAD + head_w + cx
                ly = by + 5 + r * plan.pitch
                if amount:
                    text(d, (lx + plan.col_w(cx) - 10, ly), amount, 22, anchor="ra", bold=True,
                         max_width=amount_w + 2)
                what_fill = SOFT if amount.startswith("nothing") or what.startswith("before") else INK
                for k, part in enumerate(rows):
                    text(d, (lx, ly + k * plan.pitch), part, 22, fill=what_fill, max_width=plan.label_w(cx))
            if not merged[i]:
                text(d, (PAD + head_w, by + 6), tr("nothing scored"), 22, fill=SOFT, max_width=bw - head_w - 10)
        return img


# --------------------------------------------------------------------------- Vikings


def vikings_scoring_players(view: dict[str, Any], scores: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    from renderer.vikings import _seat_colour

    by_seat = {int(s["seat"]): s for s in scores}
    out = []
    for p in view["players"]:
        seat = int(p["seat"])
        s = by_seat.get(seat, {})
        gain = []
        if s.get("gold"):
            gain.append(tr("{gold} gold", gold=f"{int(s['gold']):+d}"))
        if s.get("vp"):
            gain.append(tr("{vp} VP", vp=f"{int(s['vp']):+d}"))
        total = [" ".join(gain) or "+0", tr("now {vp} VP", vp=p.get("vp", 0)), tr("{gold} gold", gold=p.get("gold", 0))]
        out.append({"seat": seat, "name": display_name(p.get("name")), "colour": _seat_colour(seat),
                    "letter": display_name(p.get("name"))[:1], "total": total, "lines": list(s.get("lines") or [])})
    return out


@translated(MIN_TURN_TEXT)
def draw_vikings_scoring(view: dict[str, Any], scores: Sequence[dict[str, Any]], *,
                         history: Sequence[Sequence[int]] | None = None, after_round: int | None = None,
                         log: TextLog | None = None) -> Image.Image:
    """``scores``: the data of the scoring's ``score`` events with their ``seat`` (all one kind);
    ``after_round``: the round it ends (the view may already be in the next one). A final scoring's
    picture names the winners (``view["final"]["winners"]``)."""
    if not isinstance(view, dict) or view.get("game", "vikings") != "vikings" or not view.get("players"):
        raise ValueError("a Vikings scoring picture needs a Vikings view with players")
    if not scores:
        raise ValueError("no scoring to draw")
    kind = str(scores[0].get("scoring", "small"))
    final = view.get("final") if isinstance(view.get("final"), dict) else None
    winners = list((final or {}).get("winners") or []) if kind == "final" else []
    title = tr(TITLES[kind]) if kind in TITLES else kind
    sub = tr("after round {round}", round=after_round) if after_round and kind != "final" else ""
    return draw_scoring(title, vikings_scoring_players(view, scores), winners=winners,
                        history=history if kind == "final" else None, subtitle=sub, log=log)


@translated(MIN_TURN_TEXT)
def render_vikings_scoring(view: dict[str, Any], scores: Sequence[dict[str, Any]], *,
                           history: Sequence[Sequence[int]] | None = None, after_round: int | None = None,
                           log: TextLog | None = None) -> bytes:
    return encode_fast(draw_vikings_scoring(view, scores, history=history, after_round=after_round, log=log))


# --------------------------------------------------------------------------- Brian Boru


@translated(MIN_TURN_TEXT)
def draw_brianboru_final(view: dict[str, Any], *, history: Sequence[Sequence[int]] | None = None,
                         log: TextLog | None = None) -> Image.Image:
    """Brian Boru's final scoring (B-33) and winner (B-34) from ``view["final"]``."""
    from renderer.brianboru import initials, seat_colour

    final = view.get("final") if isinstance(view, dict) else None
    if not isinstance(final, dict) or not final.get("players"):
        raise ValueError("the view has no final scoring (view['final'])")
    letters = initials(view)
    names = [str(p.get("name")) for p in view["players"]]
    winners = [names.index(w) for w in final.get("winners") or [] if w in names]
    players = []
    for seat, fp in enumerate(final["players"]):
        lines = [ln for ln in fp.get("lines") or [] if not as_msg(ln).id.startswith("total")]
        before = next((ln for ln in lines if as_msg(ln).id.startswith("before final scoring")), None)
        lines = [ln for ln in lines if ln is not before]
        was = as_msg(before).params.get("vp") if before is not None else None
        players.append({"seat": seat, "name": display_name(fp.get("name")), "colour": seat_colour(seat),
                        "letter": letters[seat] if seat < len(letters) else "?",
                        "total": [tr("{vp} VP", vp=fp.get("vp")),
                                  tr("was {vp} VP", vp=was) if was is not None else ""],
                        "lines": lines})
    title = TITLES["final"]
    return draw_scoring(tr(title), players, winners=winners, history=history, log=log)


@translated(MIN_TURN_TEXT)
def render_brianboru_final(view: dict[str, Any], *, history: Sequence[Sequence[int]] | None = None,
                           log: TextLog | None = None) -> bytes:
    return encode_fast(draw_brianboru_final(view, history=history, log=log))
