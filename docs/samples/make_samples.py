"""Regenerate the sample table images of the README from seeded engine games.

    python docs/samples/make_samples.py

The images are what ``renderer.vikings.render_vikings`` draws, re-encoded with a 256-colour
palette only to keep the repository small (the bot posts the full-colour PNG).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.core import Rng  # noqa: E402
from engine.vikings import VikingsGame  # noqa: E402
from renderer.vikings import highlights_from_actions, render_vikings  # noqa: E402

OUT = Path(__file__).resolve().parent
NAMES = ["Astrid", "Bjorn", "Sigrid", "Ulf"]


def play_until(players: int, seed: int, stop, options=None):
    game = VikingsGame.new(NAMES[:players], seed=seed, options=options)
    chooser = Rng(seed * 7919 + 17)
    while True:
        seats = game.acting_seats()
        seat = seats[0] if seats else None
        view = game.view(seat)
        if stop(view):
            return game, seat, view
        game.apply(seat, chooser.choice(game.legal_actions(seat)))


def save(name: str, png: bytes) -> None:
    img = Image.open(io.BytesIO(png)).convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    (OUT / name).write_bytes(buf.getvalue())
    print(f"{name}: {len(buf.getvalue()) // 1024} KB (bot's PNG {len(png) // 1024} KB)")


def main() -> None:
    # 2 players, round 2, a tile to place: legal cells in the two highlight colours
    game, seat, view = play_until(
        2, 3, lambda v: v["round"] == 2 and v["phase"] == "place" and v["pending"]["tile"][0] != "^")
    hl = highlights_from_actions(str(a) for a in game.legal_actions(seat))
    save("vikings-place-2p.png", render_vikings(view, highlights=hl, focus=seat))
    # 4 players late in round 6, the seat to act in focus
    game, seat, view = play_until(
        4, 7, lambda v: v["round"] == 6 and v["phase"] == "buy" and sum(1 for c in v["wheel"] if c) <= 4)
    save("vikings-late-4p.png", render_vikings(view, focus=seat))
    # progress variant, 3 players: the auction for the start player and the special tiles
    adv = {"auction": True, "single_sailor": True, "specials": True}
    game, seat, view = play_until(3, 5, lambda v: v["round"] == 3 and v["phase"] == "lay", adv)
    save("vikings-auction-3p.png", render_vikings(view))
    # the end: final scoring lines and the winner
    game, seat, view = play_until(3, 9, lambda v: v["phase"] == "over")
    save("vikings-final-3p.png", render_vikings(view))


if __name__ == "__main__":
    main()
