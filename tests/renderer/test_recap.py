"""Issue 25: the animated recap — which positions are frames (Vikings: each change of the player to
act, V-32 … V-38's scorings held longer; Brian Boru: one frame per trick, B-17 … B-21), the
durations, and the 8 MB cap."""

from __future__ import annotations

import io
import random
from functools import cache

import pytest
from PIL import Image

from bot.games.registry import default_registry
from bot.games.replay import make_recap, positions
from engine.players.arena import logged_game
from renderer.common import TextLog, recording
from renderer.recap import DURATIONS, MIN_W, Frame, NoFrames, encode_recap

REGISTRY = default_registry()


@cache
def played(game_id: str, players: int, seed: int = 5) -> tuple[tuple, tuple[tuple[int, str], ...]]:
    """A whole game of heuristic computer players: its setup and its moves."""
    names = [f"P{i}" for i in range(players)]
    return (names, seed, None, None), tuple(logged_game(game_id, names, seed))


def frames_of(game_id: str, players: int) -> list[tuple[Frame, object]]:
    """(frame, the position's events and acting seats) for each frame the adapter draws."""
    adapter = REGISTRY[game_id]
    setup, moves = played(game_id, players)
    out = []
    for pos in positions(adapter.game_cls, setup, list(moves)):
        frame = adapter.recap_frame(pos)
        facts = (tuple(pos.game.acting_seats()), pos.acting_before, [e.kind for e in pos.events], pos.seat)
        if frame is not None:
            out.append((frame, facts))
    return out


def test_animated_vikings_recap_has_a_frame_per_change_of_the_player_to_act_and_per_scoring_V32_V38():
    adapter = REGISTRY["vikings"]
    setup, moves = played("vikings", 2)
    frames = frames_of("vikings", 2)
    kinds = [f.kind for f, _facts in frames]
    assert kinds[0] == "start" and kinds[-1] == "end" and kinds.count("start") == kinds.count("end") == 1
    # small scorings after rounds 1, 3, 5, major ones after 2 and 4; after round 6 the major and the
    # final scoring come in one move: the end
    assert kinds.count("scoring") == 5
    # a turn (a buy and its placement, V-13 … V-27) is one frame: no move frame without a change of
    # the player to act, and every change of the player to act is a frame
    changes = 0
    for pos in positions(adapter.game_cls, setup, list(moves)):
        changes += not pos.start and tuple(pos.game.acting_seats()) != pos.acting_before
    for frame, (acting, before, _kinds, _seat) in frames:
        if frame.kind == "move":
            assert acting != before
    assert kinds.count("move") + kinds.count("scoring") + kinds.count("end") >= changes - 5
    assert kinds.count("move") <= changes < len(moves)
    assert all(f.actor for f, _ in frames[1:]) and all(f.where.startswith("Round ") for f, _ in frames)


def test_a_vikings_recap_move_frame_shows_the_homeland_of_the_player_who_just_moved():
    """Each frame shows its move: after P0's turn the chat's picture showed the next player's
    homeland, the recap's frame shows P0's (with the headline still naming who acts next)."""
    adapter = REGISTRY["vikings"]
    setup, moves = played("vikings", 2)
    checked = 0
    for pos in positions(adapter.game_cls, setup, list(moves)):
        log = TextLog()
        with recording(log):
            frame = adapter.recap_frame(pos)
        if frame is None or frame.kind != "move" or pos.seat is None:
            continue
        view = pos.game.view(None)
        if view.get("pending"):
            continue
        mover, after = view["players"][pos.seat]["name"], view["players"][view["active"]]["name"]
        homelands = [t.text for t in log.texts if t.text.endswith("'s homeland")]
        assert homelands == [f"{mover}'s homeland"], (homelands, mover, after)
        checked += 1
    assert checked > 20


def test_animated_brianboru_recap_has_one_frame_per_trick_shown_whole_B17_B21():
    setup, moves = played("brian-boru", 3)
    frames = frames_of("brian-boru", 3)
    adapter = REGISTRY["brian-boru"]
    tricks = sum(kinds.count("trick_won") for kinds in
                 ([e.kind for e in p.events] for p in positions(adapter.game_cls, setup, list(moves))))
    trick_frames = [f for f, _ in frames if ", trick " in f.where]
    assert len(trick_frames) == tricks > 0
    rounds = adapter.game_cls.new(setup[0], seed=setup[1]).view(None)["rounds"]
    assert [f.kind for f, _ in frames].count("scoring") >= rounds - 1  # each upkeep (B-25 … B-32), held longer
    assert frames[-1][0].kind == "end"
    assert len(frames) < len(moves) / 3  # a trick is one frame, not one per card


def test_animated_recap_file_holds_every_frame_with_scorings_held_longer():
    setup, moves = played("vikings", 2)
    recap = make_recap(REGISTRY["vikings"], setup, list(moves))
    assert recap.filename.endswith(".webp") and len(recap.data) <= 8 * 1024 * 1024
    img = Image.open(io.BytesIO(recap.data))
    assert img.format == "WEBP" and img.is_animated and img.n_frames == recap.frames == recap.positions > 40
    shown = []
    for i in range(img.n_frames):
        img.seek(i)
        img.load()  # a WebP frame's duration is read with its pixels
        shown.append(img.info["duration"])
    assert shown == recap.durations
    assert DURATIONS["scoring"] > DURATIONS["move"] and shown.count(DURATIONS["scoring"]) == 5
    assert shown[-1] == DURATIONS["end"] == max(shown)
    # readable inline: the frame has the shape of Discord's inline box (about 550 x 350)
    w, h = img.size
    assert 1.45 <= w / h <= 1.65 and w >= MIN_W


def _noise(seed: int) -> Image.Image:
    rng = random.Random(seed)
    return Image.frombytes("RGB", (1120, 640), rng.randbytes(1120 * 640 * 3))


def test_animated_recap_over_the_size_cap_gets_smaller_then_drops_move_frames():
    kinds = ["start", *["move"] * 8, "scoring", *["move"] * 8, "end"]
    frames = [Frame(_noise(i), "Round 1", f"P{i % 3}", "did something", kind=k) for i, k in enumerate(kinds)]
    whole = encode_recap(frames)
    assert whole.frames == len(frames) and whole.size[0] == 800
    cap = len(whole.data) // 3
    small = encode_recap(frames, max_bytes=cap)
    assert len(small.data) <= cap and small.size[0] == MIN_W and small.frames < len(frames)
    assert small.durations.count(DURATIONS["scoring"]) == 1 and small.durations[0] == DURATIONS["start"]
    assert small.durations[-1] == DURATIONS["end"]  # the start, scorings and the end are never dropped
    with pytest.raises(ValueError, match="does not fit"):
        encode_recap(frames, max_bytes=1000)
    with pytest.raises(NoFrames):
        encode_recap([])


def test_animated_recap_gif_is_an_animated_gif_with_the_same_durations():
    kinds = ["start", "move", "scoring", "end"]
    frames = [Frame(_noise(i), "Round 1", "P0", kind=k) for i, k in enumerate(kinds)]
    recap = encode_recap(frames, fmt="gif")
    img = Image.open(io.BytesIO(recap.data))
    assert img.format == "GIF" and img.n_frames == 4 and recap.filename.endswith(".gif")
    assert recap.durations == [DURATIONS[k] for k in kinds]
