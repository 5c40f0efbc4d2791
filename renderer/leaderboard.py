"""The leaderboard picture (issue 17): rank, name, rating (openskill's ordinal) with μ ± σ drawn as
an interval, and games played. Rows come as plain dicts (the renderer never imports the host)::

    {"rank": 1, "name": "Ann", "ordinal": 7.3, "mu": 31.2, "sigma": 8.0, "games": 4}

The texts arrive translated except the column heads, drawn through ``tr``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from renderer.common import GOLD, INK, MUTED, TextLog, display_name, recording, text, tr, translated
from renderer.picture import MIN_TURN_TEXT, PAD, PICTURE_H, PICTURE_W, canvas, encode_fast

ROWS = 10  # rows a picture shows (each at least 22 px text)
ROW_H = 50
MIN_H = 320  # a board of one or two rows keeps a picture's shape


def draw_leaderboard(title: str, rows: Sequence[dict[str, Any]], *, log: TextLog | None = None) -> Image.Image:
    with recording(log):
        shown = list(rows)[:ROWS]
        top = PAD + 56
        # as tall as its rows (a short board is not a mostly empty picture), at most the turn pictures'
        img, d = canvas(PICTURE_W, min(PICTURE_H, max(MIN_H, top + 34 + len(shown) * ROW_H + PAD)))
        text(d, (PAD + 6, PAD + 4), title, 30, bold=True, max_width=PICTURE_W - 2 * PAD - 12)
        x_rank, x_name, x_rating, x_mu, x_games = PAD + 10, PAD + 70, PAD + 420, PAD + 530, PICTURE_W - PAD - 10
        x_bar = x_mu + 170
        bar_w = x_games - 110 - x_bar
        text(d, (x_rank, top), "#", 22, fill=MUTED)
        text(d, (x_name, top), tr("player"), 22, fill=MUTED, max_width=x_rating - x_name - 20)
        text(d, (x_rating, top), tr("rating"), 22, fill=MUTED, max_width=x_bar - x_rating - 10)
        text(d, (x_mu, top), tr("μ ± σ"), 22, fill=MUTED, max_width=x_bar - x_mu - 10)
        text(d, (x_games, top), tr("games"), 22, fill=MUTED, anchor="ra", max_width=120)
        lo = min([r["mu"] - r["sigma"] for r in shown] + [0.0])
        hi = max([r["mu"] + r["sigma"] for r in shown] + [50.0])
        scale = bar_w / (hi - lo)
        for i, r in enumerate(shown):
            y = top + 34 + i * ROW_H
            if i % 2 == 0:
                d.rectangle((PAD, y - 6, PICTURE_W - PAD, y + ROW_H - 10), fill=(238, 232, 220))
            text(d, (x_rank, y), str(r["rank"]), 24, bold=True, fill=GOLD if r["rank"] == 1 else INK)
            text(d, (x_name, y), display_name(r["name"]), 24, bold=True, max_width=x_rating - x_name - 20)
            text(d, (x_rating, y), f"{r['ordinal']:.1f}", 24, bold=True, max_width=x_mu - x_rating - 10)
            text(d, (x_mu, y), f"{r['mu']:.1f} ± {r['sigma']:.1f}", 24, max_width=x_bar - x_mu - 10)
            a, b, m = (x_bar + (r["mu"] - r["sigma"] - lo) * scale, x_bar + (r["mu"] + r["sigma"] - lo) * scale,
                       x_bar + (r["mu"] - lo) * scale)
            cy = y + 14
            d.line((a, cy, b, cy), fill=MUTED, width=4)
            d.line((a, cy - 8, a, cy + 8), fill=MUTED, width=2)
            d.line((b, cy - 8, b, cy + 8), fill=MUTED, width=2)
            d.ellipse((m - 7, cy - 7, m + 7, cy + 7), fill=GOLD if r["rank"] == 1 else INK)
            text(d, (x_games, y), str(r["games"]), 24, anchor="ra", max_width=120)
        return img


@translated(MIN_TURN_TEXT)
def render_leaderboard(title: str, rows: Sequence[dict[str, Any]], *, log: TextLog | None = None) -> bytes:
    """The PNG of :func:`draw_leaderboard`; ``tr``/``ntr`` keywords: the table's translator."""
    return encode_fast(draw_leaderboard(title, rows, log=log))
