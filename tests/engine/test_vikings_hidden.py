"""V-42 hidden tiles: during the auction (V-41) and the removal (V-42) the round's 12 tiles are
still face down. Two games that differ only in the order of the face-down tiles give identical
views, images, texts, labels, refusals and computer-player choices until the removal.
"""

from __future__ import annotations

import json

import pytest

from bot.games.vikings import VikingsAdapter
from engine.core import EngineError, Rng
from engine.players import make_player
from engine.vikings import VikingsGame

AD = VikingsAdapter()
NAMES = ["Astrid", "Bjorn", "Cnut"]
PROBES = ["buy 0", "buy 11", "place N1", "lay F", "remove F", "remove B", "bid 1", "pass", "sail N1", "exchange 1"]


def twin(g: VikingsGame, seed: int) -> VikingsGame:
    """The same game with every still face-down tile in another order (stacks re-dealt)."""
    d = json.loads(json.dumps(g.to_json()))
    tiles = [t for s in d["stacks"] for t in s]
    Rng(seed).shuffle(tiles)
    sizes = [len(s) for s in d["stacks"]]
    out, i = [], 0
    for k in sizes:
        out.append(tiles[i : i + k])
        i += k
    d["stacks"] = out
    other = VikingsGame.from_json(d)
    assert other.stacks != g.stacks
    return other


def refusal(g: VikingsGame, seat: int, text: str) -> str:
    before = json.dumps(g.to_json(), sort_keys=True)
    try:
        copy = VikingsGame.from_json(g.to_json())
        copy.apply(seat, text)
        return "accepted"
    except EngineError as e:
        return f"{type(e).__name__}: {e}"
    finally:
        assert json.dumps(g.to_json(), sort_keys=True) == before


def public(g: VikingsGame, images: bool) -> dict:
    """Everything a player or a spectator can obtain from the engine and the host adapter."""
    seats = [None, *range(g.n)]
    out = {
        "views": [g.view(s) for s in seats],
        "texts": [AD.text(g, s) for s in seats],
        "acting": g.acting_seats(),
    }
    for seat in g.acting_seats():
        legal = g.legal_actions(seat)
        out[f"legal{seat}"] = [str(a) for a in legal]
        out[f"labels{seat}"] = [AD.describe_action(g, a) for a in legal]
        out[f"prompt{seat}"] = AD.prompt(g, seat)
        out[f"refusals{seat}"] = [refusal(g, seat, t) for t in PROBES]
        out[f"free{seat}"] = [str(a) for a in g.free_actions(seat)]
        for level in ("random", "heuristic"):
            out[f"{level}{seat}"] = str(make_player("vikings", level, seed=3).choose(g.view(seat), legal))
    if images:
        out["images"] = [AD.render(g, seat=s) for s in seats]
    return out


@pytest.mark.parametrize("options", [{"auction": True}, {"advanced": True}], ids=["auction", "advanced"])
def test_tiles_stay_face_down_until_the_removal_V42(options):
    g = VikingsGame.new(NAMES, seed=11, options=options, start_seat=0)
    chooser = Rng(5)
    rounds_checked = 0
    while not g.is_over and g.round <= 2:
        if g.phase == "bid":  # a new round: its tiles lie face down
            h = twin(g, seed=g.round)
            images = True
            while g.phase in ("bid", "remove"):
                assert g.view(None)["wheel"] == [None] * 12
                assert public(g, images) == public(h, images)
                images = False  # one image comparison per round keeps the test quick
                seat = g.acting_seats()[0]
                legal = g.legal_actions(seat)
                action = legal[chooser.randbelow(len(legal))]
                ev_g, ev_h = g.apply(seat, action), h.apply(seat, action)
                if g.phase == "lay":  # the removal laid the tiles out: now they may differ
                    assert [e.to_json() for e in ev_g] == [e.to_json() for e in ev_h]
                    assert AD.narrate(g, ev_g) == AD.narrate(h, ev_h)
                    assert g.view(None)["wheel"] != h.view(None)["wheel"]
                    break
                assert [e.to_json() for e in ev_g] == [e.to_json() for e in ev_h]
                assert AD.narrate(g, ev_g) == AD.narrate(h, ev_h)
            rounds_checked += 1
        seat = g.acting_seats()[0]
        legal = g.legal_actions(seat)
        g.apply(seat, legal[chooser.randbelow(len(legal))])
    assert rounds_checked == 2


def test_image_shows_no_tile_while_bidding_V42():
    g = VikingsGame.new(NAMES, seed=11, options={"auction": True}, start_seat=0)
    h = twin(g, seed=1)
    assert AD.render(g) == AD.render(h)
    assert "Offer (" not in AD.text(g)  # the text table lists no offer yet
    for seat in (0, 1, 2):
        g.apply(seat, "pass")
        h.apply(seat, "pass")
    assert AD.render(g, seat=0) == AD.render(h, seat=0)
    kind = g.drawn[0]
    g.apply(0, f"remove {kind}")
    h.apply(0, f"remove {kind}")
    assert "Offer (" in AD.text(g) and AD.text(g) != AD.text(h)  # now laid out, and they differ


def test_narration_says_when_the_tiles_are_laid_out_V42():
    g = VikingsGame.new(NAMES, seed=11, options={"auction": True}, start_seat=0)
    for seat in (0, 1, 2):
        g.apply(seat, "pass")
    kind = g.drawn[-1]
    lines = AD.narrate(g, g.apply(0, f"remove {kind}"))
    assert lines[-1].endswith("from the game and lays out the round's tiles.")


def test_a_game_saved_mid_auction_by_the_old_engine_still_hides_and_lays_out_once_V42():
    """Saved before this change, the tiles were already on the wheel during the auction."""
    g = VikingsGame.new(NAMES, seed=11, options={"auction": True}, start_seat=0)
    d = g.to_json()
    stack = d["stacks"].pop(0)
    islands = [t for t in stack if t[0] != "^"]
    ships = [t for t in stack if t[0] == "^"]
    d["wheel"] = [[t, ""] for t in islands + ships[::-1]]
    old = VikingsGame.from_json(d)
    assert old.view(None)["wheel"] == [None] * 12
    for seat in (0, 1, 2):
        old.apply(seat, "pass")
    old.apply(0, f"remove {old.drawn[0]}")
    assert len(old.stacks) == 5 and [c[0] for c in old.wheel] == islands + ships[::-1]
    assert old.tile_count() == 76


def hidden_twin(g: VikingsGame, seed: int) -> VikingsGame:
    """The same game with every hidden order changed: stacks, bag, special-tile stacks (V-1, V-6, V-45)."""
    h = twin(g, seed)
    r = Rng(seed + 1000)
    r.shuffle(h.bag)
    pool = [s for st in h.special_stacks for s in st]
    r.shuffle(pool)
    sizes = [len(st) for st in h.special_stacks]
    h.special_stacks = [pool[: sizes[0]], pool[sizes[0] :]]
    return h


def test_nothing_public_depends_on_hidden_order_at_any_moment_V1_V6_V42_V45():
    """At every 3rd decision of a whole advanced game: a twin differing only in hidden order gives
    the same views (every seat and spectator), texts, labels, prompts, refusals and bot choices."""
    g = VikingsGame.new(NAMES, seed=21, options={"advanced": True}, start_seat=1)
    chooser = Rng(9)
    step = 0
    while not g.is_over:
        if step % 3 == 0 and g.stacks:
            assert public(g, images=False) == public(hidden_twin(g, step), images=False), (step, g.phase)
        seat = g.acting_seats()[0]
        legal = g.legal_actions(seat)
        g.apply(seat, legal[chooser.randbelow(len(legal))])
        step += 1
    assert step > 100
