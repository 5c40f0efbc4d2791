"""The fake Discord's server life (issue 29, tests/fakediscord/lifecycle.py), each rule with its
page of /work/shared/discord/docs, through discord.py's own client."""

from __future__ import annotations

import discord
import pytest

from tests.discord.test_fake_rules import open_thread, raw, started, wait_until
from tests.fakediscord import FakeDiscord, FakeDiscordError


class Seen(discord.Client):
    """A plain client that records the lifecycle events discord.py tells it."""

    def __init__(self, intents: discord.Intents) -> None:
        super().__init__(intents=intents)
        self.events: list[tuple[str, int]] = []

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        self.events.append(("thread_delete", payload.thread_id))

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self.events.append(("channel_delete", channel.id))

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.events.append(("guild_remove", guild.id))

    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        self.events.append(("guild_unavailable", guild.id))

    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.events.append(("guild_join", guild.id))

    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        self.events.append(("member_remove", payload.user.id))


def guilds_intents(members: bool = False) -> discord.Intents:
    intents = discord.Intents.none()
    intents.guilds = True
    intents.members = members
    return intents


async def test_a_deleted_thread_is_thread_delete_then_unknown_channel_10003():
    """threads.mdx "Gateway Events": a deleted thread is a Thread Delete event; afterwards the
    thread is an Unknown channel, 10003 (opcodes-and-status-codes.mdx "JSON Error Codes")."""
    async with FakeDiscord() as fake:
        bot = await started(fake)
        thread, inside, _fake_thread = await open_thread(bot, fake)
        await fake.delete_thread(thread.id)
        event, data = fake.dispatched[-1]
        assert event == "THREAD_DELETE"
        assert data == {"id": str(thread.id), "guild_id": str(fake.guild_id), "parent_id": str(fake.channel.id),
                        "type": 11}
        await wait_until(lambda: bot.get_channel(thread.id) is None)  # discord.py dropped it
        for method, path, body in (("GET", f"/channels/{thread.id}", None),
                                   ("POST", f"/channels/{thread.id}/messages", {"content": "x"}),
                                   ("PATCH", f"/channels/{thread.id}/messages/{inside.id}", {"content": "y"})):
            status, _h, out = await raw(fake, method, path, body)
            assert (status, out["code"]) == (404, 10003), (method, path, out)
        with pytest.raises(discord.NotFound) as e:
            await inside.edit(content="z")
        assert e.value.code == 10003
        assert fake.internal_errors == [] and fake.response_violations == []


async def test_a_deleted_channel_takes_its_threads_and_sends_only_channel_delete():
    """gateway.mdx "List of Intents": CHANNEL_DELETE with GUILDS; threads.mdx "Losing Access to
    Channels": no Thread Delete for the threads that go with it (discord.py drops them itself)."""
    async with FakeDiscord() as fake:
        bot = await started(fake)
        thread, _inside, _t = await open_thread(bot, fake)
        await fake.delete_channel("general")
        assert [e for e, _d in fake.dispatched if e.endswith("_DELETE")] == ["CHANNEL_DELETE"]
        await wait_until(lambda: bot.get_channel(thread.id) is None and bot.get_channel(fake.channel.id) is not None)
        for cid in (thread.id,):
            status, _h, out = await raw(fake, "POST", f"/channels/{cid}/messages", {"content": "x"})
            assert (status, out["code"]) == (404, 10003)
        assert fake.response_violations == []


async def test_the_bot_removed_is_guild_delete_then_missing_access_and_unknown_guild_until_invited_back():
    """gateway.mdx: GUILD_DELETE without ``unavailable`` is a removal (discord.py: on_guild_remove),
    with ``unavailable: true`` an outage (on_guild_unavailable); opcodes-and-status-codes.mdx:
    10004 Unknown guild, 50001 Missing access; invited back: GUILD_CREATE (on_guild_join)."""
    async with FakeDiscord() as fake:
        bot = Seen(guilds_intents())
        await fake.start_bot(bot)
        gid = fake.guild_id
        await fake.guild_outage()
        await wait_until(lambda: ("guild_unavailable", gid) in bot.events)
        await fake.announce_guild(fake.guild())  # the outage ends
        guild = fake.guild()
        await fake.remove_bot(guild)
        await wait_until(lambda: ("guild_remove", gid) in bot.events)
        assert fake.dispatched[-1] == ("GUILD_DELETE", {"id": str(gid)})
        status, _h, out = await raw(fake, "GET", f"/guilds/{gid}")
        assert (status, out["code"]) == (404, 10004)
        status, _h, out = await raw(fake, "POST", f"/channels/{fake.channel.id}/messages", {"content": "x"})
        assert (status, out["code"]) == (403, 50001)
        with pytest.raises(FakeDiscordError, match="removed"):  # whatever its command: the app is gone
            await fake._push(2, "alice", fake.channel, {"name": "anything"}, None, 1.0)
        await fake.invite_bot(guild)
        await wait_until(lambda: ("guild_join", gid) in bot.events)
        assert "unavailable" not in fake.dispatched[-1][1]
        status, _h, _out = await raw(fake, "POST", f"/channels/{fake.channel.id}/messages", {"content": "back"})
        assert status == 200
        assert fake.response_violations == [] and fake.request_violations == []
        await fake.stop_bot(bot)


@pytest.mark.parametrize("members", [False, True])
async def test_a_member_leaving_is_told_only_with_the_privileged_members_intent(members):
    """gateway.mdx "List of Intents" and "Privileged Intents": GUILD_MEMBER_REMOVE belongs to
    GUILD_MEMBERS, off by default; without it the bot is told nothing. Either way the person is no
    member any more (10007 Unknown member) and no interaction comes from them."""
    async with FakeDiscord() as fake:
        bot = Seen(guilds_intents(members))
        await fake.start_bot(bot)
        bob = fake.users["bob"]
        assert await fake.member_leaves("bob") is members
        if members:
            await wait_until(lambda: ("member_remove", bob.id) in bot.events)
            assert fake.dispatched[-1][0] == "GUILD_MEMBER_REMOVE"
        else:
            assert not any(e == "GUILD_MEMBER_REMOVE" for e, _d in fake.dispatched)
        status, _h, out = await raw(fake, "GET", f"/guilds/{fake.guild_id}/members/{bob.id}")
        assert (status, out["code"]) == (404, 10007)
        with pytest.raises(LookupError):
            await fake.slash("bob", "anything")
        status, _h, _out = await raw(fake, "POST", f"/channels/{fake.channel.id}/messages",
                                     {"content": f"<@{bob.id}> your turn", "allowed_mentions": {"users": [str(bob.id)]}})
        assert status == 200  # a mention of them still posts
        assert fake.response_violations == []
        await fake.stop_bot(bot)
