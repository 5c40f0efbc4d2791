"""Regenerate the chat-picture samples of the README (issue 14) from seeded engine games.

    python docs/samples/make_pictures.py            # all of them
    python docs/samples/make_pictures.py analysis   # only the game analyses (issue 31)

Each picture is what the host posts (the adapters' ``picture``), written as the bot's own PNG; the
``-inline`` files are the same pictures scaled into Discord's inline box (550 x 350), to check that
whose turn, what is offered, what it costs and the scores can be read there.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.games.brianboru import BrianBoruAdapter  # noqa: E402
from bot.games.replay import replay  # noqa: E402
from bot.games.vikings import VikingsAdapter, _finished_scoring, scored_round  # noqa: E402
from engine.brianboru import BrianBoruGame  # noqa: E402
from engine.core import Rng  # noqa: E402
from engine.vikings import VikingsGame  # noqa: E402
from renderer.brianboru import render_hand  # noqa: E402
from renderer.scoring import render_vikings_scoring  # noqa: E402

OUT = Path(__file__).resolve().parent
NAMES = ["Astrid", "Bjorn", "Sigrid", "Ulf"]
BB_NAMES = ["Aoife", "Brian", "Cormac", "Deirdre", "Eithne"]
VIK, BB = VikingsAdapter(), BrianBoruAdapter()


def save(name: str, png: bytes, inline: bool = False) -> None:
    (OUT / name).write_bytes(png)
    print(f"{name}: {len(png) // 1024} KB")
    if inline:
        img = Image.open(io.BytesIO(png)).convert("RGB")
        img.thumbnail((550, 350), Image.Resampling.LANCZOS)
        small = name.replace(".png", "-inline.png")
        img.save(OUT / small, optimize=True)
        print(f"{small}: {img.width}x{img.height}")


def vikings_until(players: int, seed: int, stop, options=None):
    """Play a seeded random game until ``stop(game, events)``; returns the game, the events and the log."""
    game = VikingsGame.new(NAMES[:players], seed=seed, options=options)
    chooser = Rng(seed * 7919 + 17)
    moves: list[tuple[int, str]] = []
    events: list = []
    while not stop(game, events):
        seat = game.acting_seats()[0]
        legal = game.legal_actions(seat)
        # buy what one can pay in gold: random players would trade all their VP away (V-16)
        gold = game.view(None)["players"][seat]["gold"]
        cheap = [a for a in legal if str(a).split()[0] != "buy" or int(str(a).split()[1]) <= gold]
        action = chooser.choice(cheap or legal)
        moves.append((seat, str(action)))
        events = game.apply(seat, action)
    return game, events, moves


def main() -> None:
    # the two the issue asks to read inline: a late 4-player Vikings turn and a Brian Boru trick
    game, events, _ = vikings_until(
        4, 7, lambda g, e: g.round == 6 and g.phase == "buy" and sum(1 for c in g.view(None)["wheel"] if c) <= 6)
    save("vikings-turn-late-4p.png", VIK.picture(game, events=[]), inline=True)
    game, events, _ = vikings_until(2, 3, lambda g, e: g.round == 2 and g.phase == "place")
    save("vikings-turn-place-2p.png", VIK.picture(game, events=[]), inline=True)
    adv = {"auction": True, "single_sailor": True, "specials": True}
    game, events, _ = vikings_until(3, 5, lambda g, e: g.round == 3 and g.phase in ("bid", "remove", "lay"), adv)
    save("vikings-turn-auction-3p.png", VIK.picture(game, events=[]))
    save("vikings-board-4p.png", VIK.picture(
        vikings_until(4, 7, lambda g, e: g.round == 6 and g.phase == "buy")[0], board=True))
    # scorings: a small one (3 players), a major one gathered over the sailing moves, the final one
    for players, kind, seed in ((3, "small", 4), (4, "major", 7), (4, "final", 7)):
        game, events, moves = vikings_until(  # the last scoring of its kind: more has been built by then
            players, seed, lambda g, e, k=kind: (d := _finished_scoring(g, e)) is not None and d[0]["scoring"] == k
            and scored_round(g, e) >= 4)
        rep = replay(VikingsGame, (NAMES[:players], seed, None, None), moves)
        scores = [s for s in rep.last_scores if s["scoring"] == kind]
        png = render_vikings_scoring(game.view(None), scores, history=rep.history if kind == "final" else None,
                                     after_round=scored_round(game, events))
        save(f"vikings-scoring-{kind}-{players}p.png", png, inline=kind == "final")
    # Brian Boru: a trick in progress, the final scoring, a private hand
    for players in (4, 5):
        game = BrianBoruGame.new(BB_NAMES[:players], seed=10 + players)
        rng = Rng(players * 101)
        while True:
            v = game.view(None)
            if v["round"] == 2 and v["phase"] == "tricks" and len(v["trick"]["cards"]) == players - 1:
                break
            seat = game.acting_seats()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        save(f"brianboru-turn-trick-{players}p.png", BB.picture(game), inline=players == 4)
        if players == 4:
            seat = game.acting_seats()[0]
            save("brianboru-hand-4p.png", render_hand(game.view(seat), seat), inline=True)
    game = BrianBoruGame.new(BB_NAMES, seed=5)
    rng = Rng(5)
    moves = []
    events = []
    while not game.is_over:
        seat = game.acting_seats()[0]
        action = rng.choice(game.legal_actions(seat))
        moves.append((seat, str(action)))
        events = game.apply(seat, action)
    save("brianboru-final-5p.png", BB.picture(game, events=events, replay=((BB_NAMES, 5, None, None), moves)),
         inline=True)


def analysis_samples() -> None:
    """Issue 31: the analysis of a 4-player game of each game. Seats 0-2 are people (played by the
    ``easy``, ``normal`` and ``random`` levels, so the review has mistakes to find), seat 3 the
    ``hard`` computer player; the review at its own fixed work (about 20 s a game)."""
    from engine.players import make_player
    from engine.players.review import review_game
    from renderer.analysis import render_analysis

    for game_id, cls, names, title in (("vikings", VikingsGame, NAMES, "Vikings, game 12"),
                                       ("brian-boru", BrianBoruGame, BB_NAMES[:4], "Brian Boru, game 7")):
        game = cls.new(names, seed=31)
        players = [make_player(game_id, level, 31 + s) for s, level in enumerate(("easy", "normal", "random"))]
        players.append(make_player(game_id, "hard", 34, budget=0.2, wall_limit=None))
        moves = []
        while not game.is_over:
            seat = game.acting_seats()[0]
            action = players[seat].choose(game.view(seat), game.legal_actions(seat))
            moves.append((seat, str(action)))
            game.apply(seat, action)
        review = review_game(game_id, cls.new(names, seed=31), moves, [0, 1, 2])
        save(f"{game_id.replace('-', '')}-analysis-4p.png", render_analysis(review, title=title), inline=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["analysis"]:
        analysis_samples()
    else:
        main()
        analysis_samples()
