"""The sailor dialog through the fake Discord (issue 25, V-33 … V-35, V-44): at a major scoring the
sailing player presses "Plan all sailors" on the table's message, builds every sailor's trip with a
private dialog (a select of "kind → cell" per sailor, over their homeland picture with the free
cells labelled) and sends the whole sailing as one move; a plan the rules refuse, or an outdated
dialog, is refused privately and changes nothing."""

from __future__ import annotations

import pytest

from engine.vikings.actions import parse_action
from tests.discord.test_discord_answer_first import answered_once, deferred_meanwhile
from tests.discord.test_discord_e2e import Host, action_text, offered, open_thread, refused, user_of
from tests.fakediscord import FakeDiscord, Message
from tests.vikings_helpers import a_whole_plan


@pytest.fixture
async def host(fd, tmp_path):
    host = Host(fd, tmp_path / "meadhall.db", seed=5)
    await host.start()
    yield host
    await host.stop()


async def to_the_sailing(fd: FakeDiscord, host: Host, options: str | None = None) -> tuple[object, str, str]:
    """A 2-player table played by the service up to the move that starts a major scoring, which is
    made through Discord (so the sailor's turn message is posted): ``(thread, key, sailor's name)``."""
    await fd.slash("alice", "join", {"game": "vikings"})
    await fd.slash("bob", "join")
    if options:
        await fd.slash("bob", "start", {"options": options})
        [thread] = fd.threads_of("general")
    else:
        _r, thread, _first = await open_thread(fd, "bob")
    key = str(thread.id)
    for _ in range(500):
        table = await host.svc.table(key)
        game = table.game
        [seat] = game.acting_seats()
        if game.phase == "sail":
            return thread, key, user_of(fd, int(table.record.seats[seat].user))
        user = table.record.seats[seat].user
        action = str(game.legal_actions(seat)[0])
        if game.round < 2:  # round 1 by the service; round 2 through Discord, up to its sailing
            r = await host.svc.act(key, user, action)
            assert r.ok, r
        else:
            r = await fd.slash(user_of(fd, int(user)), "move", {"choice": action}, channel=thread)
            assert all(m.content == "Done." for m in r.ephemeral_messages), r.text
    raise AssertionError("no major scoring came")


def plan_button(fd: FakeDiscord, thread) -> tuple[Message, str]:
    for msg in reversed(fd.messages(thread)):
        ids = [c for c in msg.custom_ids if c.endswith(":b:trip plan")]
        if ids:
            return msg, ids[0]
    raise AssertionError("no 'Plan all sailors' button in the thread")


def control(msg: Message, op: str) -> str:
    [cid] = [c for c in msg.custom_ids if f":p{op}:" in c]
    return cid


def options_of(msg: Message, cid: str) -> list[tuple[str, str]]:
    return [(o["label"], o["value"]) for row in msg.components for c in row["components"]
            if c["custom_id"] == cid for o in c["options"]]


async def test_sailor_dialog_plans_every_sailor_and_sends_one_move_V34(fd, host):
    thread, key, sailor = await to_the_sailing(fd, host)
    table = await host.svc.table(key)
    game, version = table.game, table.record.version
    [seat] = game.acting_seats()
    trips = a_whole_plan(game, seat)
    msg, opener = plan_button(fd, thread)
    cell_by_cell = [action_text(*c) for c in offered(msg)]
    assert any(t.startswith("sail ") and t != "sail end" for t in cell_by_cell), cell_by_cell  # they remain

    await refused(await fd.click("carol", opener, message=msg), "not a player")
    r = await fd.click(sailor, opener, message=msg)
    [dialog] = r.ephemeral_messages  # the dialog is the sailor's alone
    assert dialog.visible_to == fd.users[sailor].id and r.public_messages == []
    assert "Your sailing (V-34)" in dialog.content and "No sailor planned yet" in dialog.content
    [png] = dialog.attachments  # their homeland, the free cells labelled
    assert png.is_png and png.size > 10_000
    for n, trip in enumerate(trips, 1):
        select = control(dialog, "t")
        choices = options_of(dialog, select)
        assert all("→" in label for label, _v in choices) and set(trip) <= {v for _l, v in choices}
        r = await fd.select(sailor, select, trip, message=dialog)
        assert r.public_messages == [] and dialog in r.edited  # the same private dialog, changed
        assert f"Sailor {n}: " in dialog.content and all(cell in dialog.content for cell in trip)
    assert (await host.svc.table(key)).record.version == version  # nothing is made before "Send"
    assert not [c for c in dialog.custom_ids if ":pt:" in c]  # no sailor left who could move one

    before = len(fd.messages(thread))
    r = await fd.click(sailor, control(dialog, "s"), message=dialog)
    assert dialog.content == "Done."
    table = await host.svc.table(key)
    assert table.record.version == version + 1  # one decision: one move, one undo step
    h = table.game.homeland(seat)
    assert all(h.has_viking(*cell) for trip in trips for cell in map(_cell, trip))
    public = [m for m in fd.messages(thread)[before - 1:] if "sends out a sailor" in m.content]
    assert public, [m.content for m in fd.messages(thread)[before - 1:]]
    said = public[-1].content
    assert said.count("sends out a sailor") == len(trips)
    assert all(f"sails to {cell}" in said for trip in trips for cell in trip)
    # the log holds the plan as one action, so undo and replays take it whole
    last = (await host.store.actions(table.record.id))[-1]
    sent = "sail plan " + " / ".join(" ".join(t) for t in trips) + " / end"
    assert last.action == str(parse_action(sent))  # its canonical text


def _cell(text: str) -> tuple[int, int]:
    from engine.vikings.data import parse_cell

    rc = parse_cell(text)
    assert rc is not None
    return rc


async def test_sailor_dialog_broken_plan_is_refused_privately_and_changes_nothing_V44(fd, host):
    thread, key, sailor = await to_the_sailing(fd, host, options="single-sailor")
    table = await host.svc.table(key)
    version, state = table.record.version, table.game.to_json()
    msg, opener = plan_button(fd, thread)
    r = await fd.click(sailor, opener, message=msg)
    [dialog] = r.ephemeral_messages
    assert "single-sailor (V-44)" in dialog.content
    select = control(dialog, "t")
    two = [v for _l, v in options_of(dialog, select)][:2]
    assert len(two) == 2
    await fd.select(sailor, select, two, message=dialog)
    assert "This plan will be refused" in dialog.content and "V-44" in dialog.content
    before = len(fd.messages(thread))
    r = await fd.click(sailor, control(dialog, "s"), message=dialog)
    text = await refused(r, "sailor 1", "V-44")
    assert "exactly one viking" in text
    table = await host.svc.table(key)
    assert table.record.version == version and table.game.to_json() == state  # nothing changed
    assert len(fd.messages(thread)) == before
    # remove the broken sailor and plan again: one viking a sailor is accepted
    await fd.click(sailor, control(dialog, "u"), message=dialog)
    assert "No sailor planned yet" in dialog.content
    await fd.select(sailor, control(dialog, "t"), two[:1], message=dialog)
    await fd.click(sailor, control(dialog, "x"), message=dialog)
    assert "cancelled" in dialog.content and dialog.components == []
    assert (await host.svc.table(key)).record.version == version


async def test_sailor_dialog_outdated_is_refused_and_survives_a_restart(fd, host):
    thread, key, sailor = await to_the_sailing(fd, host)
    msg, opener = plan_button(fd, thread)
    r = await fd.click(sailor, opener, message=msg)
    [dialog] = r.ephemeral_messages
    select = control(dialog, "t")
    first = options_of(dialog, select)[0][1]
    await host.restart()  # the dialog's state is in its custom ids: it goes on after a restart
    r = await fd.select(sailor, select, [first], message=dialog)
    assert "Sailor 1: " in dialog.content and first in dialog.content
    table = await host.svc.table(key)
    version = table.record.version
    # the table moves on (a viking sailed cell by cell): the dialog is outdated
    await fd.slash(sailor, "sail", {"choice": f"sail {first}"}, channel=thread)
    table = await host.svc.table(key)
    assert table.record.version == version + 1
    state = table.game.to_json()
    for cid in (control(dialog, "s"), control(dialog, "u")):
        await refused(await fd.click(sailor, cid, message=dialog), "The table has changed")
    table = await host.svc.table(key)
    assert table.record.version == version + 1 and table.game.to_json() == state


async def test_sailor_dialog_step_deferred_meanwhile_shows_in_its_answer_V34(fd, host, monkeypatch):
    """Answer first: another table's post defers a dialog step privately while it is handled; the
    changed dialog then shows in that answer (one initial response, nothing left "thinking…")."""
    thread, key, sailor = await to_the_sailing(fd, host)
    table = await host.svc.table(key)
    [seat] = table.game.acting_seats()
    trip = a_whole_plan(table.game, seat)[0]
    msg, opener = plan_button(fd, thread)
    [dialog] = (await fd.click(sailor, opener, message=msg)).ephemeral_messages
    other = deferred_meanwhile(host, host.bot.get_channel(thread.id), monkeypatch)
    r = await fd.select(sailor, control(dialog, "t"), trip, message=dialog)
    await answered_once(fd, r, other)
    [shown] = r.ephemeral_messages  # the "thinking…" answer, now the dialog with the first trip
    assert r.deferred and "Sailor 1: " in shown.content and all(cell in shown.content for cell in trip)
    assert control(shown, "s") and (await host.svc.table(key)).record.version == table.record.version


async def test_sailor_dialog_boat_toggle_sends_the_boats_sailor_V44_V49(fd, host):
    """Under single-sailor (V-44) a player holding the boat (V-49) is offered "Next sailor with the
    boat" in the dialog; pressed, the button becomes its undo, the next sailor planned takes the
    boat, and the sent plan is one move whose sailor used it: the boat leaves the game."""
    thread, key, sailor = await to_the_sailing(fd, host, options="single-sailor specials")
    table = await host.svc.table(key)
    [seat] = table.game.acting_seats()
    table.game.homelands[seat].specials.append("boat")  # the sailor bought the boat earlier (V-46)
    version = table.record.version
    msg, opener = plan_button(fd, thread)
    r = await fd.click(sailor, opener, message=msg)
    [dialog] = r.ephemeral_messages
    [boat] = [b for row in dialog.components for b in row["components"] if ":pb:" in b.get("custom_id", "")]
    assert boat["label"] == "Next sailor with the boat (V-49)"
    r = await fd.click(sailor, boat["custom_id"], message=dialog)
    assert r.public_messages == [] and dialog in r.edited
    [undo] = [b for row in dialog.components for b in row["components"] if ":pb:" in b.get("custom_id", "")]
    assert undo["label"] == "The next sailor takes the boat (V-49): undo"
    select = control(dialog, "t")
    first = options_of(dialog, select)[0][1]
    await fd.select(sailor, select, [first], message=dialog)
    assert "Sailor 1 with the boat: " in dialog.content and first in dialog.content
    assert (await host.svc.table(key)).record.version == version  # nothing is made before "Send"
    await fd.click(sailor, control(dialog, "s"), message=dialog)
    assert dialog.content == "Done."
    table = await host.svc.table(key)
    assert table.record.version == version + 1
    assert "boat" not in table.game.homelands[seat].specials  # it left the game with its sailor (V-49)
    last = (await host.store.actions(table.record.id))[-1]
    assert last.action.startswith("sail plan boat ") and first in last.action
