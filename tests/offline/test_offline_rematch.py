"""Issue 25 at the offline table: ``/rematch`` after the end plays the same game again at once
(every seat is at this keyboard), with the same players and options."""

from __future__ import annotations

from bot.games import GameRegistry
from bot.host.service import HostService
from bot.offline.table import OfflineTable
from bot.storage import Storage
from tests.toygame import ToyAdapter


async def say(t: OfflineTable, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += await t.handle(line)
    return out


async def play_out(t: OfflineTable) -> list[str]:
    out: list[str] = []
    while (table := await t.service.table("offline")) is not None:
        [seat] = table.game.acting_seats()
        out += await say(t, f"{table.record.seats[seat].user}: /take 1")
    return out


async def test_offline_rematch_plays_the_same_game_again_with_the_same_players_and_options(tmp_path):
    store = await Storage.open(tmp_path / "t.db")
    seeds = iter([11, 12, 13])
    svc = HostService(store, GameRegistry([ToyAdapter()]), images=False, seed_source=lambda: next(seeds))
    t = OfflineTable(svc, tmp_path / "out")
    try:
        out = await say(t, "/rematch")
        assert out == ["(only player1 sees) No game has been finished in this channel yet."]
        await say(t, "alice: /join toy", "bob: /join", "alice: /start pile=3 max=1 manual")
        out = await say(t, "alice: /rematch")  # not while the game runs
        assert out == ["(only alice sees) This channel has a table already: the rematch can start here once it "
                       "is finished or abandoned."]
        out = await play_out(t)
        assert any("takes the last stone" in line for line in out)
        assert out[-1] == "/rematch plays the same game again: the same players and options, a new deal."
        first = await store.last_match("offline")
        out = await say(t, "carol: /rematch")
        assert out == [f"(only carol sees) Only the people who played game {first.id} can ask for its rematch."]
        out = await say(t, "bob: /rematch")
        assert out[0].startswith(f"Rematch of game {first.id}: Take-away begins again (") and "alice, bob" in out[0]
        assert any(line.startswith("@") for line in out)  # whoever acts first is asked at once
        again = await store.last_match("offline")
        assert again.id != first.id and again.status == "active" and again.seed == 12
        assert (again.names, again.options) == (first.names, first.options)
        assert again.options["host"]["forced_moves"] is False and again.options["max"] == 1
        out = await say(t, "bob: /rematch")
        assert "has a table already" in out[0]
        await play_out(t)
        out = await say(t, "alice: /rematch")  # the rematch's rematch
        assert out[0].startswith(f"Rematch of game {again.id}:")
    finally:
        await store.close()
