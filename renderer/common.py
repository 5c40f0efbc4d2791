"""Drawing helpers shared by the game renderers: fonts, palette, text, small icons, PNG encoding.

The font is DejaVu Sans Condensed, shipped in ``renderer/fonts`` (its licence beside it), so
nothing is fetched or looked up on the machine at run time. It draws every letter of the
languages meadhall speaks (Polish, Czech, German, Finnish, Spanish: issue 16), where Pillow's own
default (Aileron) draws ASCII only and left a box for each accented letter; its widths are within
2 % of Aileron's, so the layouts keep their room. Icons are drawn as shapes.
"""

from __future__ import annotations

import functools
import io
import re
import sys
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
R = TypeVar("R")

# Okabe-Ito palette: distinguishable with the common colour-vision deficiencies.
OI_ORANGE: RGB = (230, 159, 0)
OI_SKY: RGB = (86, 180, 233)
OI_GREEN: RGB = (0, 158, 115)
OI_YELLOW: RGB = (240, 228, 66)
OI_BLUE: RGB = (0, 114, 178)
OI_VERMILLION: RGB = (213, 94, 0)
OI_PURPLE: RGB = (204, 121, 167)

INK: RGB = (33, 30, 28)
PAPER: RGB = (246, 241, 230)
MUTED: RGB = (120, 112, 100)
WHITE: RGB = (255, 255, 255)
GOLD: RGB = (232, 182, 30)
GOLD_DARK: RGB = (150, 110, 10)

# Seat colours: chosen away from the six viking-kind colours (blue, yellow, green, red, black,
# grey) so a seat is never mistaken for a kind; the name is always written next to it.
SEAT_COLOURS: list[RGB] = [(126, 58, 160), (214, 110, 20), (20, 150, 160), (200, 70, 140)]


# The default font has no glyphs beyond Latin-1 punctuation; engine texts may use these. Control
# characters and line/paragraph separators become spaces: Pillow's raqm layout fails on a line break
# ("raqm_layout() failed"), so no text that reaches the font may hold one (issue 24).
_ASCII = str.maketrans({"×": "x", "−": "-", "–": "-", "—": "-", "…": "...", "’": "'", "‘": "'",
                        "“": '"', "”": '"', "→": "->", "←": "<-", "≥": ">=", "≤": "<=",
                        **{chr(c): " " for c in [*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029]}})


def plain(s: str) -> str:
    """``s`` with the few non-ASCII signs engines write replaced by ASCII look-alikes, and control
    characters as spaces."""
    return s.translate(_ASCII)


MAX_DISPLAY_NAME = 60  # characters: a seated computer's "(computer, level)" suffix after a 32-character name
_MARKS_PER_LETTER = 2  # combining marks kept on one letter ("Zalgo" names stack hundreds)


def display_name(name: object, fallback: str = "?") -> str:
    """A player's name as the pictures draw it: any string at all (a Discord display name, a stored
    record's) comes out drawable on one line. Control characters, line breaks and other whitespace
    become one space; format characters (zero-width, bidi overrides), surrogates, private-use and
    unassigned code points are dropped; at most two combining marks per letter; at most
    :data:`MAX_DISPLAY_NAME` characters (then ".."); nothing left: ``fallback``. Every place a renderer
    draws a name goes through this (issue 24: a newline in a name failed every picture)."""
    out: list[str] = []
    marks = 0
    for c in unicodedata.normalize("NFC", str(name)):
        cat = unicodedata.category(c)
        if c.isspace() or cat in ("Cc", "Zl", "Zp"):
            c, marks = " ", 0
        elif cat in ("Cf", "Cs", "Co", "Cn"):
            continue
        elif cat.startswith("M"):
            if not out or marks >= _MARKS_PER_LETTER:
                continue
            marks += 1
        else:
            marks = 0
        out.append(c)
    clean = " ".join("".join(out).split())
    if len(clean) > MAX_DISPLAY_NAME:
        clean = clean[:MAX_DISPLAY_NAME - 2].rstrip() + ".."
    return clean or fallback


FONT_FILE = Path(__file__).resolve().parent / "fonts" / "DejaVuSansCondensed.ttf"


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_FILE), size=size)


# --------------------------------------------------------------------------- the table's language
# The renderer never imports the host (three rooms): the host hands a picture its translator,
# ``tr(message, **fields)`` with the signature of ``bot.i18n._`` and ``ntr(singular, plural, n,
# **fields)`` with that of ``bot.i18n.ngettext``. Every word a picture draws goes through
# :func:`tr`/:func:`ntr` below (Babel extracts them: ``bot/i18n/catalogs.py`` KEYWORDS); messages kept in
# tables are marked with :func:`N_` and translated when drawn. Numbers, names, rule numbers and
# notation codes are not translated.

Translator = Callable[..., str]


def _same(message: str, /, **fields: object) -> str:
    return message.format(**fields) if fields else message


def _same_n(singular: str, plural: str, n: int, /, **fields: object) -> str:
    return (singular if n == 1 else plural).format(n=n, **fields)


_TR: ContextVar[tuple[Translator, Translator]] = ContextVar("renderer_translator", default=(_same, _same_n))
_MIN: ContextVar[int] = ContextVar("renderer_text_minimum", default=0)


def tr(message: str, /, **fields: object) -> str:
    """``message`` in the picture's language, its ``str.format`` fields filled."""
    return _TR.get()[0](message, **fields)


def ntr(singular: str, plural: str, n: int, /, **fields: object) -> str:
    """The plural-aware :func:`tr`; ``n`` is a field too (``{n}``)."""
    return _TR.get()[1](singular, plural, n, **fields)


def N_(message: str, /) -> str:
    """Mark a message for extraction; it is translated with :func:`tr` where it is drawn."""
    return message


@contextmanager
def translating(tr: Translator | None = None, ntr: Translator | None = None,
                minimum: int | None = None) -> Iterator[None]:
    """Inside, pictures speak through ``tr``/``ntr`` (``None``: keep the current ones) and a text
    that does not fit its box shrinks down to ``minimum`` px before it is cut."""
    cur_tr, cur_ntr = _TR.get()
    token = _TR.set((tr or cur_tr, ntr or cur_ntr))
    mtoken = _MIN.set(minimum) if minimum is not None else None
    try:
        yield
    finally:
        _TR.reset(token)
        if mtoken is not None:
            _MIN.reset(mtoken)


def translated(minimum: int) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """Decorate a picture's entry point: it takes keyword-only ``tr=`` and ``ntr=`` (the host's
    translator; default: the English messages) and shrinks texts down to ``minimum`` px to fit.
    The picture's return type is kept (its parameters gain ``tr``/``ntr``, which typing cannot add)."""

    def deco(fn: Callable[..., R]) -> Callable[..., R]:
        @functools.wraps(fn)
        def wrapper(*args: object, tr: Translator | None = None, ntr: Translator | None = None,
                    **kw: object) -> R:
            with translating(tr, ntr, minimum=minimum):
                return fn(*args, **kw)

        return wrapper

    return deco


_FLOOR: ContextVar[int] = ContextVar("renderer_text_floor", default=0)


@contextmanager
def text_floor(minimum: int) -> Iterator[None]:
    """While inside, every text is drawn (and measured) at least ``minimum`` px: a picture whose
    small print was laid out for a smaller size keeps its layout, with wider words fitted and cut
    by :func:`fit_text` and :func:`wrap` as they are measured at the drawn size."""
    token = _FLOOR.set(minimum)
    try:
        yield
    finally:
        _FLOOR.reset(token)


def text_width(s: str, size: int) -> float:
    return _text_width(s, max(size, _FLOOR.get()))


@lru_cache(maxsize=8192)
def _text_width(s: str, size: int) -> float:
    return font(size).getlength(plain(s))


@lru_cache(maxsize=8192)
def text_mask(s: str, size: int, stroke: int, anchor: str) -> tuple[Image.Image, int, int]:
    """``s`` rendered once as an antialiased mask and its offset from the anchor point: most texts of
    a picture (names, labels, numbers) repeat from one turn to the next, and rasterising glyphs is
    most of a picture's drawing time (docs/performance.md)."""
    f = font(size)
    x0, y0, x1, y1 = (int(v) for v in f.getbbox(s, anchor=anchor, stroke_width=stroke))  # ints, typed float
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), s, font=f, fill=255, anchor=anchor, stroke_width=stroke, stroke_fill=255)
    return mask, x0, y0


@dataclass(frozen=True)
class DrawnText:
    """One text a renderer drew: the words, the font size in image pixels, its box (the ink) and the
    box it must stay in (its container: the room the layout gave it, else the whole picture)."""

    text: str
    size: int
    box: tuple[int, int, int, int]
    container: tuple[int, int, int, int] = (0, 0, 1 << 30, 1 << 30)
    wanted: str = ""
    """The text the layout asked for (``text`` is what fitted: shrunk or cut with ``..``)."""

    @property
    def vanished(self) -> bool:
        """The layout asked for words and none fitted."""
        return bool(self.wanted.strip()) and not self.text.strip(" .")

    @property
    def overflows(self) -> bool:
        x0, y0, x1, y1 = self.box
        c0, d0, c1, d1 = self.container
        return x0 < c0 or y0 < d0 or x1 > c1 or y1 > d1


@dataclass
class TextLog:
    """Every text drawn while it is recording (``with recording(log):``), for the size tests."""

    texts: list[DrawnText] = field(default_factory=list)

    @property
    def smallest(self) -> int | None:
        return min((t.size for t in self.texts), default=None)

    def below(self, minimum: int) -> list[DrawnText]:
        return [t for t in self.texts if t.size < minimum and t.text.strip()]

    def vanished(self) -> list[DrawnText]:
        """The texts cut to nothing: their box has no room for even ``..``."""
        return [t for t in self.texts if t.vanished]

    def overflowing(self) -> list[DrawnText]:
        """The texts whose ink leaves their container."""
        return [t for t in self.texts if t.overflows and t.text.strip()]


_LOG: ContextVar[TextLog | None] = ContextVar("renderer_text_log", default=None)


@contextmanager
def recording(log: TextLog | None) -> Iterator[TextLog | None]:
    """While inside, :func:`text` adds every text it draws to ``log``. ``None`` keeps the recording
    around it (a picture drawn without its own log inside a caller's ``recording``, e.g. the host's
    pictures in a whole-game test, issue 16), or records nothing."""
    if log is None:
        yield _LOG.get()
        return
    token = _LOG.set(log)
    try:
        yield log
    finally:
        _LOG.reset(token)


def _stroke(size: int, bold: bool) -> int:
    return max(1, size // 22) if bold else 0


def _fits(s: str, size: int, bold: bool, anchor: str, x: int, lo: float, hi: float) -> bool:
    _mask, ox, _oy = text_mask(s, size, _stroke(size, bold), anchor)
    return lo <= x + ox and x + ox + _mask.width <= hi


# A computer player is seated as "{name} (computer, {level})" (bot/host/seats.py, in the table's language
# then): where such a name does not fit, the suffix shrinks to a short mark before anything is cut.
COMPUTER_SEAT = N_("{name} (computer, {level})")
CPU_MARK = "\u2699"  # a gear: the last resort, two characters wide with its space


@lru_cache(maxsize=16)
def _suffix_pattern(template: str) -> re.Pattern[str] | None:
    """The part of a seated computer's name after ``{name}`` as a pattern (``None``: the template
    does not start with the name, so nothing can be dropped safely)."""
    if not template.startswith("{name}") or template.count("{level}") != 1:
        return None
    head, tail = template[len("{name}"):].split("{level}")
    return re.compile(re.escape(head) + r"[^()\n]{1,40}?" + re.escape(tail))


def name_forms(s: str) -> list[str]:
    """Shorter forms of ``s`` with every seated computer's "(computer, level)" suffix replaced by a
    short mark: first "(CPU)" (in the picture's language), then the gear; ``[]`` when ``s`` names
    no computer player. Issue 13/14 follow-up: "Ragnar (computer, heuri.." became "Ragnar (CPU)"."""
    templates = {plain(tr(COMPUTER_SEAT, name="{name}", level="{level}")), COMPUTER_SEAT}
    pats = [p for p in map(_suffix_pattern, sorted(templates)) if p is not None]
    if not any(p.search(s) for p in pats):
        return []
    cpu = tr("{name} (CPU)", name="{name}")
    marks = [cpu[len("{name}"):] if cpu.startswith("{name}") else " (CPU)", " " + CPU_MARK]
    out = []
    for mark in marks:
        short = s
        for p in pats:
            short = p.sub(mark.replace("\\", "\\\\"), short)  # the mark as it is, no group references
        out.append(short)
    return out


def _fit(s: str, size: int, bold: bool, anchor: str, x: int, lo: float, hi: float) -> tuple[str, int]:
    """``s`` at the largest size from ``size`` down to the picture's minimum that fits ``lo``..``hi``;
    else with a computer player's name suffix shortened (:func:`name_forms`); else cut with ``..`` at
    the minimum when even that is too wide (a long translation)."""
    minimum = min(size, max(_MIN.get(), _FLOOR.get())) if _MIN.get() else size
    for sz in range(size, minimum - 1, -1):
        if _fits(s, sz, bold, anchor, x, lo, hi):
            return s, sz
    for short in name_forms(s):
        for sz in range(size, minimum - 1, -1):
            if _fits(short, sz, bold, anchor, x, lo, hi):
                return short, sz
        s = short
    cut = s
    while cut and not _fits(cut.rstrip() + "..", minimum, bold, anchor, x, lo, hi):
        cut = cut[:-1]
    return (cut.rstrip() + ".." if cut else ""), minimum


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int, fill: RGB = INK,
         anchor: str = "la", bold: bool = False, *, max_width: float | None = None,
         within: tuple[float, float, float, float] | None = None) -> float:
    """Draw ``s``; ``bold`` thickens it with a stroke of its own colour. Returns the width.

    ``max_width`` (measured from ``xy`` as the anchor says) or ``within`` (a box): the room the text
    has; a text too wide for it shrinks down to the picture's minimum size, then is cut with ``..``.
    The text log records the room as the text's container (default: the whole picture)."""
    size = max(size, _FLOOR.get())
    s = wanted = plain(s)
    x, y = round(xy[0]), round(xy[1])
    w, h = draw.im.size
    if within is None and max_width is not None:
        # the room starts at the anchor; a glyph's side bearing or a bold stroke may take 2 px more
        lo = x - 2 if anchor[0] == "l" else x - max_width if anchor[0] == "r" else x - max_width / 2
        hi = x + 2 if anchor[0] == "r" else lo + max_width + (2 if anchor[0] == "l" else 0)
        within = (lo, 0, hi, h)
    if within is not None:
        if anchor[0] == "l" and within[0] > x - 2:  # the same 2 px for a side bearing or bold stroke
            within = (x - 2, *within[1:])
        elif anchor[0] == "r" and within[2] < x + 2:
            within = (*within[:2], x + 2, within[3])
        s, size = _fit(s, size, bold, anchor, x, within[0], within[2])
    stroke = _stroke(size, bold)
    mask, ox, oy = text_mask(s, size, stroke, anchor)
    bx, by = x + ox, y + oy
    draw.bitmap((bx, by), mask, fill=fill)
    log = _LOG.get()
    if log is not None:
        room = (0, 0, w, h) if within is None else (
            max(0, int(within[0])), max(0, int(within[1])), min(w, int(-(-within[2] // 1))), min(h, int(-(-within[3] // 1))))
        log.texts.append(DrawnText(s, size, (bx, by, bx + mask.width, by + mask.height), room, wanted))
    return text_width(s, size) + 2 * stroke


def fit_text(s: str, size: int, max_width: float) -> str:
    """``s`` cut with ``..`` so that it fits ``max_width`` pixels at ``size``."""
    if text_width(s, size) <= max_width:
        return s
    while s and text_width(s + "..", size) > max_width:
        s = s[:-1]
    return s + ".."


def wrap_words(s: str, size: int, max_width: float) -> list[str]:
    """Greedy word wrap of ``s`` at ``size`` px: lines no wider than ``max_width`` unless one word
    alone is wider (that line is left whole for the caller to judge)."""
    lines: list[str] = []
    cur = ""
    for word in plain(s).split():
        trial = f"{cur} {word}" if cur else word
        if cur and text_width(trial, size) > max_width:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    if cur:
        lines.append(cur)
    return lines


def wrap(s: str, size: int, max_width: float) -> list[str]:
    """Greedy word wrap of ``s`` to lines no wider than ``max_width`` (long words are cut)."""
    return [fit_text(ln, size, max_width) for ln in wrap_words(s, size, max_width)]


def readable_on(bg: RGB) -> RGB:
    """Black or white, whichever reads better on ``bg``."""
    r, g, b = bg
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else WHITE


def coin(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD, outline=GOLD_DARK, width=max(1, int(r // 5)))
    ri = r * 0.55
    draw.ellipse((cx - ri, cy - ri, cx + ri, cy + ri), outline=GOLD_DARK, width=1)


def star_points(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> list[tuple[float, float]]:
    import math

    pts = []
    for i in range(points * 2):
        rad = r if i % 2 == 0 else r * inner
        a = -math.pi / 2 + i * math.pi / points
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return pts


def star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB, outline: RGB = INK) -> None:
    draw.polygon(star_points(cx, cy, r), fill=fill, outline=outline)


def dashed_rect(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: RGB,
                dash: int = 6, width: int = 2) -> None:
    x0, y0, x1, y1 = (int(v) for v in box)
    for x in range(x0, x1, dash * 2):
        draw.line((x, y0, min(x + dash, x1), y0), fill=fill, width=width)
        draw.line((x, y1, min(x + dash, x1), y1), fill=fill, width=width)
    for y in range(y0, y1, dash * 2):
        draw.line((x0, y, x0, min(y + dash, y1)), fill=fill, width=width)
        draw.line((x1, y, x1, min(y + dash, y1)), fill=fill, width=width)


def encode_png(img: Image.Image) -> bytes:
    """The one PNG encoding every renderer uses (and the benchmark compares against)."""
    buf = io.BytesIO()
    # The tables are flat colours: a fast 256-colour palette loses nothing visible and, with light
    # zlib, halves the encoding time (the largest part of a render) and the file size.
    pal = img.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    pal.save(buf, format="PNG", optimize=False, compress_level=1)
    return buf.getvalue()


# --------------------------------------------------------------------------- command lines


def read_source(path: str) -> str | None:
    """The text of FILE ('-' = stdin) for a renderer CLI; prints the error and returns None."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        print(f"cannot read {path}: {e.strerror}", file=sys.stderr)
        return None


def is_view_json(path: str, raw: str) -> bool:
    """A saved view (JSON) rather than a position written in a game's notation."""
    return path.endswith(".json") or raw.lstrip().startswith("{")


def write_png(path: str, png: bytes) -> int:
    with open(path, "wb") as f:
        f.write(png)
    print(f"wrote {path} ({len(png) // 1024} KB)")
    return 0
