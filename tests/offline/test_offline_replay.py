"""Issue 25 at the offline table: ``replay ID [STEP]`` prints a finished game's position as text,
with what was hidden then, and writes its picture; an unfinished game and bad input are refused."""

from __future__ import annotations

from bot.offline.table import OfflineTable
from tests.host_helpers import open_service, say, start_game

CH = "offline"


async def _play_out(svc) -> None:
    while (table := await svc.table(CH)) is not None:
        seat = table.game.acting_seats()[0]
        assert (await svc.act(CH, table.record.seats[seat].user, str(table.game.legal_actions(seat)[0]))).ok


async def test_offline_replay_prints_a_position_as_text_with_its_picture(tmp_path):
    svc, store = await open_service(tmp_path / "r.db")
    try:
        t = OfflineTable(svc, tmp_path / "out", channel=CH)
        await start_game(svc, "brian-boru", seed=5, channel=CH)
        await _play_out(svc)
        svc.images = True
        out = await say(t, "ann: /replay 1 30")
        assert out[0] == "Replay of game 1 (Brian Boru)." and out[1].startswith("Step 30 of "), out
        assert any(line.startswith("Brian Boru — round 1 of 3, tricks.") for line in out), out  # the table as text
        assert any(line.startswith("Hand of Ann: ") for line in out)  # B-14: shown once the game is over
        assert not any("(only" in line for line in out)  # the whole table sees it
        [image] = [line.removeprefix("image: ") for line in out if line.startswith("image: ")]
        assert image.endswith("replay-brian-boru-1-0030.png")
        assert (tmp_path / "out" / "replay-brian-boru-1-0030.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        first = await say(t, "ann: /replay 1")  # no step: the set-up
        assert first[1].startswith("Step 0 of ") and "the set-up, before the first move" in first[1]
        # refusals, to the asker
        usage = "(only ann sees) Write /replay ID or /replay ID STEP (a finished game of this server)."
        assert await say(t, "ann: /replay") == await say(t, "ann: /replay one") == [usage]
        assert await say(t, "ann: /replay 1 2 3") == await say(t, "ann: /replay 1 -2") == [usage]
        steps = len(await store.actions(1))
        assert await say(t, f"ann: /replay 1 {steps + 1}") == [
            f"(only ann sees) Game 1 has steps 0 to {steps}; there is no step {steps + 1}."]
        assert await say(t, "ann: /replay 7") == ["(only ann sees) There is no game 7 of this server to replay."]
        await start_game(svc, "vikings", seed=5, channel=CH)
        assert await say(t, "ann: /replay 2 0") == [
            "(only ann sees) Game 2 is not finished: only a finished game can be replayed, since a replay shows "
            "everything that was hidden."]
    finally:
        await store.close()
