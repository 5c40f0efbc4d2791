"""What the chat pictures share: size bounds, the framed canvas, the score strip, the fast encoder.

Discord shows an attachment scaled into about 550 x 350 px until it is opened (issue 14). A chat
picture is therefore landscape, 1000-1200 px wide, with an aspect between 1.6 : 1 and 2 : 1 (so it
shows at 45 % or more), and every text on it is at least 22 px (font size in image pixels). The
background is opaque and framed so that it stands out on Discord's dark and light themes.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderer.common import GOLD, INK, PAPER, RGB, TextLog, readable_on, recording, text, text_width
from renderer.palette import DESIGN_COLOURS

PICTURE_W = 1120
PICTURE_H = 640            # 1.75 : 1
MIN_TURN_TEXT = 22         # turn and scoring pictures (issue 14)
MIN_TABLE_TEXT = 16        # the full table, opened in the viewer
MIN_HAND_TEXT = MIN_TURN_TEXT  # Brian Boru's private hand: read inline like a turn picture (QA)
FRAME: RGB = (52, 46, 40)  # dark frame: shows on the light theme; the paper shows on the dark one
FRAME_W = 6
PAD = 18
ACTIVE_BG: RGB = GOLD


@lru_cache(maxsize=8)
def _blank(w: int, h: int) -> Image.Image:
    """The static layer every picture starts from: opaque paper in a dark frame."""
    img = Image.new("RGB", (w, h), PAPER)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w - 1, h - 1), outline=FRAME, width=FRAME_W)
    return img


def canvas(w: int = PICTURE_W, h: int = PICTURE_H) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = _blank(w, h).copy()
    return img, ImageDraw.Draw(img)


@lru_cache(maxsize=1)
def chat_palette() -> Image.Image:
    """A fixed 256-colour palette for the chat pictures: every design colour exactly, the rest chosen
    (median cut) from the blends that antialiased text and shapes make between them. Mapping a
    picture onto a fixed palette takes about 1 ms, a per-picture octree about 7 ms."""
    exact = list(DESIGN_COLOURS[:200])
    fgs = [INK, SOFT, (255, 255, 255), FRAME, (150, 40, 40)]
    blends = []
    for bg in exact:
        for fg in fgs:
            for k in range(1, 8):
                t = k / 8
                blends.append(tuple(round(b + (f - b) * t) for b, f in zip(bg, fg, strict=True)))
    ref = Image.new("RGB", (len(blends), 1))
    ref.putdata(blends)
    room = 256 - len(exact)
    extra = (ref.quantize(colors=room, method=Image.Quantize.MEDIANCUT).getpalette() or [])[: 3 * room]
    flat = [x for c in exact for x in c] + list(extra or [])
    flat += [0] * (768 - len(flat))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def encode_fast(img: Image.Image) -> bytes:
    """PNG for the chat pictures: mapped onto the fixed :func:`chat_palette` without dithering (flat
    colours stay exact) and written with the fastest zlib level (docs/performance.md)."""
    buf = io.BytesIO()
    pal = img.quantize(palette=chat_palette(), dither=Image.Dither.NONE)
    pal.save(buf, format="PNG", optimize=False, compress_level=1)
    return buf.getvalue()


def drawn(draw_fn: Callable[..., Image.Image], *args: Any, log: TextLog | None = None, **kw: Any) -> Image.Image:
    """Call ``draw_fn`` recording its texts into ``log`` (when given)."""
    with recording(log):
        return draw_fn(*args, **kw)


def badge(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB, letter: str, size: int = 22,
          outline: RGB = INK) -> None:
    """A filled circle with a letter on it: a seat or a kind is never told by colour alone."""
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=2)
    text(d, (cx, cy + 1), letter, size, fill=readable_on(fill), anchor="mm", bold=True)


def score_strip(d: ImageDraw.ImageDraw, y: int, h: int, cells: list[tuple[str, RGB, str, list[str], bool]],
                w: int = PICTURE_W) -> None:
    """Bottom strip: per player (name, seat colour, initial, values, acting?) in equal boxes."""
    n = max(1, len(cells))
    x0 = FRAME_W + 6
    cw = (w - 2 * x0 - (n - 1) * 6) / n
    for i, (name, colour, letter, values, acting) in enumerate(cells):
        bx = x0 + i * (cw + 6)
        fill = ACTIVE_BG if acting else (236, 230, 218)
        d.rounded_rectangle((bx, y, bx + cw, y + h), radius=8, fill=fill,
                            outline=INK if acting else (190, 182, 168), width=3 if acting else 1)
        badge(d, bx + 22, y + 22, 15, colour, letter)
        text(d, (bx + 44, y + 9), name, 24, bold=True, within=(bx + 40, y, bx + cw - 4, y + h))
        vy = y + h - 34
        text(d, (bx + 12, vy), "  ".join(values), 24, fill=INK, within=(bx + 4, y, bx + cw - 4, y + h))


def headline(d: ImageDraw.ImageDraw, left: str, right: str, colour: RGB | None, letter: str,
             w: int = PICTURE_W) -> int:
    """Top line: the game and round on the left, whose turn (boxed in gold) on the right; the box takes
    at most half the width, the left words the rest (both shrink, then are cut, to fit)."""
    y = FRAME_W + 8
    x0: float = w - PAD
    if right:
        rw = min(text_width(right, 28) + 4 + (56 if colour else 20) + 6, (w - 2 * PAD) / 2)
        x1 = w - PAD
        x0 = x1 - rw
        d.rounded_rectangle((x0, y, x1, y + 44), radius=10, fill=ACTIVE_BG, outline=INK, width=2)
        tx = x0 + 10
        if colour:
            badge(d, x0 + 26, y + 22, 16, colour, letter)
            tx = x0 + 48
        text(d, (tx, y + 7), right, 28, bold=True, within=(tx - 2, y, x1 - 4, y + 44))
    text(d, (PAD, y + 6), left, 26, bold=True, within=(PAD - 2, y, x0 - 10, y + 44))
    return y + 52


SOFT: RGB = (92, 84, 72)  # secondary text: 6 : 1 on the paper (MUTED is too faint at inline size)


def soft(d: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int = 22, anchor: str = "la") -> float:
    return text(d, xy, s, size, fill=SOFT, anchor=anchor)


def warm_up() -> None:
    """Build what the first pictures would otherwise build while a player waits: the palette, the
    tile and viking sprites at the turn picture's cell sizes, the fonts. About a quarter second once."""
    from renderer.vikings import KIND_COLOURS, figure_sprite, tile_sprite

    chat_palette()
    codes = ["L", "R", *(f"M{b}" for b in "abcd"), *(f"X{b}" for b in "abcd"), *(f"^{s}" for s in "rgyb")]
    for c in range(24, 81, 8):
        for code in codes:
            tile_sprite(code, c)
        for kind in KIND_COLOURS:
            figure_sprite(kind, int(c * 0.66))
            figure_sprite(kind, int(c * 0.66), lying=True)
