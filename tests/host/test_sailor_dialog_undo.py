"""The sailor dialog's plan is one decision for the host (issue 25, V-33 … V-35): one log entry,
taken back whole by one /undo, replayed to the same table."""

from __future__ import annotations

from tests.host_helpers import CH, live, open_service, play_first_legal, start_game
from tests.vikings_helpers import a_whole_plan


async def test_sailor_dialog_plan_is_one_logged_decision_undone_whole_V34(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "vikings", seed=3)
    game = await play_first_legal(svc, lambda g: g.phase == "sail")
    [seat] = game.acting_seats()
    assert [s for s in game.sail_queue if s != seat] and game.homeland(game.sail_queue[1]).can_sail()
    table = await svc.table(CH)
    user, before, version = table.record.seats[seat].user, game.to_json(), table.record.version
    trips = a_whole_plan(game, seat)
    plan = "sail plan " + " / ".join(" ".join(t) for t in trips) + " / end"
    r = await svc.act(CH, user, plan)
    assert r.ok and sum("sends out a sailor" in line for line in r.public) == len(trips), r
    table = await svc.table(CH)
    assert table.record.version == version + 1 and table.game.turn != seat  # the next player sails
    log = await store.actions(table.record.id)
    assert log[-1].action.startswith("sail plan ") and log[-1].action.endswith(" / end")
    assert (await svc.replay(table.record.id)).to_json() == table.game.to_json()  # replays the same
    u = await svc.undo(CH, user)
    assert (u.ok, u.code) == (True, "ok"), u
    assert (await live(svc)).to_json() == before  # every sailor of the plan back in the base at once
    await store.close()
