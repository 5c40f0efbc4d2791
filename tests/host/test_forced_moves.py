"""A decision with exactly one legal choice is made for the player (issue 13), unless the table
was started ``manual``, the choice is optional, or making it would reveal hidden cards."""

from __future__ import annotations

import pytest

from bot.games.brianboru import PRIVATE_KINDS
from bot.games.registry import default_registry
from bot.host.service import HostService
from bot.storage import Storage
from engine.brianboru import BrianBoruGame
from engine.core import Rng
from engine.vikings import actions as A

CH = "forced"


@pytest.fixture
async def svc(tmp_path):
    storage = await Storage.open(tmp_path / "f.db")
    yield HostService(storage, default_registry(), images=False)
    await storage.close()


async def vikings(svc: HostService, *options: str):
    for user in ("ann", "bob"):
        assert (await svc.join(CH, user, user.title())).ok
    r = await svc.start(CH, "ann", "vikings", options, seed=11, start_seat=0)
    assert r.ok, r
    return r


async def buy_right_end_and_lay_start_tile(svc: HostService):
    """Ann buys a right island end as her first tile: V-24 asks the start tile first; once it lies
    in W1 the right end fits only W2 — a single legal choice."""
    table = await svc.table(CH)
    pos = next(p for p, combo in enumerate(table.game.view(0)["wheel"])
               if combo is not None and combo["tile"] == "R" and p > 0)
    assert (await svc.act(CH, "ann", f"buy {pos}")).ok
    assert [str(a) for a in table.game.legal_actions(0) if type(a) is A.Place] == []  # V-24: start tile first
    return await svc.act(CH, "ann", "start W1")


async def test_the_only_legal_cell_is_taken_for_the_player_and_narrated(svc):
    await vikings(svc)
    table = await svc.table(CH)
    r = await buy_right_end_and_lay_start_tile(svc)
    assert r.ok, r
    assert "Ann had one choice, made for them: W2." in r.public
    assert any(line.startswith("Ann places the tile at W2") for line in r.public)
    assert r.version == 3  # buy, start tile, and the forced placement: three logged actions
    assert [p.user for p in r.prompts] == ["bob"] and r.mentions == ["bob"]
    # the log holds the forced move like any other: a replay reaches the same table
    assert (await svc.replay(table.record.id)).to_json() == table.game.to_json()


async def test_a_manual_table_asks_every_decision(svc):
    r = await vikings(svc, "manual")
    assert "every decision asked, even with one choice" in r.public[0]
    table = await svc.table(CH)
    r = await buy_right_end_and_lay_start_tile(svc)
    assert r.ok and not any("made for them" in line for line in r.public)
    assert [p.user for p in r.prompts] == ["ann"]
    assert [str(a) for a in table.game.legal_actions(0)] == ["place W2"]
    assert "manual" not in str(table.game.to_json()["options"])  # the engine never sees host options
    status = await svc.status(CH)
    assert any("every decision asked" in line for line in status.public)


async def test_manual_and_game_options_mix_and_unknown_words_are_still_refused(svc):
    for user in ("ann", "bob"):
        await svc.join(CH, user, user.title())
    r = await svc.start(CH, "ann", "vikings", ("manual", "frobnicate"), seed=1)
    assert not r.ok and r.code == "bad_options" and "frobnicate" in r.private[0]
    r = await svc.start(CH, "ann", "vikings", ("advanced", "manual"), seed=1)
    assert r.ok and "auction" in r.public[0] and "every decision asked" in r.public[0]


def test_brian_boru_never_plays_a_card_for_anyone(monkeypatch):
    """A hand with one playable card is still asked: playing it at once would tell everybody.
    Other decisions with one legal choice are made; in random games the adapter's answer is
    always either nothing or the single legal action."""
    adapter = default_registry()["brian-boru"]
    rng = Rng(5)
    kinds_seen: set[str] = set()
    for seed in range(3):
        game = BrianBoruGame.new(["a", "b", "c"], seed=seed)
        while not game.is_over:
            seats = game.acting_seats()
            for seat in seats:
                legal = game.legal_actions(seat)
                forced = adapter.forced_action(game, seat)
                kind = game.s["pending"]["kind"]
                assert forced == (legal[0] if len(legal) == 1 and kind not in PRIVATE_KINDS else None)
                if kind in PRIVATE_KINDS:
                    # the same decision cut down to one legal card is still the player's to make
                    only = legal[:1]
                    monkeypatch.setattr(game, "legal_actions", lambda s, only=only: only)
                    assert adapter.forced_action(game, seat) is None
                    monkeypatch.undo()
                    kinds_seen.add(kind)
                elif kind in ("town", "expand"):
                    only = legal[:1]
                    monkeypatch.setattr(game, "legal_actions", lambda s, only=only: only)
                    assert adapter.forced_action(game, seat) == only[0]
                    monkeypatch.undo()
                    kinds_seen.add(kind)
            seat = seats[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randbelow(len(legal))])
    assert kinds_seen >= {"keep", "lead", "play", "town"}
