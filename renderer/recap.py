"""The animated recap of a finished game (issue 25): frames in, one animated picture out.

Each :class:`Frame` is one position of the game as every player saw it (the chat picture the host
draws: a turn picture, a scoring picture, the final scoring) with a caption: who acted and what
they did, and where in the game it is (round, trick, move). :func:`encode_recap` puts a header strip
on each picture — dark, so that it reads as the caption of the picture below it, with the actor's
seat badge, the place in the game and a progress bar — scales the frames for the chat and writes
one animated WebP (or GIF) with per-frame durations: a move shows :data:`MOVE_MS`, a scoring
:data:`SCORING_MS`, the end :data:`END_MS`.

Size: Discord shows an attachment inline at about 550 x 350 px. The chat pictures are 1120 x 640
with every text at least 22 px; with the 84 px strip a frame is 1120 x 724 (1.55 : 1, the inline
box's shape, so it shows whole at 49 %), scaled to :data:`FRAME_W` wide: each text keeps the size
it has inline (the inline size depends only on the text's share of the width), the file is smaller.
The file is at most ``max_bytes`` (Discord's 8 MB for a bot without boosts): over it, the frames are
made smaller, then every other move frame is dropped (scorings and the end are always kept) until
it fits.

    encode_recap(frames, fmt="webp", max_bytes=MAX_BYTES, width=FRAME_W) -> Recap
    draw_frame(frame, index, count) -> PIL image (full size, with its header strip)
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from renderer.common import GOLD, PAPER, RGB, WHITE, plain, text, text_width
from renderer.picture import FRAME, PICTURE_H, PICTURE_W, badge

HEADER_H = 84
FULL_H = HEADER_H + PICTURE_H  # 724: 1120 x 724 is 1.55 : 1, the shape of Discord's inline box
FRAME_W = 800                  # the frames' width in the file (inline text keeps its size, see above)
MIN_W = 560                    # never smaller than this (Discord's inline width): frames are dropped instead
MAX_BYTES = 8 * 1024 * 1024    # Discord's upload limit for a server without boosts
MOVE_MS = 900
SCORING_MS = 3500
START_MS = 1500
END_MS = 6000
DURATIONS = {"move": MOVE_MS, "start": START_MS, "scoring": SCORING_MS, "end": END_MS}
QUALITY = 80
KEPT = ("start", "scoring", "end")  # frames never dropped to fit the size
STRIP_BG: RGB = FRAME
STRIP_SOFT: RGB = (226, 221, 210)


class NoFrames(ValueError):
    """Nothing to animate: no frame was given (a game without pictures)."""


@dataclass
class Frame:
    """One position: ``picture`` (the chat picture, 1120 x 640; or its PNG bytes), ``where`` (round,
    trick), ``actor`` (who acted, or ``""`` at the start) with the seat's ``colour`` and ``letter``,
    ``did`` (what they did, one line), ``kind``: ``move``, ``start``, ``scoring`` or ``end``
    (:data:`DURATIONS`)."""

    picture: Image.Image | bytes
    where: str
    actor: str = ""
    did: str = ""
    colour: RGB | None = None
    letter: str = ""
    kind: str = "move"

    def image(self) -> Image.Image:
        pic = self.picture
        if isinstance(pic, bytes):
            pic = Image.open(io.BytesIO(pic))
        return pic.convert("RGB")


@dataclass
class Recap:
    """The encoded recap: ``data`` (the file's bytes), its ``filename``, how many ``frames`` it holds
    (of ``positions`` given), their ``durations`` (ms) and the frames' ``size``."""

    data: bytes
    filename: str
    frames: int
    positions: int
    durations: list[int] = field(default_factory=list)
    size: tuple[int, int] = (0, 0)


def duration(frame: Frame) -> int:
    return DURATIONS.get(frame.kind, MOVE_MS)


def cut(s: str, size: int, width: float) -> str:
    """``s`` cut at a word (with ``..``) to fit ``width`` px at ``size``: a move's narration may be
    long, and cutting it a letter at a time measures it once per letter."""
    s = plain(s)
    if text_width(s, size) <= width:
        return s
    lo, hi = 0, len(s)
    while lo < hi:  # the longest prefix that fits, with its dots
        mid = (lo + hi + 1) // 2
        if text_width(s[:mid] + " ..", size) <= width:
            lo = mid
        else:
            hi = mid - 1
    head = s[:lo]
    word = head.rsplit(" ", 1)[0] if " " in head[len(head) // 2:] else head
    return word.rstrip(" ,;:.") + " .."


def draw_frame(frame: Frame, index: int, count: int) -> Image.Image:
    """The frame at full size: the header strip over the picture. ``index`` of ``count`` (from 0)
    fills the progress bar."""
    img = Image.new("RGB", (PICTURE_W, FULL_H), PAPER)
    pic = frame.image()
    if pic.size != (PICTURE_W, PICTURE_H):
        pic = pic.resize((PICTURE_W, PICTURE_H), Image.Resampling.LANCZOS)
    img.paste(pic, (0, HEADER_H))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, PICTURE_W - 1, HEADER_H - 1), fill=STRIP_BG)
    x = 14
    if frame.colour is not None:
        badge(d, x + 17, 24, 17, frame.colour, frame.letter or "?", outline=WHITE)
        x += 42
    right = PICTURE_W - 14
    where_w = text(d, (right, 7), frame.where, 26, fill=GOLD, anchor="ra", bold=True,
                   within=(PICTURE_W * 0.45, 0, right, 44)) if frame.where else 0
    if frame.actor:
        text(d, (x, 7), frame.actor, 28, fill=WHITE, bold=True, within=(x, 0, right - where_w - 16, 44))
    if frame.did:
        text(d, (14, 44), cut(frame.did, 24, PICTURE_W - 40), 24, fill=STRIP_SOFT,
             within=(12, 40, PICTURE_W - 12, HEADER_H - 6))
    bar = round((PICTURE_W - 2) * (index + 1) / max(1, count))
    d.rectangle((0, HEADER_H - 5, PICTURE_W - 1, HEADER_H - 1), fill=(92, 84, 72))
    d.rectangle((0, HEADER_H - 5, bar, HEADER_H - 1), fill=GOLD)
    return img


def _encode(images: Sequence[Image.Image], durations: Sequence[int], fmt: str) -> bytes:
    buf = io.BytesIO()
    first, rest = images[0], list(images[1:])
    if fmt == "gif":
        from renderer.picture import chat_palette

        pal = [im.quantize(palette=chat_palette(), dither=Image.Dither.NONE) for im in images]
        pal[0].save(buf, format="GIF", save_all=True, append_images=pal[1:], duration=list(durations), loop=0,
                    optimize=False, disposal=1)
    else:  # lossy WebP at quality 80, the fastest method: text stays readable, a Vikings game of 80
        # frames is about 2 MB in 3 s (lossless was 7 MB in 78 s; a GIF 6 MB: docs/performance-render.md)
        first.save(buf, format="WEBP", save_all=True, append_images=rest, duration=list(durations), loop=0,
                   quality=QUALITY, method=0, kmin=0, kmax=0)  # no keyframe candidates: a third faster, same size
    return buf.getvalue()


def encode_recap(frames: Sequence[Frame], *, fmt: str = "webp", max_bytes: int = MAX_BYTES,
                 width: int = FRAME_W, name: str = "meadhall-recap") -> Recap:
    """The animated picture of ``frames`` (at least one), at most ``max_bytes`` (see the module)."""
    if not frames:
        raise NoFrames("a recap needs at least one frame")
    if fmt not in ("webp", "gif"):
        raise ValueError(f"a recap is webp or gif, not {fmt!r}")
    full = [draw_frame(f, i, len(frames)) for i, f in enumerate(frames)]
    kept = list(range(len(frames)))
    w = min(width, PICTURE_W)
    while True:
        h = round(FULL_H * w / PICTURE_W)
        images = [full[i] if w == PICTURE_W else full[i].resize((w, h), Image.Resampling.BILINEAR, reducing_gap=2.0) for i in kept]
        durations = [duration(frames[i]) for i in kept]
        data = _encode(images, durations, fmt)
        if len(data) <= max_bytes:
            return Recap(data, f"{name}.{fmt}", len(kept), len(frames), durations, (w, h))
        if w > MIN_W:
            w = max(MIN_W, round(w * 0.8))
            continue
        thinner = [i for i in kept if frames[i].kind in KEPT or i in _thinned_ids(frames, kept)]
        if len(thinner) == len(kept):
            raise ValueError(f"a recap of {len(kept)} frames does not fit {max_bytes} bytes")
        kept = thinner


def _thinned_ids(frames: Sequence[Frame], kept: Sequence[int]) -> set[int]:
    moves = [i for i in kept if frames[i].kind not in KEPT]
    return set(moves[::2])
