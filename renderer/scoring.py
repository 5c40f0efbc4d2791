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
from typing import Any

from PIL import Image, ImageDraw

from engine.core import SCORE_LINE, Msg, as_msg
from renderer.common import (
    GOLD,
    INK,
    N_,
    RGB,
    TextLog,
    ntr,
    recording,
    star,
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
    text(d, (x0 + 12, y0 + 8), tr("VP after each round"), 22, bold=True, within=(x0 + 10, y0, x1 - 8, y1))
    gx0, gy0, gx1, gy1 = x0 + 58, y0 + 48, x1 - 40, y1 - 40
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
        chart_w = 330 if history else 0
        right_x = PICTURE_W - PAD - chart_w
        if history:
            _chart(d, (right_x + 10, y, PICTURE_W - PAD, PICTURE_H - 18), history, players)
        bw = right_x - PAD
        n = max(1, len(players))
        band = (PICTURE_H - 18 - y) // n
        head_w = 190
        per_col = max(1, (band - 14) // 26)
        merged = [merge_lines(p.get("lines") or []) for p in players]
        longest = max((len(m) for m in merged), default=0)
        half = (bw - head_w - 10) // 2
        fits = [text_width(w, 22) + text_width(a, 22) + 30 <= half for m in merged for w, a in m]
        cols = 2 if longest > per_col and sum(fits) >= 0.5 * len(fits) else 1
        col_w = min(640, (bw - head_w - 10) // cols)  # amounts stay near their words
        for i, p in enumerate(players):
            by = y + i * band
            won = p["seat"] in winners
            d.rounded_rectangle((PAD - 6, by, right_x, by + band - 6), radius=8,
                                fill=(255, 240, 190) if won else (246, 241, 230) if i % 2 else (238, 232, 220),
                                outline=GOLD if won else (200, 192, 178), width=3 if won else 1)
            badge(d, PAD + 14, by + 20, 14, p["colour"], p["letter"])
            text(d, (PAD + 34, by + 8), p["name"], 24, bold=True, max_width=head_w - 40 - (26 if won else 0))
            if won:
                star(d, PAD + head_w - 14, by + 20, 12, fill=GOLD)
            tl = p.get("total") or []
            for k, t in enumerate(tl[: max(1, (band - 40) // 26)]):
                text(d, (PAD + 4, by + 36 + k * 26), t, 22, bold=k == 0, max_width=head_w - 8)
            lines = merged[i]
            cap = per_col * cols
            if len(lines) > cap:
                more = len(lines) - cap + 1
                lines = lines[: cap - 1] + [(ntr("{n} more line in the chat", "{n} more lines in the chat", more), "")]
            for k, (what, amount) in enumerate(lines):
                c, r = divmod(k, per_col)
                lx = PAD + head_w + c * col_w
                ly = by + 5 + r * 26
                aw = text(d, (lx + col_w - 10, ly), amount, 22, anchor="ra", bold=True,
                          max_width=col_w // 2) if amount else 0
                what_fill = SOFT if amount.startswith("nothing") or what.startswith("before") else INK
                text(d, (lx, ly), what, 22, fill=what_fill, max_width=col_w - aw - 22)
            if not lines:
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
        out.append({"seat": seat, "name": str(p.get("name")), "colour": _seat_colour(seat),
                    "letter": str(p.get("name") or "?")[:1], "total": total, "lines": list(s.get("lines") or [])})
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
        players.append({"seat": seat, "name": str(fp.get("name")), "colour": seat_colour(seat),
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
