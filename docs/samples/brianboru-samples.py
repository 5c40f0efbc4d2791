"""Regenerate the Brian Boru sample images from seeded engine games.

    python docs/samples/brianboru-samples.py

Re-encoded with a 256-colour palette only to keep the repository small (the bot posts full colour).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.brianboru import BrianBoruGame  # noqa: E402
from engine.core import Rng  # noqa: E402
from renderer.brianboru import render_brianboru, render_hand  # noqa: E402

OUT = Path(__file__).resolve().parent


def save(name: str, png: bytes) -> None:
    img = Image.open(io.BytesIO(png)).convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    (OUT / name).write_bytes(buf.getvalue())
    print(f"{name}: {len(buf.getvalue()) // 1024} KB (bot's PNG {len(png) // 1024} KB)")


def main() -> None:
    game = BrianBoruGame.new(["Aoife", "Brian", "Cormac", "Deirdre"], seed=5)
    rng = Rng(5 * 31 + 7)
    while True:
        v = game.view(None)
        if v["round"] == v["rounds"] and v["phase"] == "tricks" and v["trick"]["number"] >= 3 and v["trick"]["cards"]:
            break
        seat = game.acting_seats()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    save("brianboru-late-4p.png", render_brianboru(game.view(None)))
    seat = game.acting_seats()[0]
    save("brianboru-hand.png", render_hand(game.view(seat), seat))


if __name__ == "__main__":
    main()
