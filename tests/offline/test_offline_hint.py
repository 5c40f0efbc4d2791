"""``/hint`` at the offline table (issue 25): the player to act asks and alone sees the search's
advice; without the option ``hints`` it is refused, and a player whose turn it is not is told so."""

from __future__ import annotations

import pytest

from bot.games.registry import default_registry
from bot.host.service import HostService
from bot.offline.table import OfflineTable, only_sees
from bot.storage import Storage
from tests.host_helpers import say


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "t.db")
    yield s
    await s.close()


def offline(storage, tmp_path, channel: str) -> OfflineTable:
    svc = HostService(storage, default_registry(), images=False, seed_source=lambda: 4)
    return OfflineTable(svc, tmp_path / "out", channel=channel)


async def test_offline_hint_for_the_player_to_act(storage, tmp_path):
    t = offline(storage, tmp_path, "hints")
    out = await say(t, "alice: /join", "bob: /join", "alice: /start vikings hints")
    assert any("hints allowed (/hint)" in line for line in out), out
    table = await t.service.table(t.channel)
    seat = table.game.acting_seats()[0]
    user = table.record.seats[seat].user
    labels = [table.adapter.describe_action(table.game, a) for a in table.game.legal_actions(seat)]
    version = table.record.version
    out = await say(t, f"{user}: /hint")
    mark = only_sees(user) + " "
    assert out[0].startswith(mark + "Hint (only you see this): "), out
    assert out[0].removeprefix(mark + "Hint (only you see this): ") in labels
    assert any("VP over the best rival" in line for line in out) and any("Runner-up: " in line for line in out)
    assert all(line.startswith(mark) for line in out if line.strip()), out  # only the asker's lines
    assert (await t.service.table(t.channel)).record.version == version
    other = "bob" if user == "alice" else "alice"
    assert any("not your turn" in line for line in await say(t, f"{other}: /hint"))
    assert any("not a player" in line for line in await say(t, "zed: /hint"))


async def test_offline_hint_refused_without_the_option(storage, tmp_path):
    t = offline(storage, tmp_path, "plain")
    await say(t, "alice: /join", "bob: /join", "alice: /start vikings")
    out = await say(t, "/hint")  # a plain line speaks for the player to act
    assert any("not coached unless everyone agreed" in line for line in out), out
