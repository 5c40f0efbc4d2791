"""The sailor dialog at the offline table (issue 25, V-33 … V-35): the sail prompt names the text
form, ``/sail plan N2 S3 / G4 / end`` makes the whole sailing as one move, and a plan the rules
refuse is refused naming the sailor and the rule, changing nothing."""

from __future__ import annotations

import pytest

from bot.games.registry import default_registry
from bot.games.vikings import VikingsAdapter
from bot.host.service import HostService
from bot.offline.table import OfflineTable
from bot.storage import Storage
from tests.host_helpers import say
from tests.vikings_helpers import a_whole_plan


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "t.db")
    yield s
    await s.close()


async def to_the_sailing(storage, tmp_path, *options: str) -> tuple[OfflineTable, list[str]]:
    svc = HostService(storage, default_registry(), images=False, seed_source=lambda: 4)
    t = OfflineTable(svc, tmp_path / "out", channel="offline-sail")
    await say(t, "alice: /join", "bob: /join", "alice: /start vikings " + " ".join(options))
    out: list[str] = []
    for _ in range(400):
        table = await svc.table(t.channel)
        game = table.game
        if game.phase == "sail":
            return t, out
        [seat] = game.acting_seats()
        verb, _sp, rest = str(game.legal_actions(seat)[0]).partition(" ")
        word = next(w for w, v in VikingsAdapter.verbs.items() if v == verb)
        out = await say(t, f"{table.record.seats[seat].user}: /{word} {rest}".rstrip())
    raise AssertionError("no major scoring came")


async def test_sailor_dialog_text_form_sails_everyone_in_one_move_V34(storage, tmp_path):
    t, out = await to_the_sailing(storage, tmp_path)
    assert any("/sail plan N2 S3 / G4 / end" in line for line in out), out  # the prompt tells of it
    table = await t.service.table(t.channel)
    [seat] = table.game.acting_seats()
    user, version = table.record.seats[seat].user, table.record.version
    trips = a_whole_plan(table.game, seat)
    plan = "sail plan " + " / ".join(" ".join(trip) for trip in trips) + " / end"
    out = await say(t, f"{user}: /{plan}")
    said = "\n".join(out)
    assert said.count("sends out a sailor") == len(trips), said
    assert all(f"sails to {cell}" in said for trip in trips for cell in trip), said
    table = await t.service.table(t.channel)
    assert table.record.version == version + 1  # one move


async def test_sailor_dialog_text_form_refused_plan_changes_nothing_V44(storage, tmp_path):
    t, _out = await to_the_sailing(storage, tmp_path, "single-sailor")
    table = await t.service.table(t.channel)
    [seat] = table.game.acting_seats()
    user, version, state = table.record.seats[seat].user, table.record.version, table.game.to_json()
    h = table.game.homeland(seat)
    from engine.vikings.data import KINDS, SAILOR, cell_name

    cells = [cell_name(*c) for k in KINDS if k != SAILOR and h.base[k] > 0 for c in h.empty_tiles(k)][:2]
    assert len(cells) == 2
    out = await say(t, f"{user}: /sail plan {' '.join(cells)} / end")
    said = "\n".join(out)
    assert "sailor 1" in said and "V-44" in said and "exactly one viking" in said, said
    table = await t.service.table(t.channel)
    assert table.record.version == version and table.game.to_json() == state
    out = await say(t, f"{user}: /sail plan / end")
    assert any("name each sailor's cells" in line for line in out), out
