"""Issue 31 at the offline table: ``/analysis`` writes the last game's analysis picture and prints its
lines; ``/analysis ID`` any finished game's; bad input is refused and writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

import bot.host.analysis as host_analysis
from bot.offline.table import OfflineTable
from tests.host_helpers import CH, open_service, say, start_game


@pytest.fixture(autouse=True)
def little_work(monkeypatch):
    monkeypatch.setattr(host_analysis, "REVIEW_OPTIONS", {"budget": 0.01, "wall_limit": None})


@pytest.fixture
async def finished(tmp_path):
    """An offline table whose 2-player Vikings game was played to its end (first legal moves)."""
    svc, store = await open_service(tmp_path / "offline.db", images=True)
    await start_game(svc, "vikings", seed=5)
    while (table := await svc.table(CH)) is not None:
        seat = table.game.acting_seats()[0]
        assert (await svc.act(CH, table.record.seats[seat].user, str(table.game.legal_actions(seat)[0]))).ok
    yield OfflineTable(svc, tmp_path / "out", channel=CH), []
    await store.close()


async def test_offline_analysis_of_the_last_game_and_of_a_game_by_id(finished, tmp_path):
    t, _out = finished
    match = (await t.service.storage.history(channel=CH))[0].id
    out = await say(t, "ann: /analysis")
    assert out[0].startswith(f"Analysis of game {match} (Vikings)"), out
    assert any(": accuracy " in line for line in out)
    [path] = [line.removeprefix("image: ") for line in out if line.startswith("image: ")]
    assert Path(path).name == f"meadhall-vikings-{match}-analysis.png"
    assert Image.open(path).size == (1120, 640)
    assert await say(t, f"ann: /analysis {match}") == out  # made once, given again
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert any("refused" in line or "no finished game" in line.lower() for line in await say(t, "ann: /analysis 999"))
    assert (await say(t, "ann: /analysis twelve")) == [
        "Write /analysis for the last game here, or /analysis ID for another finished game."]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == written  # nothing more written
