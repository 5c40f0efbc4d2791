"""A host reply's text as Discord must get it: players' names escaped (markdown, mentions), mentions
that ping exactly who must act, messages split at Discord's 2,000 characters, attachments, and the
place to post."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence

import discord

from bot.host.service import Reply

MAX_CONTENT = 2000


def escape_name(name: str) -> str:
    """A display name as Discord must show it: no markdown (no heading, spoiler, bold…), no
    mention (``<@id>``, ``@everyone``) — it reads as typed, and pings nobody."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def escape_names(text: str, names: Iterable[str]) -> str:
    """``text`` with every occurrence of a player's name escaped (:func:`escape_name`).

    The service's lines are plain text with people's names in them (``Reply.names``); only the
    names are people's input, so only they are escaped, in one pass (longest name first, so
    that one name inside another is not escaped twice)."""
    risky = sorted({n for n in names if n and escape_name(n) != n}, key=len, reverse=True)
    if not risky:
        return text
    return re.sub("|".join(map(re.escape, risky)), lambda m: escape_name(m.group(0)), text)


def sendable(channel: object) -> discord.abc.Messageable:
    """``channel`` as a place to post: an interaction's or a table's channel always is one (a text
    channel, a thread); anything else (a category, a forum) fails here instead of at ``send``."""
    if not isinstance(channel, discord.abc.Messageable):
        raise TypeError(f"cannot post to a {type(channel).__name__}")
    return channel


def mention(user: str, name: str) -> str:
    return f"<@{user}>" if user.isdigit() else f"@{escape_name(name)}"


def prompt_lines(reply: Reply) -> list[str]:
    """``<@player>: what to decide`` for each prompt, names in the text escaped."""
    return [f"{mention(p.user, p.name)}: {escape_names(p.text, reply.names)}" for p in reply.prompts]


def split_content(lines: Iterable[str], limit: int = MAX_CONTENT) -> list[str]:
    """Lines joined into as few messages of at most ``limit`` characters as they need."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        while len(line) > limit:  # a single overlong line is cut
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        joined = f"{current}\n{line}" if current else line
        if len(joined) > limit:
            chunks.append(current)
            joined = line
        current = joined
    if current:
        chunks.append(current)
    return chunks


def allowed_for(users: Sequence[str]) -> discord.AllowedMentions:
    """Ping exactly these users (no @everyone, no roles)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False,
        users=[discord.Object(int(u)) for u in users if u.isdigit()],
    )


def files_of(reply: Reply) -> list[discord.File]:
    return [discord.File(io.BytesIO(a.data), filename=a.filename) for a in (reply.image, reply.file) if a is not None]


def thread_name(title: str, names: Sequence[str]) -> str:
    """A game's thread: "Vikings: alice, bob" (Discord allows 100 characters)."""
    return f"{title}: {', '.join(names)}"[:100]
