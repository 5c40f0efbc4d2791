"""After a game at the offline table (QA findings): /board does not overwrite the final scoring
picture, /recap shows the game again, and a computer player's /profile says it is not rated."""

from __future__ import annotations

import pytest

from bot.host.seats import add_bot
from bot.offline.table import OfflineTable
from tests.host_helpers import open_service, play_first_legal, say

CH = "offline"


def _ends_the_game(game) -> bool:
    seat = game.acting_seats()[0]
    copy = type(game).from_json(game.to_json())
    copy.apply(seat, game.legal_actions(seat)[0])
    return copy.is_over


@pytest.fixture
async def finished(tmp_path):
    """A Vikings game of Ann and a computer player, played to its end at the offline table (the
    last move typed there, pictures on)."""
    svc, store = await open_service(tmp_path / "r.db")
    t = OfflineTable(svc, tmp_path / "out", channel=CH)
    try:
        assert (await svc.join(CH, "ann", "Ann", game="vikings")).ok
        assert (await add_bot(svc, CH, "normal")).ok
        assert (await svc.start(CH, "ann", "vikings", [], seed=11, start_seat=0)).ok
        game = await play_first_legal(svc, _ends_the_game, channel=CH)
        svc.images = True
        seat = game.acting_seats()[0]
        table = await svc.table(CH)
        if table.record.seats[seat].user == "ann":
            out = await say(t, f"ann: {game.legal_actions(seat)[0]}")
        else:  # the computer's move ends it: any line of Ann's lets the computer players move
            out = await say(t, "ann: /status")
        assert any(line.startswith("Game over.") for line in out), out
        yield t, out
    finally:
        await store.close()


async def test_board_after_the_game_keeps_the_final_scoring_picture(finished, tmp_path):
    t, out = finished
    final = [line.removeprefix("image: ") for line in out if line.startswith("image: ")][-1]
    before = (tmp_path / "out" / final.rsplit("/", 1)[-1]).read_bytes()
    board = await say(t, "ann: /board")
    drawn = [line.removeprefix("image: ") for line in board if line.startswith("image: ")]
    assert len(drawn) == 1 and drawn[0] != final and drawn[0].endswith("-board.png"), (final, drawn)
    assert (tmp_path / "out" / final.rsplit("/", 1)[-1]).read_bytes() == before  # not overwritten


async def test_recap_at_the_offline_table_shows_the_last_finished_game(finished):
    t, _out = finished
    table = await t.service.storage.history(channel=CH)
    match = table[0].id
    out = await say(t, "ann: /recap")
    assert out[0].startswith(f"Vikings, game {match}: won by "), out
    assert any(line.startswith("image: ") and line.endswith("-recap.png") for line in out), out
    assert (await say(t, f"ann: /recap {match}"))[0] == out[0]


@pytest.mark.parametrize(("line", "said"), [
    ("ann: /recap 999", "There is no finished game 999."),
    ("ann: /recap twelve", "Write /recap, or /recap ID of a finished game."),
    ("ann: /recap 1 2", "Write /recap, or /recap ID of a finished game."),
])
async def test_recap_refusals_change_nothing(finished, line, said):
    t, _out = finished
    before = await t.service.storage.history(channel=CH)
    out = await say(t, line)
    assert out and out[0].endswith(said), out
    assert await t.service.storage.history(channel=CH) == before


async def test_recap_before_any_game_has_finished_here(tmp_path):
    svc, store = await open_service(tmp_path / "e.db")
    try:
        t = OfflineTable(svc, tmp_path / "out", channel=CH)
        out = await say(t, "ann: /join vikings", "ann: /recap")
        assert out[-1].endswith("No game has been finished in this channel yet."), out
    finally:
        await store.close()


async def test_a_computer_players_profile_shows_its_games_and_says_it_is_not_rated(finished):
    """QA: /profile Ragnar (a computer player who finished and won) said "has not finished a game
    here yet". Computer players carry fixed ratings and are never rated (D-ratings-1)."""
    t, _out = finished
    game = await t.service.replay((await t.service.storage.history(channel=CH))[0].id)
    won = 1 in game.winners()
    for who in ("Ragnar", "ragnar (computer, normal)"):
        out = await say(t, f"ann: /profile {who}")
        assert out[:2] == ["Profile of Ragnar (computer, normal)",
                           "Ragnar (computer, normal) is a computer player: computer players are not rated."], out
        assert out[2] == f"Vikings: 1 game, {int(won)} won"
        assert not any("rating" in line for line in out[3:]), out
        assert any(line.startswith("  game ") for line in out), out
    person = await say(t, "ann: /profile Ann")
    assert any(line.startswith("  rating ") for line in person) and "computer" not in " ".join(person)
    assert (await say(t, "ann: /profile Nobody"))[0].endswith("Nobody has not finished a game here yet.")



async def test_turn_time_in_history_and_profile_at_the_offline_table(tmp_path):
    """Issue 25 at the offline table: /history and /profile give each person's median and longest
    time per turn (the toy game, on a clock the test moves: Ann 1 minute and 3 minutes, Bob 2 hours)."""
    from bot.games import GameRegistry
    from bot.host.service import HostService
    from bot.storage import Storage
    from tests.host_helpers import Clock
    from tests.toygame import ToyAdapter

    clock = Clock()
    store = await Storage.open(tmp_path / "turns.db")
    try:
        svc = HostService(store, GameRegistry([ToyAdapter()]), clock=clock, images=False, seed_source=lambda: 1)
        t = OfflineTable(svc, tmp_path / "out", channel=CH)
        await say(t, "ann: /join toy", "bob: /join", "ann: /start pile=3 max=1")
        table = await svc.table(CH)
        first = table.record.seats[table.game.acting_seats()[0]].name
        second = "bob" if first == "ann" else "ann"
        for who, wait in [(first, 60), (second, 7200), (first, 180)]:
            clock.t += wait
            await say(t, f"{who}: /take 1")
        assert await svc.table(CH) is None  # over
        out = await say(t, "ann: /history")
        line = next(x for x in out if "time per turn" in x)
        assert (f"{first}: median 2 minutes, longest 3 minutes; "
                f"{second}: median 2 hours, longest 2 hours") in line, out
        out = await say(t, f"ann: /profile {second}")
        assert "  time per turn: median 2 hours, longest 2 hours (1 turn)" in out, out
    finally:
        await store.close()
