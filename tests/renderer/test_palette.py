"""The chat palette's exact colours are data (renderer/palette.py) and match the renderers' constants
(issue 30 item 7: renderer.picture no longer imports the renderers that import it)."""

from __future__ import annotations

from renderer import brianboru, common, vikings
from renderer.palette import DESIGN_COLOURS
from renderer.picture import FRAME, SOFT

EXTRA = (FRAME, SOFT, (240, 234, 222), (236, 230, 218), (190, 182, 168), (255, 240, 190), (238, 232, 220),
         (220, 214, 204), (150, 40, 40), (226, 221, 210), (120, 112, 100))


def scanned() -> list[tuple[int, int, int]]:
    """Every colour constant of the renderers, in definition order, then the picture helpers' own."""
    seen: dict[tuple[int, int, int], None] = {}
    for mod in (common, vikings, brianboru):
        for v in vars(mod).values():
            vals = v.values() if isinstance(v, dict) else v if isinstance(v, list) else [v]
            for c in vals:
                if isinstance(c, tuple) and len(c) == 3 and all(isinstance(x, int) and 0 <= x < 256 for x in c):
                    seen[c] = None
    for c in EXTRA:
        seen[c] = None
    return list(seen)


def test_the_palette_holds_every_colour_of_the_renderers_in_order():
    now = scanned()
    assert list(DESIGN_COLOURS) == now, "renderer/palette.py is out of date; DESIGN_COLOURS should be:\n" + repr(
        tuple(now))
