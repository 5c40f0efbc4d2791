"""What meadhall needs from a Discord server: OAuth2 scopes, channel permissions, the invite URL.

API::

    SCOPES                         # ("bot", "applications.commands")
    REQUIRED                       # discord.Permissions the bot needs in a table's channel
    NEEDED                         # (permission name, why) for each, in README order
    invite_url(application_id)     # the OAuth2 URL that adds the bot with exactly REQUIRED
    missing(permissions)           # names of the REQUIRED permissions ``permissions`` lacks
    describe(names)                # "Send Messages, Attach Files" (Discord's own wording)

The list is the single source for the README, ``meadhall invite`` and the checks the bot makes
at start-up and when a table opens (bot.discord.app, bot.discord.cog). Nothing here talks to
Discord.
"""

from __future__ import annotations

import discord

# "bot" adds the bot user to the server; "applications.commands" lets it register slash commands.
SCOPES: tuple[str, ...] = ("bot", "applications.commands")

# discord.Permissions attribute → why meadhall needs it. Least privilege: nothing else.
NEEDED: tuple[tuple[str, str], ...] = (
    ("view_channel", "see the channel a table lives in (and receive its interactions' channel)"),
    ("send_messages", "post moves, prompts and reminders in the channel (also computer players' moves, "
                      "and the answer after a slow move that was deferred)"),
    ("embed_links", "show the game's first message's embed (how the game is played here); without it "
                    "Discord drops a bot's embeds from its channel posts"),
    ("attach_files", "post the board picture (PNG) with each move, and /export's game log"),
    ("create_public_threads", "a later issue gives each table its own thread in the channel"),
    ("send_messages_in_threads", "post moves in a table's thread (Send Messages does not cover threads)"),
)
# Not asked for, on purpose: Manage Threads (threads archive themselves after inactivity and their
# creator may archive them without it; meadhall never locks or deletes threads),
# Read Message History (it only edits its own messages and
# answers interactions, which need neither), Mention Everyone (it pings only the players, by id),
# Administrator and every moderation permission.

REQUIRED = discord.Permissions(**{name: True for name, _why in NEEDED})


def invite_url(application_id: int) -> str:
    """The URL a server admin opens to add meadhall with exactly :data:`REQUIRED`."""
    if application_id <= 0:
        raise ValueError(f"an application id is a positive Discord snowflake, not {application_id}")
    return discord.utils.oauth_url(application_id, permissions=REQUIRED, scopes=SCOPES)


def display_name(attr: str) -> str:
    """Discord's wording of a permission: ``send_messages_in_threads`` → "Send Messages In Threads"."""
    return attr.replace("_", " ").title()


def missing(permissions: discord.Permissions) -> list[str]:
    """The names (Discord's wording) of the required permissions that ``permissions`` lacks."""
    if permissions.administrator:
        return []
    return [display_name(name) for name, _why in NEEDED if not getattr(permissions, name)]


def describe(names: list[str]) -> str:
    return ", ".join(names)
