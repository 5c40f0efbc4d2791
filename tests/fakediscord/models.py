"""What the fake Discord knows and records: users, channels, messages, requests, interactions.

Every object here can render itself as the JSON payload real Discord would send, so the real
discord.py client parses it exactly as it parses Discord's answers.
"""

from __future__ import annotations

import itertools
import mimetypes
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6  # message flag 64
LOADING = 1 << 7  # message flag 128: the "is thinking..." placeholder of a deferred response
ALL_PERMISSIONS = (1 << 53) - 1
# @everyone: view channel, send messages, embed links, attach files, read history, use app commands
EVERYONE_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
ADMINISTRATOR = 1 << 3
VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES = 1 << 10, 1 << 11, 1 << 14, 1 << 15
MANAGE_THREADS, CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS = 1 << 34, 1 << 35, 1 << 38
# The bot's own (managed) role, as an invite URL asking for these creates it: @everyone's plus threads.
BOT_ROLE_PERMISSIONS = EVERYONE_PERMISSIONS | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
HAS_THREAD = 1 << 5  # message flag: a thread was opened from it

_counter = itertools.count(1)
_lock = threading.Lock()


def snowflake() -> int:
    """A fresh, strictly increasing Discord snowflake carrying the current time."""
    with _lock:
        n = next(_counter)
    return ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (n & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class FakeUser:
    """A Discord user who is also a member of the fake guild."""

    id: int
    username: str
    bot: bool = False
    admin: bool = False
    global_name: str | None = None
    locale: str = "en-US"  # the client's language, sent as an interaction's ``locale`` (issue 16)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "collectibles": None,
            "primary_guild": None,  # required in Discord's UserResponse (null: no guild tag shown)
        }

    def private_payload(self) -> dict[str, Any]:
        """The user as ``GET /users/@me`` and the gateway's READY give it (``UserPIIResponse``)."""
        return {**self.payload(), "verified": True, "mfa_enabled": False, "locale": self.locale, "premium_type": 0}


@dataclass
class FakeChannel:
    """A guild text channel, or (``type`` 11) a public thread of one: ``parent_id`` is its text
    channel, ``owner_id`` who opened it, ``message_id`` the message it was opened from."""

    id: int
    name: str
    guild_id: int
    position: int = 0
    topic: str | None = None
    # permission overwrites (Discord's shape: id, type 0 role / 1 member, allow, deny as strings)
    overwrites: list[dict[str, Any]] = field(default_factory=list)
    type: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    message_id: int | None = None
    auto_archive_duration: int = 1440  # minutes of inactivity until it archives (threads.mdx)
    archived: bool = False
    locked: bool = False
    # threads.mdx "Thread Fields": archive_timestamp changes on creating, archiving, unarchiving
    create_timestamp: str = field(default_factory=lambda: iso_now())
    archive_timestamp: str = field(default_factory=lambda: iso_now())
    last_activity: float = 0.0  # FakeDiscord.clock of the last activity (message, unarchive)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    def payload(self) -> dict[str, Any]:
        if self.is_thread:
            return {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild_id),
                "name": self.name,
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id),
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "total_message_sent": 0,
                "flags": 0,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.archive_timestamp,
                    "locked": self.locked,
                    "create_timestamp": self.create_timestamp,
                },
            }
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [dict(o) for o in self.overwrites],
            "nsfw": False,
            "parent_id": None,
            "topic": self.topic,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


@dataclass
class Attachment:
    """A file as it reached the fake: name, exact bytes, and the id/url it was given."""

    filename: str
    data: bytes
    id: int = field(default_factory=snowflake)
    description: str | None = None
    url: str = ""

    @property
    def content_type(self) -> str:
        return mimetypes.guess_type(self.filename)[0] or "application/octet-stream"

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_png(self) -> bool:
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            out["description"] = self.description
        return out


_MENTION = re.compile(r"<@!?(\d+)>")

# Fields a select menu has in Discord's answers even when the request left them out (defaults).
_SELECT_DEFAULTS = {"min_values": 1, "max_values": 1}


def response_components(components: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Components as Discord sends them back: every one numbered with an ``id`` (1, 2, ... in
    tree order unless the request gave one), defaults filled in, and null fields dropped, the
    shape of ``ActionRowComponentResponse``/``ButtonComponentResponse``/... in the schema."""
    taken = {c["id"] for c in iter_components(components) if isinstance(c.get("id"), int)}
    numbers = (n for n in itertools.count(1) if n not in taken)

    def convert(comp: dict[str, Any]) -> dict[str, Any]:
        out = {k: v for k, v in comp.items() if v is not None}
        if not isinstance(out.get("id"), int):
            out["id"] = next(numbers)
        if out.get("type") in (3, 5, 6, 7, 8):
            for key, value in _SELECT_DEFAULTS.items():
                out.setdefault(key, value)
        if out.get("type") == 3:
            out["options"] = [{k: v for k, v in o.items() if v is not None} for o in out.get("options") or []]
        if "components" in out:
            out["components"] = [convert(c) for c in out["components"]]
        if isinstance(out.get("accessory"), dict):
            out["accessory"] = convert(out["accessory"])
        return out

    return [convert(c) for c in components or []]


def iter_components(components: list[dict[str, Any]] | None):
    """Every component in a message's component tree (action rows, containers, accessories)."""
    for comp in components or []:
        yield comp
        yield from iter_components(comp.get("components"))
        if isinstance(comp.get("accessory"), dict):
            yield from iter_components([comp["accessory"]])


@dataclass
class Message:
    """A message as the fake stores it. Edits change it in place; ``history`` keeps old versions.

    ``origin`` says how it was created: ``"channel"`` (POST /channels/{id}/messages),
    ``"callback"`` (an interaction's initial response), ``"followup"`` (a follow-up webhook)
    or ``"user"`` (a message a fake user typed).
    """

    id: int
    channel_id: int
    guild_id: int
    author: FakeUser
    origin: str
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    interaction_id: int | None = None
    interaction_user: FakeUser | None = None
    interaction_type: int = 2
    interacted_message_id: int | None = None  # for a component interaction: the clicked message
    application_id: int | None = None
    webhook_id: int | None = None
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)
    requested_ephemeral: bool = False
    thread_id: int | None = None  # the thread opened from this message
    notified: list[int] = field(default_factory=list)  # whom it pinged when it appeared (edits ping nobody)

    # -- views for tests -------------------------------------------------------------------
    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def public(self) -> bool:
        return not self.ephemeral

    @property
    def loading(self) -> bool:
        """True while this is a deferred response's "thinking..." placeholder."""
        return bool(self.flags & LOADING)

    @property
    def visible_to(self) -> int | None:
        """The only user who can see an ephemeral message (None: everybody)."""
        if self.ephemeral and self.interaction_user is not None:
            return self.interaction_user.id
        return None

    @property
    def mentions(self) -> list[int]:
        """User ids written as ``<@id>`` in the content, in order, without repeats."""
        seen: list[int] = []
        for m in _MENTION.finditer(self.content or ""):
            uid = int(m.group(1))
            if uid not in seen:
                seen.append(uid)
        return seen

    @property
    def pinged(self) -> list[int]:
        """The mentioned users Discord would notify, honouring ``allowed_mentions``.

        Ephemeral messages notify nobody.
        """
        if self.ephemeral:
            return []
        am = self.allowed_mentions
        if am is None:
            return self.mentions
        if "users" in (am.get("parse") or []):
            return self.mentions
        allowed = {int(u) for u in am.get("users") or []}
        return [u for u in self.mentions if u in allowed]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        for comp in iter_components(self.components):
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def attachment(self, filename: str) -> Attachment:
        for a in self.attachments:
            if a.filename == filename:
                return a
        raise LookupError(f"message {self.id} has no attachment {filename!r}: {[a.filename for a in self.attachments]}")

    # -- wire format -------------------------------------------------------------------------
    def payload(self, users: dict[int, FakeUser] | None = None) -> dict[str, Any]:
        users = users or {}
        out: dict[str, Any] = {
            "id": str(self.id),
            "type": 20 if self.interaction_id is not None and self.interaction_type == 2 else 0,
            "channel_id": str(self.channel_id),
            "guild_id": str(self.guild_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [users[u].payload() for u in self.pinged if u in users],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": response_components(self.components),
            "pinned": False,
            "flags": self.flags,
        }
        if self.webhook_id is not None:
            out["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            out["application_id"] = str(self.application_id)
        if self.thread_id is not None:
            out["thread"] = {"id": str(self.thread_id), "type": PUBLIC_THREAD, "guild_id": str(self.guild_id),
                             "parent_id": str(self.channel_id)}
        if self.interaction_id is not None and self.interaction_user is not None:
            meta: dict[str, Any] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": {"0": str(self.guild_id)},
            }
            if self.interaction_type == 3 and self.interacted_message_id is not None:
                meta["interacted_message_id"] = str(self.interacted_message_id)
            out["interaction_metadata"] = meta
        return out

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
        }

    def __repr__(self) -> str:
        kind = "ephemeral" if self.ephemeral else "public"
        files = [a.filename for a in self.attachments]
        return f"<Message {self.id} {self.origin} {kind} content={self.content!r} files={files}>"


@dataclass
class RecordedRequest:
    """One HTTP request the bot made, as the fake received it.

    ``path`` has the ``/api/v10`` prefix removed. ``json`` is the JSON body, or for a multipart
    request its ``payload_json`` part. ``files`` are the uploaded parts (filename + exact bytes).
    """

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    json: Any
    files: list[Attachment]
    time: float
    status: int = 0
    response: Any = None

    @property
    def authorized(self) -> bool:
        return "Authorization" in self.headers

    def __repr__(self) -> str:
        return f"<Request {self.method} {self.path} -> {self.status}>"


@dataclass
class InteractionResult:
    """What the bot did in answer to one interaction the test pushed.

    * ``callback``: the JSON of the initial response (``{"type": ..., "data": ...}``), None if
      the bot never answered.
    * ``callback_type``: 4 message, 5 deferred message, 6 deferred update, 7 update message,
      8 autocomplete choices, 9 modal.
    * ``messages``: messages this interaction created (initial response, follow-ups), in order.
    * ``edited``: messages that existed before and were edited by it (type 7, edits of a
      clicked message).
    * ``posted``: plain channel messages (``channel.send``) the bot posted while handling it
      (from the push until it went quiet; concurrent interactions may share them).
    * ``requests``: every request that used this interaction's id or token.
    * ``shard``: ``(shard_id, num_shards)`` of the gateway session it was dispatched to.
    * ``pushed_at`` / ``callback_at``: ``FakeDiscord.clock`` when it was created / answered.
    * ``calls_before_answer``: the bot's other REST calls (not this interaction's, not another
      interaction's callback or webhook) that reached the fake between the push and the initial
      response and that the bot made after it had read the interaction's event (an in-process
      bot's calls carry what it had read; a call already on its way cannot be held back): work
      the bot did while the user waited (issue 24 wants none).
    """

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    data: dict[str, Any]
    pushed_at: float
    source_message: Message | None = None
    callback: dict[str, Any] | None = None
    callback_at: float | None = None
    callback_files: list[Attachment] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    edited: list[Message] = field(default_factory=list)
    posted: list[Message] = field(default_factory=list)
    requests: list[RecordedRequest] = field(default_factory=list)
    original_id: int | None = None
    inflight: int = 0
    last_activity: float = 0.0
    shard: tuple[int, int] | None = None
    first_request: int = 0  # index in FakeDiscord.requests of the first request after the push
    seq: int = 0  # the gateway sequence number of its INTERACTION_CREATE, in session ``session_id``
    session_id: str | None = None
    calls_before_answer: list[RecordedRequest] = field(default_factory=list)

    @property
    def answered(self) -> bool:
        return self.callback is not None

    @property
    def callback_type(self) -> int | None:
        return None if self.callback is None else self.callback.get("type")

    @property
    def deferred(self) -> bool:
        return self.callback_type in (5, 6)

    @property
    def callback_flags(self) -> int:
        if self.callback is None:
            return 0
        return int((self.callback.get("data") or {}).get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        """Whether the initial response (message or defer) was ephemeral."""
        return bool(self.callback_flags & EPHEMERAL)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (callback type 8)."""
        if self.callback_type != 8:
            raise AssertionError(f"interaction was answered with type {self.callback_type}, not autocomplete (8)")
        return list((self.callback.get("data") or {}).get("choices") or [])

    @property
    def public_messages(self) -> list[Message]:
        """Public messages it created, then public channel messages posted meanwhile."""
        return [m for m in [*self.messages, *self.posted] if m.public and not m.deleted]

    @property
    def ephemeral_messages(self) -> list[Message]:
        return [m for m in self.messages if m.ephemeral and not m.deleted]

    @property
    def text(self) -> str:
        """Contents of every message it created, edited or posted, joined by newlines."""
        return "\n".join(m.content for m in [*self.messages, *self.edited, *self.posted] if m.content)

    @property
    def files(self) -> list[Attachment]:
        """Files of the messages it created and posted."""
        return [a for m in [*self.messages, *self.posted] for a in m.attachments]

    @property
    def response_time(self) -> float | None:
        return None if self.callback_at is None else self.callback_at - self.pushed_at
