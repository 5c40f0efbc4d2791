"""When Discord says no: refused posts and missing permissions, per channel (issue 12).

API::

    watch = ChannelWatch()
    watch.refused(channel, match_id, error, what)   # a post Discord refused: log once per table, halt bots
    watch.halted(channel)                           # computer players wait for a person to act there
    watch.person_acted(channel)                     # a person's answer reached the channel: bots resume;
                                                    # (were they waiting, what to tell that person)
    watch.try_again(channel)                        # computer players try again (a passing refusal)
    watch.posted(channel)                           # a post of the bot's own worked there again
    watch.missing_permissions(channel, perms)       # required ones missing: logged once, listed once
    reason(error)                                   # what Discord said, in the user's language
    passing(error)                                  # a 5xx or 429: worth trying again later (issue 29)
    token_dead(error)                               # the interaction's token is gone (not a refusal)
    token_lost(interaction, error)                  # remember (and log once) that it is gone
    gone(interaction)                               # whether its token is known to be gone

"Never silent": a move the service committed stays committed whatever Discord answers; the cog
tells the person who made it privately what happened and where the table stands, computer
players stop moving at that table until a person acts (they would only pile up refused posts),
and the log gets one line per table and kind of failure, not one per move. Nothing here talks to
Discord.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import discord

from bot.discord.permissions import missing
from bot.i18n import _

log = logging.getLogger(__name__)


def reason(error: discord.HTTPException) -> str:
    """What Discord answered, said for the players (translated)."""
    if isinstance(error, discord.Forbidden):
        if error.code == 50013:
            return _("I lack a permission in this channel (Discord: Missing Permissions)")
        return _("I have no access to this channel (Discord: Missing Access)")
    if isinstance(error, discord.NotFound):
        return _("Discord does not know this channel or message any more (Discord: {text})",
                 text=error.text or str(error.status))
    if error.status == 429:
        return _("Discord is limiting how fast I may post here (rate limit)")
    if error.status >= 500:
        return _("Discord's servers failed (error {status}), also when asked again", status=error.status)
    return _("Discord refused it (error {status})", status=error.status)


def passing(error: discord.HTTPException) -> bool:
    """Whether Discord's refusal passes by itself: a server error (opcodes-and-status-codes.mdx,
    "HTTP Response Codes": 502 "Wait a bit and retry", 5xx "these are rare") or a rate limit
    (rate-limits.mdx: wait ``retry_after``), still there after discord.py's own retries."""
    return error.status == 429 or error.status >= 500


# receiving-and-responding.mdx: an initial response after 3 s gets 10062 Unknown interaction, a
# second one 40060 already acknowledged; the token's webhook is 10015 Unknown Webhook without an
# initial response and 50027 Invalid Webhook Token after 15 minutes. None of them says anything about
# the channel: the move is published through the channel's routes instead (issue 24).
DEAD_TOKEN_CODES = frozenset({10062, 40060, 10015, 50027})
_GONE = "meadhall_token_gone"


def token_dead(error: discord.HTTPException) -> bool:
    """Whether ``error`` says the interaction's token is dead or used, not that the channel refused."""
    return error.code in DEAD_TOKEN_CODES


def token_lost(interaction: discord.Interaction, error: discord.HTTPException) -> None:
    """The token of ``interaction`` is gone (:func:`token_dead`): later steps use channel routes.
    Logged once per interaction."""
    if not interaction.extras.get(_GONE):
        interaction.extras[_GONE] = True
        log.warning("interaction %s in channel %s: its token is gone (%s); publishing through the channel",
                    interaction.id, interaction.channel_id, _log_reason(error))


def gone(interaction: discord.Interaction | None) -> bool:
    return interaction is not None and bool(interaction.extras.get(_GONE))


def _log_reason(error: discord.HTTPException) -> str:
    return f"{error.status} {error.code or ''} {error.text or ''}".strip()


@dataclass
class ChannelWatch:
    """What went wrong in which channel, so that each failure is told and logged once."""

    # channel → (match id, status) of the refusal already logged: one log line per table and kind
    logged: dict[str, tuple[int | None, int]] = field(default_factory=dict)
    # channels where computer players wait for a person (their posts were refused)
    _halted: set[str] = field(default_factory=set)
    # channel → what the next person acting there must be told (refused computer players' posts)
    untold: dict[str, str] = field(default_factory=dict)
    # channel → the missing permissions already logged / already told to a player
    permissions_logged: dict[str, tuple[str, ...]] = field(default_factory=dict)
    permissions_told: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def refused(self, channel: str, match_id: int | None, error: discord.HTTPException, what: str,
                *, tell_later: bool = False) -> None:
        """Discord refused a post in ``channel`` (``what``: e.g. "a computer player's move")."""
        key = (match_id, error.status)
        if self.logged.get(channel) != key:
            self.logged[channel] = key
            log.warning("Discord refused %s in channel %s (table %s): %s; computer players there wait for a "
                        "person (further refusals at this table are not logged)",
                        what, channel, match_id, _log_reason(error))
        self._halted.add(channel)
        if tell_later:
            self.untold[channel] = reason(error)

    def halted(self, channel: str) -> bool:
        return channel in self._halted

    def person_acted(self, channel: str) -> tuple[bool, str | None]:
        """A person's command was answered in ``channel``: computer players may move again.
        Returns whether they were waiting, and the reason of refused posts the person was not told
        yet (they happened while nobody was answering)."""
        waiting = channel in self._halted
        self._halted.discard(channel)
        return waiting, self.untold.pop(channel, None)

    def try_again(self, channel: str) -> None:
        """After a passing refusal, computer players may move again without a person acting (the
        next person there is still told of the refused post)."""
        self._halted.discard(channel)

    def posted(self, channel: str) -> None:
        """The bot posted in ``channel`` itself again (``channel.send`` worked): a new refusal there
        is news and will be logged."""
        if self.logged.pop(channel, None) is not None:
            log.info("posting in channel %s works again", channel)

    def missing_permissions(self, channel: str, permissions: discord.Permissions, *, where: str
                            ) -> list[str]:
        """The required permissions the bot lacks in ``channel``; logged once per set of names."""
        names = tuple(missing(permissions))
        if names and self.permissions_logged.get(channel) != names:
            self.permissions_logged[channel] = names
            log.warning("%s: missing permission(s) in channel %s: %s", where, channel, ", ".join(names))
        if not names:
            self.permissions_logged.pop(channel, None)
            self.permissions_told.pop(channel, None)
        return list(names)

    def to_tell(self, channel: str, names: list[str]) -> list[str]:
        """``names`` if the players of ``channel`` were not told these yet (then they count as told)."""
        if not names or self.permissions_told.get(channel) == tuple(names):
            return []
        self.permissions_told[channel] = tuple(names)
        return names
