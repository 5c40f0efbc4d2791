"""Issue 25 through the fake Discord: the Rematch button on a finished game's result, pressed by
people as they would — votes said calmly, refusals privately, a new thread with the same seats
and options once everybody asked, votes that survive a restart."""

from __future__ import annotations

import pytest

from bot.discord.publishing.recap import thread_closed
from bot.games import GameRegistry
from tests.discord.test_discord_e2e import Host, refused, usable
from tests.fakediscord import FakeDiscord, Message
from tests.toygame import ToyAdapter, ToyGame

REMATCH = "mh:1:rematch"


def first_to_act(players: int, seat: int, pile: int) -> int:
    """A seed whose toy game of ``pile`` stones starts with ``seat`` (drawn from the seed)."""
    return next(s for s in range(100)
                if ToyGame.new([f"p{i}" for i in range(players)], seed=s, options={"pile": pile}).turn == seat)


class Toy(Host):
    """The e2e tests' bot over a service over one database file, with the toy game only."""

    def __init__(self, fd: FakeDiscord, path, *, seed: int, threads: bool = True) -> None:
        super().__init__(fd, path, seed=seed, registry=GameRegistry([ToyAdapter()]))
        self.config_kw = {"threads": threads}
        self.bot_kw = {"bot_pause": 0}

    async def play_out(self, key: str, where) -> None:
        """Everybody takes one stone in turn until the game ends."""
        while (table := await self.svc.table(key)) is not None:
            [seat] = table.game.acting_seats()
            user = next(n for n, u in self.fd.users.items() if str(u.id) == table.record.seats[seat].user)
            r = await self.fd.slash(user, "move", {"choice": "take 1"}, channel=where)
            assert not r.ephemeral, r.text


@pytest.fixture
async def toy(fd, tmp_path):
    host = Toy(fd, tmp_path / "rematch.db", seed=first_to_act(3, 0, pile=2))
    await host.start()
    yield host
    await host.stop()


def public_answer(r) -> Message:
    """A press said publicly and calmly: the answer is one message, pinging nobody."""
    [msg] = r.messages
    assert msg.public and msg.pinged == [] and r.ephemeral_messages == [], r.text
    return msg


async def test_rematch_everybody_presses_and_a_new_thread_starts_with_the_same_seats_and_options(fd, toy):
    await fd.slash("alice", "join", {"game": "toy"})
    await fd.slash("bob", "join")
    await fd.slash("carol", "join")
    await fd.slash("alice", "start", {"options": "pile=4 max=1 manual"})
    [thread] = fd.threads_of("general")
    await toy.play_out(str(thread.id), thread)
    await thread_closed(str(thread.id))  # the recap posted, then the thread archived (issue 25)
    [final] = [m for m in fd.messages(thread) if "takes the last stone" in m.content]
    posted = (final.history or [final.snapshot()])[0]  # as the result was first posted: the Rematch button
    assert [c.get("custom_id") for row in posted["components"] for c in row["components"]] == [REMATCH]
    [line] = [m for m in fd.messages(fd.channel) if REMATCH in m.custom_ids]  # the result line in the channel
    assert f"<#{thread.id}>" in line.content and not [m for m in fd.messages(thread) if usable(m)]

    # the finished thread is archived after the result (issue 25): nobody can press there any more,
    # and the result line in the channel carries the same button
    assert fd.threads[thread.id].archived
    # the thread's result no longer offers a button nobody could press: it links to the line
    assert final.custom_ids == []
    [[link]] = [row["components"] for row in final.components]
    assert (link["style"], link["label"]) == (5, "Rematch: on the result line in the channel")
    assert link["url"] == f"https://discord.com/channels/{fd.guild_id}/{fd.channel.id}/{line.id}"
    assert fd.messages(thread)[-1].attachments  # the recap stays the thread's last message
    r = await fd.click("alice", REMATCH, message=line)
    assert public_answer(r).content == "alice wants a rematch — waiting for bob, carol."
    await refused(await fd.click("alice", REMATCH, message=line),
                  "You have already asked for this rematch; waiting for bob, carol.")
    await refused(await fd.click("dave", REMATCH, message=line),
                  "Only the people who played game 1 can ask for its rematch.")
    fd.users["dave"].locale = "de"  # issue 16: what only the presser sees speaks their language
    await refused(await fd.click("dave", REMATCH, message=line),
                  "Nur wer Partie 1 gespielt hat, kann eine Revanche verlangen.")
    r = await fd.click("bob", REMATCH, message=line)
    assert public_answer(r).content == "bob wants a rematch — waiting for carol."
    r = await fd.click("carol", REMATCH, message=line)
    [second] = [t for t in fd.threads_of("general") if t.id != thread.id]
    said = public_answer(r)
    assert said.content == f"carol wants a rematch too — everybody agreed.\nThe rematch is played in <#{second.id}>."
    assert second.name == "Take-away: alice, bob, carol"
    [opening] = [m for m in fd.messages(fd.channel) if m.id == second.message_id]
    assert opening.content == "Rematch: Take-away, alice, bob, carol. The game is played in the thread below."
    [first] = fd.messages(second)
    assert first.content.startswith("Rematch of game 1: Take-away begins again (")
    table = await toy.svc.table(str(second.id))
    actor = table.record.seats[table.game.turn].user  # whoever the new deal made first
    assert first.pinged == [int(actor)] and f"<@{actor}>: take 1–1 stones" in first.content and first.custom_ids
    old, new = await toy.store.get_match(1), await toy.store.get_match(2)
    assert (new.channel, new.status, new.seats, new.options) == (str(second.id), "active", old.seats, old.options)
    assert new.options["host"]["forced_moves"] is False and (new.options["pile"], new.options["max"]) == (4, 1)
    assert f"/channels/{fd.guild_id}/{second.id}" in new.link
    # a press after the start points to the new thread
    await refused(await fd.click("bob", REMATCH, message=line), f"The rematch has already started: <#{second.id}>.")
    assert len(fd.threads_of("general")) == 2 and (await toy.store.get_match(3)) is None


async def test_rematch_votes_survive_a_restart_and_a_computer_agrees_by_itself(fd, toy):
    """Two people and a computer player: alice asks, the bot restarts, bob's press starts it."""
    await fd.slash("alice", "join", {"game": "toy"})
    await fd.slash("bob", "join")
    await fd.slash("alice", "table addbot", {"level": "random"})
    await fd.slash("bob", "start", {"options": "pile=2 max=2"})
    [thread] = fd.threads_of("general")
    r = await fd.slash("alice", "move", {"choice": "take 2"}, channel=thread)  # the computer never moves
    assert "Game over. The winner: alice." in r.public_messages[-1].content
    await thread_closed(str(thread.id))  # archived: the channel's result line carries the button
    [final] = [m for m in fd.messages(fd.channel) if REMATCH in m.custom_ids]
    r = await fd.click("alice", REMATCH, message=final)
    assert public_answer(r).content == "alice wants a rematch — waiting for bob."
    await toy.stop()
    await toy.start()  # a new process: the vote and the button come back from the database
    await refused(await fd.click("alice", REMATCH, message=final), "already asked")
    r = await fd.click("bob", REMATCH, message=final)
    [second] = [t for t in fd.threads_of("general") if t.id != thread.id]
    assert public_answer(r).content.startswith("bob wants a rematch too — everybody agreed.")
    [first] = fd.messages(second)
    assert first.pinged == [fd.users["alice"].id]
    old, new = await toy.store.get_match(1), await toy.store.get_match(2)
    assert new.seats == old.seats and new.seats[2].user.startswith("bot:random:")
    assert new.options == old.options


async def test_rematch_in_a_channel_that_has_a_table_again_is_refused_clearly(tmp_path):
    """Without threads the rematch is played where the game was; a new table there comes first."""
    async with FakeDiscord() as fd:
        toy = Toy(fd, tmp_path / "busy.db", seed=first_to_act(2, 0, pile=1), threads=False)
        await toy.start()
        try:
            await fd.slash("alice", "join", {"game": "toy"})
            await fd.slash("bob", "join")
            await fd.slash("alice", "start", {"options": "pile=1"})
            r = await fd.slash("alice", "move", {"choice": "take 1"})
            [final] = [m for m in r.public_messages if REMATCH in m.custom_ids]
            await fd.slash("dave", "join", {"game": "toy"})  # somebody opens a new table in the channel
            public_answer(await fd.click("bob", REMATCH, message=final))
            r = await fd.click("alice", REMATCH, message=final)
            [said] = [m for m in r.messages if m.public]
            assert said.content == "alice wants a rematch too — everybody agreed."
            [sorry] = r.ephemeral_messages
            assert "This channel has a table already: the rematch can start here once it is finished or abandoned." \
                == sorry.content
            assert (await toy.store.get_match(2)).status == "lobby" and await toy.store.rematch_of(1) is None
            await fd.slash("dave", "leave")  # the lobby closes; a press now starts the rematch here
            r = await fd.click("bob", REMATCH, message=final)
            first = next(m for m in r.posted if m.content.startswith("Rematch of game 1"))
            assert first.pinged == [fd.users["alice"].id] and fd.threads_of("general") == []
        finally:
            await toy.stop()
        assert fd.internal_errors == [] and fd.unhandled == []
