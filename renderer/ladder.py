"""The ladder picture (issue 30): how the computer levels rank against each other.

Drawn from the ladder's JSON (``meadhall arena --ladder GAME``; the renderer never imports the
engine's players)::

    {"game": "vikings", "games": 64, "seed": 7, "budget": 0.25,
     "levels": {"hard": {"mu": 31.0, "sigma": 1.1, "ordinal": 27.7, "games": 64, "wins": 40,
                         "mean_vp": 61.2, "mean_decision_ms": 240.0}, ...},
     "pairs": [{"a": "hard", "b": "normal", "games": 64, "a_wins": 50, "rate": 0.78,
                "low": 0.66, "high": 0.87}, ...]}

Left, each level's openskill μ ± σ as a bar on one scale, strongest first, with its games won, mean
VP and time a decision; right, each pair's head-to-head share of games won by ``a`` with its 95 %
interval on a 0–100 % scale (50 % marked). A chat picture (1120 px wide, every text at least 22 px,
readable inline at 550 × 350). Level names are the commands' words and stay untranslated; the
other texts go through ``tr``/``ntr``.

    python -m renderer.ladder ladder.json -o ladder.png
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from renderer.common import (
    GOLD,
    INK,
    MUTED,
    OI_BLUE,
    OI_GREEN,
    OI_VERMILLION,
    TextLog,
    ntr,
    recording,
    text,
    tr,
    translated,
)
from renderer.picture import FRAME_W, MIN_TURN_TEXT, PAD, PICTURE_H, PICTURE_W, SOFT, canvas, encode_fast

GAME_TITLES = {"vikings": "Vikings", "brian-boru": "Brian Boru"}
MIN_H = 560  # 2 : 1 at the least: a short ladder keeps a chat picture's shape
LEVEL_ROW = 88  # a level: name and μ ± σ, its bar, its figures
PAIR_ROW = 44
MAX_LEVELS = 6
MAX_PAIRS = 12
SPLIT = 470  # the left panel (levels) ends here, the right one (pairs) starts after a gap
ROW_BG = (238, 232, 220)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}"


def _ms(ms: float) -> str:
    return f"{ms:.1f}" if ms < 10 else f"{ms:.0f}"


def _levels(data: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    levels = data.get("levels")
    if not isinstance(levels, Mapping) or not levels:
        raise ValueError("the ladder has no levels")
    rows = [(str(name), row) for name, row in levels.items()]
    for name, row in rows:
        for key in ("mu", "sigma"):
            if not isinstance(row.get(key), (int, float)):
                raise ValueError(f"level {name!r} has no number {key!r}")
    return sorted(rows, key=lambda r: (-float(r[1]["mu"]), r[0]))[:MAX_LEVELS]


def _pairs(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    pairs = data.get("pairs") or []
    if not isinstance(pairs, Sequence):
        raise ValueError("the ladder's pairs are not a list")
    for p in pairs:
        for key in ("rate", "low", "high"):
            if not isinstance(p.get(key), (int, float)) or not 0 <= p[key] <= 1:
                raise ValueError(f"pair {p.get('a')!r}–{p.get('b')!r}: {key!r} is not a share from 0 to 1")
    return list(pairs)[:MAX_PAIRS]


def _bar(d: ImageDraw.ImageDraw, a: float, b: float, m: float, cy: float, colour: tuple[int, int, int]) -> None:
    """An interval from ``a`` to ``b`` with whiskers and a dot at ``m``."""
    d.line((a, cy, b, cy), fill=MUTED, width=4)
    d.line((a, cy - 8, a, cy + 8), fill=MUTED, width=2)
    d.line((b, cy - 8, b, cy + 8), fill=MUTED, width=2)
    d.ellipse((m - 7, cy - 7, m + 7, cy + 7), fill=colour, outline=INK, width=1)


def draw_ladder(data: Mapping[str, Any], *, title: str | None = None, log: TextLog | None = None) -> Image.Image:
    """The ladder picture of ``data`` (see the module's docstring); ``ValueError`` for a ladder
    without levels or with a share outside 0–1."""
    levels, pairs = _levels(data), _pairs(data)
    with recording(log):
        top = PAD + 84
        need = top + 36 + max(len(levels) * LEVEL_ROW, len(pairs) * PAIR_ROW) + PAD
        img, d = canvas(PICTURE_W, min(max(MIN_H, need), PICTURE_H + 2 * LEVEL_ROW))
        game = GAME_TITLES.get(str(data.get("game")), str(data.get("game", "")))
        text(d, (PAD + 6, PAD + 4), title or tr("Ladder of the computer levels: {game}", game=game), 30, bold=True,
             max_width=PICTURE_W - 2 * PAD - 12)
        games, seed, budget = int(data.get("games", 0)), data.get("seed"), data.get("budget")
        if budget is None:
            sub = ntr("{games} game, seed {seed}", "{games} games, seed {seed}", games, games=games, seed=seed)
        else:
            sub = ntr("{games} game, seed {seed}, {budget} s a decision for the searching levels",
                      "{games} games, seed {seed}, {budget} s a decision for the searching levels", games,
                      games=games, seed=seed, budget=f"{float(budget):g}")
        text(d, (PAD + 6, PAD + 46), sub, 22, fill=SOFT, max_width=PICTURE_W - 2 * PAD - 12)

        # -- left: μ ± σ per level, one scale
        x0, x1 = PAD + 6, SPLIT
        text(d, (x0, top), tr("rating μ ± σ (openskill)"), 22, fill=SOFT, max_width=x1 - x0)
        lo = min(float(r["mu"]) - float(r["sigma"]) for _n, r in levels)
        hi = max(float(r["mu"]) + float(r["sigma"]) for _n, r in levels)
        span = max(hi - lo, 1.0)
        lo, hi = lo - 0.06 * span, hi + 0.06 * span
        bx0, bx1 = x0 + 12, x1 - 12
        scale = (bx1 - bx0) / (hi - lo)
        for i, (name, r) in enumerate(levels):
            y = top + 36 + i * LEVEL_ROW
            if i % 2 == 0:
                d.rectangle((x0 - 4, y - 4, x1 + 4, y + LEVEL_ROW - 8), fill=ROW_BG)
            mu, sigma = float(r["mu"]), float(r["sigma"])
            text(d, (x0 + 4, y), name, 26, bold=True, max_width=200)
            text(d, (x1 - 4, y + 2), f"μ {mu:.1f} ± {sigma:.1f}", 24, bold=True, anchor="ra", max_width=x1 - x0 - 220)
            _bar(d, bx0 + (mu - sigma - lo) * scale, bx0 + (mu + sigma - lo) * scale, bx0 + (mu - lo) * scale,
                 y + 44, GOLD if i == 0 else OI_BLUE)
            if isinstance(r.get("games"), (int, float)) and r.get("games"):
                facts = tr("won {wins} of {games} · {vp} VP · {ms} ms a decision", wins=int(r.get("wins", 0)),
                           games=int(r["games"]), vp=f"{float(r.get('mean_vp', 0.0)):.1f}",
                           ms=_ms(float(r.get("mean_decision_ms", 0.0))))
                text(d, (x0 + 4, y + 56), facts, 22, fill=SOFT, max_width=x1 - x0 - 8)

        # -- right: head to head, a's share of the games with its 95 % interval
        x2, x3 = SPLIT + 30, PICTURE_W - PAD - 6
        d.line((SPLIT + 15, top, SPLIT + 15, img.height - PAD - FRAME_W), fill=(220, 214, 204), width=2)
        counts = {int(p.get("games", 0)) for p in pairs}
        same = counts.pop() if len(counts) == 1 else None  # every pair played as often: said once, above
        if same is None:
            head = tr("head to head: games won, 95 % interval")
        else:
            head = ntr("head to head: share of {games} game won, 95 % interval",
                       "head to head: share of {games} games won, 95 % interval", same, games=same)
        text(d, (x2, top), head, 22, fill=SOFT, max_width=x3 - x2)
        name_w, figures_w = 250, 236 if same is None else 184
        px0, px1 = x2 + name_w + 12, x3 - figures_w - 12
        if pairs:
            half = (px0 + px1) / 2
            ybot = top + 36 + len(pairs) * PAIR_ROW - 12
            for yy in range(top + 30, ybot, 10):  # 50 %: parity
                d.line((half, yy, half, yy + 5), fill=MUTED, width=2)
        for i, p in enumerate(pairs):
            y = top + 36 + i * PAIR_ROW
            if i % 2 == 0:
                d.rectangle((x2 - 4, y - 4, x3 + 4, y + PAIR_ROW - 6), fill=ROW_BG)
            text(d, (x2 + 4, y + 2), f"{p.get('a')} – {p.get('b')}", 24, bold=True, max_width=name_w)
            rate, low, high = float(p["rate"]), float(p["low"]), float(p["high"])
            colour = OI_GREEN if low > 0.5 else OI_VERMILLION if high < 0.5 else MUTED
            _bar(d, px0 + low * (px1 - px0), px0 + high * (px1 - px0), px0 + rate * (px1 - px0), y + 16, colour)
            if same is None:
                figures = tr("{rate} % of {games} ({low}–{high})", rate=_pct(rate), games=int(p.get("games", 0)),
                             low=_pct(low), high=_pct(high))
            else:
                figures = tr("{rate} % ({low}–{high})", rate=_pct(rate), low=_pct(low), high=_pct(high))
            text(d, (x3 - 4, y + 3), figures, 22, bold=True, anchor="ra", max_width=figures_w)
        if not pairs:
            text(d, (x2 + 4, top + 40), tr("no pairs played"), 22, fill=SOFT, max_width=x3 - x2)
        return img


@translated(MIN_TURN_TEXT)
def ladder_picture(data: Mapping[str, Any], *, title: str | None = None, log: TextLog | None = None) -> bytes:
    """The PNG of :func:`draw_ladder`; ``tr``/``ntr`` keywords: a translator (default English)."""
    return encode_fast(draw_ladder(data, title=title, log=log))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m renderer.ladder", description="draw the ladder of the computer levels")
    ap.add_argument("ladder", type=Path, help="the ladder's JSON (meadhall arena --ladder GAME)")
    ap.add_argument("-o", "--out", type=Path, required=True, help="the PNG to write")
    args = ap.parse_args(argv)
    try:
        data = json.loads(args.ladder.read_text(encoding="utf-8"))
        png = ladder_picture(data)
    except (OSError, ValueError, AttributeError, TypeError) as e:
        print(f"renderer.ladder: {args.ladder}: {e}", file=sys.stderr)
        return 2
    args.out.write_bytes(png)
    print(f"{args.out}: {len(png)} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
