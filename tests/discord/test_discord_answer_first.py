"""Discord as it behaves (issue 24), through the real discord.py client and the fake: an interaction
is answered before any other REST call of ours, a dead token is no refusal (the move goes out
through the channel and computer players go on), and a scoring that falls back from an edit to a
post still carries its picture."""

from __future__ import annotations

import asyncio
import logging

import discord
import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.discord.components import ActionButton
from bot.discord.publishing import first
from bot.discord.publishing.deferring import InFlight
from bot.discord.publishing.posting import _Scoring
from bot.host.replies import Attachment
from tests.discord.test_discord_bots import Host, answer, live, usable
from tests.discord.test_discord_e2e import offered, press
from tests.fakediscord import FakeDiscord, InteractionNotAnswered


async def wait_until(predicate, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "condition not met"
        await asyncio.sleep(0.01)


async def test_a_click_answered_after_3_s_on_the_clock_is_published_through_the_channel(fd, tmp_path, caplog):
    """receiving-and-responding.mdx "Interaction Callback": after 3 s the token is invalidated
    (10062). The move is saved and public in the table's channel all the same, the computer player
    moves after it, nothing says "refused", and the lost token is logged once."""
    host = Host(fd, tmp_path / "dead.db")
    await host.start()
    try:
        caplog.set_level(logging.INFO)
        await fd.slash("alice", "join", {"game": "vikings"})
        await fd.slash("alice", "table addbot", {"level": "random"})
        answer(await fd.slash("alice", "start"))
        await host.bot.bots_idle()
        act = host.svc.act
        dead = 0
        for _attempt in range(4):  # alice's dead clicks until one hands the turn to the computer player
            msg = live(fd)
            assert f"<@{fd.users['alice'].id}>: " in msg.content, msg.content
            version = (await host.table()).record.version
            entered, release = asyncio.Event(), asyncio.Event()

            async def slow_act(*args, entered=entered, release=release, **kwargs):  # the clock passes 3 s meanwhile
                entered.set()
                await release.wait()
                return await act(*args, **kwargs)

            host.svc.act = slow_act  # type: ignore[method-assign]
            kind, cid, value = offered(msg)[0]
            click = asyncio.create_task(press(fd, "alice", kind, cid, value, msg))
            await wait_until(entered.is_set)
            await fd.advance(3.5)
            with pytest.raises(InteractionNotAnswered):  # Discord's client says the interaction failed
                await click
            host.svc.act = act  # type: ignore[method-assign]
            dead += 1
            release.set()
            await wait_until(lambda: not host.bot.cog.unanswered)
            await asyncio.sleep(0.3)
            await host.bot.bots_idle()
            assert fd.interactions[-1].callback is None  # the dead token was not used again
            assert (await host.table()).record.version > version  # alice's move is saved
            assert len(msg.history) >= 1 or live(fd).id != msg.id  # ... and public in the channel
            if any(a.seat == 1 for a in await host.svc.storage.actions(1)):
                break
        assert any(a.seat == 1 for a in await host.svc.storage.actions(1))  # the computer player moved after it
        said = [m.content for m in fd.messages(ephemeral=True)]
        assert not [t for t in said if "refused" in t or "went wrong" in t], said
        assert not host.bot.watch.halted(str(fd.channel.id))
        assert len([r for r in caplog.records if "token is gone" in r.getMessage()]) == dead  # once each
        assert fd.late_answers == []
    finally:
        await host.stop()


async def test_a_scoring_that_falls_back_from_a_failed_edit_posts_its_whole_picture(fd, tmp_path):
    """Issue 24: the scoring message reached seat by seat is edited; when Discord refuses the edit
    it is posted anew, with a fresh file: the picture's bytes, not an already-read stream."""
    host = Host(fd, tmp_path / "scoring.db")
    await host.start()
    try:
        await fd.slash("alice", "join", {"game": "vikings"})
        await fd.slash("bob", "join")
        await fd.slash("alice", "start")
        cog = host.bot.cog
        key = str(fd.channel.id)
        channel = host.bot.get_channel(fd.channel.id)
        first = await channel.send("Major scoring — alice: 3 VP")
        cog._scoring[key] = {"match": 1, "label": "major", "seats": {0}, "lines": ["Major scoring — alice: 3 VP"],
                             "message": first.id}
        png = (await host.table()).adapter.picture((await host.table()).game)
        reply = type("R", (), {"match_id": 1})()
        fd.fail_next("PATCH", rf"/messages/{first.id}$", 404, code=10008, message="Unknown Message")
        await cog.post_scorings(key, channel, reply, [
            _Scoring(["Major scoring — bob: 4 VP"], "major", {1}, Attachment(png, "scoring-1.png"))])
        posted = fd.last_message()
        assert posted.id != first.id and "bob: 4 VP" in posted.content
        assert posted.attachment("scoring-1.png").data == png  # the whole picture, not an empty file
    finally:
        await host.stop()


async def test_answer_first_another_tables_rest_call_waits_for_an_answer_on_the_wire():
    """An answer chosen (its interaction no longer waiting) but still on its way, e.g. an edit with
    the board's picture, reaches Discord before another table's REST call (``InFlight``: the
    20-table rush once saw one answer overtaken); the answering task itself never waits for itself."""
    flight = InFlight()
    order: list[str] = []
    answering = asyncio.Event()

    async def answer_slowly() -> None:
        async with flight.sending():
            answering.set()
            await flight.wait()  # its own answer: no deadlock
            await asyncio.sleep(0.05)  # the upload
            order.append("answer")

    async def other_table() -> None:
        await answering.wait()
        await flight.wait()
        order.append("other REST call")

    await asyncio.wait_for(asyncio.gather(answer_slowly(), other_table()), 5)
    assert order == ["answer", "other REST call"]
    assert flight.others() == []


async def test_no_rest_call_goes_before_an_autocompletes_choices(fd, tmp_path):
    """receiving-and-responding.mdx "Interaction Callback" (3 s, autocomplete included): while
    alice's autocomplete is being worked out, her click at the table is answered (its callback)
    but the click's other REST calls and the computer player's post after it wait for the
    autocomplete's choices (the bot reads every interaction as it arrives: ``Publisher.arrived``)."""
    host = Host(fd, tmp_path / "complete.db")
    await host.start()
    try:
        await fd.slash("alice", "join", {"game": "vikings"})
        await fd.slash("alice", "table addbot", {"level": "random"})
        answer(await fd.slash("alice", "start"))
        await host.bot.bots_idle()
        cog = host.bot.cog
        choices = cog.player_choices
        started, release = asyncio.Event(), asyncio.Event()

        async def slow_choices(interaction, current):  # e.g. a busy database
            started.set()
            await release.wait()
            return await choices(interaction, current)

        cog.player_choices = slow_choices  # type: ignore[method-assign]
        typing = asyncio.create_task(fd.autocomplete("alice", "board", focused="player", value=""))
        await wait_until(started.is_set)
        before, moved = len(fd.requests), len([a for a in await host.svc.storage.actions(1) if a.seat == 1])
        clicks = []
        for _ in range(4):  # alice's clicks, each answered by its callback, until one hands the turn over
            controls = [m for m in fd.messages() if usable(m)]
            if len(controls) != 1:  # the turn went on beyond alice's message (see the assertion below)
                break
            msg = controls[0]
            kind, cid, value = offered(msg)[0]
            clicks.append(asyncio.create_task(press(fd, "alice", kind, cid, value, msg)))
            await wait_until(lambda: fd.interactions[-1].answered)
            computer = [a for a in await host.svc.storage.actions(1) if a.seat == 1]
            if (await host.table()).game.acting_seats() != [0] or len(computer) > moved:
                break
            await asyncio.sleep(0.1)  # the click's handler ends (it cannot settle while alice types)
        else:
            raise AssertionError("alice never handed the turn over")
        await asyncio.sleep(0.3)  # the click's strip and the computer player's move would go out now
        assert [r for r in fd.requests[before:] if "/interactions/" not in r.path and "/webhooks/" not in r.path] == []
        release.set()
        assert [c["value"] for c in await typing] == (await host.table()).record.names
        for click in clicks:
            await click
        await host.bot.bots_idle()
        [typed] = [i for i in fd.interactions if i.type == 4]
        assert typed.calls_before_answer == [] and fd.late_answers == []
        assert len([a for a in await host.svc.storage.actions(1) if a.seat == 1]) > moved  # it moved, after
    finally:
        await host.stop()


def deferred_meanwhile(host, channel, monkeypatch) -> list[asyncio.Future]:
    """From now on, the next interaction's handler reads its table while another table posts in
    ``channel`` (answer first: that post defers the interaction privately), and every private defer
    takes 0.2 s to reach Discord: the handler's answer comes while the defer is on the wire.
    Returns the other table's post (a future, once started)."""
    on_the_wire, table, respond = asyncio.Event(), host.svc.table, AsyncWebhookAdapter.create_interaction_response
    other: list[asyncio.Future] = []

    async def slow_defer(self, *args, params, **kwargs):
        if (params.payload or {}).get("type") == 5:
            on_the_wire.set()
            await asyncio.sleep(0.2)
        return await respond(self, *args, params=params, **kwargs)

    async def table_then_other_work(key):
        if other:
            return await table(key)
        other.append(asyncio.ensure_future(channel.send("another table's move")))
        await on_the_wire.wait()
        return await table(key)

    monkeypatch.setattr(AsyncWebhookAdapter, "create_interaction_response", slow_defer)
    host.svc.table = table_then_other_work
    return other


async def answered_once(fd, r, other: list[asyncio.Future]) -> None:
    """``r`` got one initial response (no second one refused 40060) and nothing left loading."""
    await asyncio.wait_for(asyncio.gather(*other, return_exceptions=True), 5)
    await wait_until(lambda: not any(m.loading for m in r.messages))
    assert [q.status for q in fd.requests if q.path.startswith(f"/interactions/{r.id}/")] == [200]


async def test_a_refusal_waits_for_a_defer_another_task_has_on_the_wire(fd, tmp_path, monkeypatch):
    """A click is deferred privately by another task's REST call (answer first) while its own
    handler finds it stale: the refusal waits for that defer to reach Discord and follows it up,
    instead of racing it with a second initial response (40060, the user left "thinking…")."""
    host = Host(fd, tmp_path / "race.db")
    await host.start()
    try:
        channel = host.bot.get_channel(fd.channel.id)
        view = discord.ui.View(timeout=None)
        view.add_item(ActionButton(99, 1, "buy 1"))  # a button of a game this channel no longer has
        old = await channel.send("an old turn", view=view)
        other = deferred_meanwhile(host, channel, monkeypatch)
        r = await fd.click("alice", ActionButton(99, 1, "buy 1").custom_id, message=fd.message(old.id))
        await answered_once(fd, r, other)
        assert r.deferred and [m.content for m in r.ephemeral_messages] == [
            "This message belongs to a game that has ended or been replaced; it takes no more moves."]
    finally:
        await host.stop()


async def test_a_rest_call_waits_for_autocompletes_only_so_long(tmp_path, monkeypatch):
    """People typing (one autocomplete a keystroke) never hold the bot's other calls back for
    more than ``AUTOCOMPLETE_PATIENCE``: an autocomplete that takes its time is overtaken then."""
    monkeypatch.setattr(first, "AUTOCOMPLETE_PATIENCE", 0.3)
    async with FakeDiscord(strict_answer_order=False) as fd:
        host = Host(fd, tmp_path / "patience.db")
        await host.start()
        try:
            await fd.slash("alice", "join", {"game": "vikings"})
            started, release = asyncio.Event(), asyncio.Event()
            choices = host.bot.cog.player_choices

            async def slow_choices(interaction, current):
                started.set()
                await release.wait()
                return await choices(interaction, current)

            host.bot.cog.player_choices = slow_choices  # type: ignore[method-assign]
            typing = asyncio.create_task(fd.autocomplete("alice", "board", focused="player", value=""))
            await wait_until(started.is_set)
            posted = await asyncio.wait_for(host.bot.get_channel(fd.channel.id).send("another table's move"), 2)
            assert posted.content == "another table's move"  # went out although alice's choices are not ready
            release.set()
            assert [c["value"] for c in await typing] == ["alice"]
            [typed] = [i for i in fd.interactions if i.type == 4]
            assert [c.path for c in typed.calls_before_answer] == [f"/channels/{fd.channel.id}/messages"]
        finally:
            await host.stop()


def another_post_while_answering(host, channel, monkeypatch) -> list[asyncio.Future]:
    """Issue 29: the next initial response that is an answer (type 4 or 7, not a defer) is held
    on its way to Discord while another table posts in ``channel``, until that post has either
    deferred the interaction (answer first, for the others: the race, a second initial response)
    or waits for the held answer (the answer is in flight: nothing goes before it). No timing:
    the hold ends on whichever of the two happens. Returns the other table's post (a future)."""
    respond, cog = AsyncWebhookAdapter.create_interaction_response, host.bot.cog
    deferred, waits, other = asyncio.Event(), asyncio.Event(), []
    wait = cog.in_flight.wait

    async def held(self, *args, params, **kwargs):
        kind = (params.payload or {}).get("type")
        if kind == 5:
            deferred.set()
        elif kind in (4, 7) and not other:
            other.append(asyncio.ensure_future(channel.send("another table's move")))
            either = [asyncio.ensure_future(e.wait()) for e in (deferred, waits)]
            await asyncio.wait(either, timeout=10, return_when=asyncio.FIRST_COMPLETED)
            for e in either:
                e.cancel()
            assert deferred.is_set() or waits.is_set(), "the other table's post did neither"
        return await respond(self, *args, params=params, **kwargs)

    async def waiting_for_answers_in_flight():
        if cog.in_flight.others():
            waits.set()
        await wait()

    monkeypatch.setattr(AsyncWebhookAdapter, "create_interaction_response", held)
    cog.in_flight.wait = waiting_for_answers_in_flight
    return other


ANSWERS = {  # issue 29: every kind of handler's own initial response (answer first on every path)
    "a stale click's private answer": "stale",
    "/help": ("help", None),
    "a refused command": ("start", None),
    "a command's public answer": ("join", {"game": "vikings"}),
    "a private answer (/hand)": ("hand", None),
    "the thread's opening line (/start)": ("start", None),
}


@pytest.mark.parametrize("path", list(ANSWERS))
async def test_an_answer_on_the_wire_is_never_deferred_by_another_tasks_rest_call(fd, tmp_path, monkeypatch, path):
    """Issue 29 (a 40060 seen once in five hostile two-game runs): a handler's own initial answer
    is on the wire while another table's REST call answers first for the others. That call must
    neither defer the interaction (a second initial response: Discord refuses one of them 40060,
    and the player may be left with "thinking…") nor go before the answer: it waits for it."""
    host = Host(fd, tmp_path / "race.db")
    await host.start()
    try:
        channel = host.bot.get_channel(fd.channel.id)
        old = None
        if ANSWERS[path] == "stale":
            view = discord.ui.View(timeout=None)
            view.add_item(ActionButton(99, 1, "buy 1"))  # a button of a game this channel no longer has
            old = await channel.send("an old turn", view=view)
        if "opening" in path:  # the start with threads on: its answer is the line the thread opens from
            host.bot.threads = True
            await fd.slash("alice", "join", {"game": "vikings"})
            await fd.slash("bob", "join")
        other = another_post_while_answering(host, channel, monkeypatch)
        if old is not None:
            r = await fd.click("alice", ActionButton(99, 1, "buy 1").custom_id, message=fd.message(old.id))
        else:
            name, options = ANSWERS[path]
            r = await fd.slash("alice", name, options)
        [posted] = await asyncio.wait_for(asyncio.gather(*other), 5)
        assert [q.status for q in fd.requests if q.path.startswith(f"/interactions/{r.id}/")] == [200]
        assert fd.second_answers == []
        assert not r.deferred and not any(m.loading for m in r.messages) and r.messages
        answered = max(q.time for q in fd.requests if q.path.startswith(f"/interactions/{r.id}/"))
        assert answered < next(q.time for q in fd.requests if q.path == f"/channels/{fd.channel.id}/messages"
                                 and isinstance(q.json, dict) and q.json.get("content") == posted.content)
    finally:
        await host.stop()
