"""A server's life in the fake Discord (issue 29): threads and channels deleted, the bot removed
from a server and invited back, a member leaving. A mixin of :class:`FakeDiscord`.

Each event is sent as Discord documents it (``/work/shared/discord/docs/``):

* ``await fd.delete_thread(thread)`` — a moderator deletes a thread: THREAD_DELETE, "the id,
  guild_id, parent_id, and type fields" (gateway events page, quoted by threads.mdx "Gateway
  Events": "When a thread is created, updated, or deleted, a Thread Create, Thread Update, or
  Thread Delete event is sent"); gateway.mdx "List of Intents": THREAD_DELETE comes with GUILDS.
* ``await fd.delete_channel(channel)`` — CHANNEL_DELETE with the channel object (gateway.mdx
  "List of Intents", GUILDS). Its threads go with it; no THREAD_DELETE is sent for them
  (threads.mdx "Losing Access to Channels": the gateway sends "the event that caused" the
  change, not a thread event; discord.py drops the channel's cached threads itself).
* Afterwards every REST call on the deleted channel or thread, or a message in it, is answered
  ``404`` / ``10003`` "Unknown channel" (opcodes-and-status-codes.mdx "JSON Error Codes").
* ``await fd.remove_bot(guild)`` — the bot is kicked: GUILD_DELETE *without* ``unavailable``
  (gateway.mdx: GUILD_DELETE comes with GUILDS; an ``unavailable: true`` GUILD_DELETE is an
  outage — gateway.mdx "guilds ... will start out as unavailable" — which
  ``await fd.guild_outage(guild)`` sends instead). The guild is gone from READY and its REST
  calls fail: the guild's own routes ``404`` / ``10004`` "Unknown guild", its channels ``403`` /
  ``50001`` "Missing access" (the same codes' table). No interaction can come from it (its
  members can no longer use the app there): ``fd.slash``/``fd.click`` there raise.
* ``await fd.invite_bot(guild)`` — invited back: GUILD_CREATE (gateway.mdx: "As guilds become
  available to you, you will receive Guild Create events"), without ``unavailable`` (a join, not
  an outage's end: ``fd.announce_guild`` sends ``unavailable: false`` after ``fd.guild_outage``).
* ``await fd.member_leaves(user)`` — GUILD_MEMBER_REMOVE (``guild_id``, ``user``) reaches only a
  session with the **privileged** GUILD_MEMBERS intent (gateway.mdx "List of Intents" and
  "Privileged Intents": "Events associated with the GUILD_PRESENCES and GUILD_MEMBERS intents are
  turned off by default"). Without it the bot learns nothing when they leave: no event; the
  person can no longer send interactions (``fd.slash``/``fd.click`` as them raise), ``GET
  /guilds/{g}/members/{user}`` answers ``404`` / ``10007`` "Unknown member"; a post mentioning
  them still posts (a mention is text: message.mdx "Allowed Mentions" only filters pings).

Every payload is checked against the schema's objects (``schema.check_object``); a problem is
recorded in ``fd.response_violations`` like any answer of the fake's outside the schema.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import schema
from .models import FakeChannel, FakeUser

if TYPE_CHECKING:
    from .server import FakeDiscord, FakeGuild


class LifecycleEvents:
    """The events of a server's life (see the module's docstring); mixed into FakeDiscord."""

    removed_guilds: dict[int, FakeGuild]
    departed: dict[str, FakeUser]

    def _lifecycle_state(self: FakeDiscord) -> None:  # type: ignore[misc]
        if not hasattr(self, "removed_guilds"):
            self.removed_guilds = {}
            self.departed = {}

    def _checked(self: FakeDiscord, name: str, instance: Any) -> None:  # type: ignore[misc]
        self.response_violations.extend(schema.check_object(name, instance))

    async def delete_thread(self: FakeDiscord, thread: str | int | FakeChannel) -> None:  # type: ignore[misc]
        ch = self._channel(thread)
        assert ch.is_thread, f"{ch.name} is not a thread"
        self.threads.pop(ch.id)
        self._checked("ThreadResponse", ch.payload())
        await self._tell("THREAD_DELETE", {"id": str(ch.id), "guild_id": str(ch.guild_id),
                                           "parent_id": str(ch.parent_id), "type": ch.type}, ch.guild_id)

    async def delete_channel(self: FakeDiscord, channel: str | int | FakeChannel) -> None:  # type: ignore[misc]
        ch = self._channel(channel)
        assert not ch.is_thread, f"{ch.name} is a thread: use delete_thread"
        self.channels.pop(ch.name)
        for thread in [t for t in self.threads.values() if t.parent_id == ch.id]:
            self.threads.pop(thread.id)
        data = ch.payload()
        self._checked("GuildChannelResponse", data)
        await self._tell("CHANNEL_DELETE", data, ch.guild_id)

    async def _tell(self: FakeDiscord, event: str, data: dict[str, Any], guild_id: int) -> None:  # type: ignore[misc]
        """Dispatch to the bot's session, if one is connected (or may resume): a bot that is
        offline learns of the deletion only by its 404s afterwards (gateway events are not kept)."""
        if self._session_for(guild_id) is None:
            self.gateway_rules.buffer(event, data, guild_id)  # kept for a RESUME; else nobody hears it
            return
        await self.dispatch(event, data, guild_id=guild_id)

    def guild_removed(self: FakeDiscord, guild_id: int) -> bool:  # type: ignore[misc]
        self._lifecycle_state()
        return guild_id in self.removed_guilds

    async def remove_bot(self: FakeDiscord, guild: Any = None) -> None:  # type: ignore[misc]
        self._lifecycle_state()
        g = self.guild(guild)
        await self.dispatch("GUILD_DELETE", {"id": str(g.id)}, guild_id=g.id)
        del self.guilds[g.id]
        self.removed_guilds[g.id] = g

    async def guild_outage(self: FakeDiscord, guild: Any = None) -> None:  # type: ignore[misc]
        g = self.guild(guild)
        await self.dispatch("GUILD_DELETE", {"id": str(g.id), "unavailable": True}, guild_id=g.id)

    async def invite_bot(self: FakeDiscord, guild: FakeGuild) -> None:  # type: ignore[misc]
        self._lifecycle_state()
        g = self.removed_guilds.pop(guild.id)
        self.guilds[g.id] = g
        session = self._session_for(g.id)
        if session is not None:
            # a joined guild's GUILD_CREATE carries no ``unavailable`` (its field is "true if this guild
            # is unavailable due to an outage"); discord.py tells a join (on_guild_join) from a guild
            # coming back after an outage (``unavailable: false``, on_guild_available) by it
            data = self._guild_payload(session.intents, g)
            del data["unavailable"]
            await self.dispatch("GUILD_CREATE", data, guild_id=g.id)

    async def member_leaves(self: FakeDiscord, who: str | FakeUser, guild: Any = None) -> bool:  # type: ignore[misc]
        """``who`` leaves (every guild of the fake: its users are every guild's members). True
        when the bot was told (GUILD_MEMBER_REMOVE: only with the GUILD_MEMBERS intent)."""
        self._lifecycle_state()
        user = self.user(who)
        self.departed[user.username] = self.users.pop(user.username)
        g = self.guild(guild)
        session = self._session_for(g.id)
        if session is None or not session.intents & (1 << 1):  # GUILD_MEMBERS, privileged
            return False
        data = {"guild_id": str(g.id), "user": user.payload()}
        self._checked("UserResponse", data["user"])
        await self.dispatch("GUILD_MEMBER_REMOVE", data, guild_id=g.id)
        return True
