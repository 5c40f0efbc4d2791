"""Text commands: one typed line ("join", "start toy pile=9", "take 2", "/status") to a call."""

from __future__ import annotations

from bot.host.common import HOST_COMMANDS, RECORD_COMMANDS, SCOPES, names_text
from bot.host.export import ExportMixin
from bot.host.guard import host_call
from bot.host.hints import HintsMixin
from bot.host.lobby import LobbyMixin
from bot.host.looking import LookingMixin
from bot.host.recap import RecapMixin
from bot.host.records import RecordsMixin
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replays import ReplaysMixin
from bot.host.replies import Reply
from bot.host.undo import ANSWERS as UNDO_ANSWERS
from bot.i18n import _
from bot.i18n.text import quote


class CommandsMixin(LobbyMixin, LookingMixin, ExportMixin, RecordsMixin, ReplaysMixin, HintsMixin, RecapMixin):
    """The text front (offline table, typed lines): reads a line and calls the other concerns."""

    @host_call()
    async def command(
        self, channel: str, user: str, line: str, *, name: str | None = None, guild: str | None = None,
        is_admin: bool = False,
    ) -> Reply:
        """Run one typed line ("join", "start toy pile=9", "take 2", "/status", …)."""
        return await self._command(channel, user, line, name, guild, is_admin)

    async def _command(
        self, channel: str, user: str, line: str, name: str | None, guild: str | None, is_admin: bool
    ) -> Reply:
        words = line.strip().removeprefix("/").split()
        if not words:
            raise self._unknown_command(line)
        word, args = words[0].lower(), words[1:]
        if word == "join":
            return await self.join(channel, user, name or user, guild=guild, game=args[0] if args else None)
        if word == "leave":
            return await self.leave(channel, user)
        if word == "start":
            game = args[0] if args and args[0] in self.games else None
            return await self.start(channel, user, game, args[1:] if game else args)
        if word == "abandon":
            return await self.abandon(channel, user, is_admin=is_admin)
        if word == "status":
            return await self.status(channel)
        if word == "board":
            private = args == ["private"]
            return await self.board(channel, user, private=private, player=" ".join(args) if args and not private
                                    else None)
        if word == "rules":
            return await self.rules(channel, args[0] if args else None)
        if word == "export":
            if args and not (len(args) == 1 and args[0].isascii() and args[0].isdigit()):
                raise Refusal(RefusalCode.EXPORT_USAGE)
            return await self.export(channel, int(args[0]) if args else None, guild=guild)
        if word == "leaderboard":
            if len(args) > 2:
                raise Refusal(RefusalCode.LEADERBOARD_USAGE)
            game = next((a for a in args if a.lower() not in SCOPES), None)
            scope = next((a for a in args if a.lower() in SCOPES), None)
            return await self.leaderboard(game, scope, guild=guild)
        if word == "profile":
            return await self.profile(" ".join(args) if args else user, guild=guild)
        if word == "history":
            return await self.game_history(guild=guild)
        if word == "recap":
            if args and not (len(args) == 1 and args[0].isascii() and args[0].isdigit()):
                raise Refusal(RefusalCode.RECAP_USAGE)
            return await self._with_animation(await self._recap_here(channel, int(args[0]) if args else None, guild))
        if word == "replay":  # issue 25
            return await self._replay_here(channel, args, guild)
        if word == "undo":
            if len(args) > 1 or args and args[0].lower() not in UNDO_ANSWERS:
                raise Refusal(RefusalCode.UNDO_USAGE)
            return await self.undo(channel, user, UNDO_ANSWERS[args[0].lower()] if args else None)
        if word == "replace":
            return await self.replace(channel, user, args)
        if word == "hint":  # issue 25
            return await self.hint(channel, user)
        if word == "help":
            return await self._help(channel)
        table = await self._open_table(channel)
        adapters = [table.adapter] if table else list(self.games)
        for adapter in adapters:
            if word in adapter.verbs:
                return await self.act(channel, user, " ".join([adapter.verbs[word], *args]))
        raise self._unknown_command(line)

    async def _recap_here(self, channel: str, match_id: int | None, guild: str | None) -> Reply:
        """/recap: the recap (result line, final scoring picture with the VP chart) of this
        channel's last finished game, or of finished game ``match_id`` of this channel or server
        (the same games /export gives whole)."""
        if match_id is None:
            ended = await self.storage.history(channel=channel, limit=50)
            last = next((r for r in ended if r.status == "finished"), None)  # not an abandoned one
            if last is None:
                raise Refusal(RefusalCode.NO_FINISHED_HERE)
            match_id = last.id
        else:
            record = await self.storage.get_match(match_id)
            if record is None or not (record.channel == channel or (guild is not None and record.guild == guild)):
                raise Refusal(RefusalCode.NO_FINISHED_GAME, id=match_id)
        return await self.recap(match_id)

    async def _with_animation(self, reply: Reply) -> Reply:
        """/recap as a typed line (the offline table): the recap with its animated picture (issue 25)
        as the reply's file; the picture alone is missed, not the recap, if it cannot be drawn."""
        if reply.ok and reply.match_id is not None:
            animated = await self.animated_recap(reply.match_id)
            reply.file = animated.file if animated.ok else None
            reply.public += animated.public if animated.ok else []
        return reply

    @staticmethod
    def _unknown_command(line: str) -> Refusal:
        return Refusal(RefusalCode.UNKNOWN_COMMAND, line=quote(line))

    async def _help(self, channel: str) -> Reply:
        table = await self._open_table(channel)
        lines = [_("Table commands: {commands}.", commands=names_text(HOST_COMMANDS))]
        for adapter in [table.adapter] if table else list(self.games):
            if adapter.verbs:
                lines.append(_("{game} moves: {verbs}.", game=adapter.title, verbs=names_text(adapter.verbs)))
        lines.append(_("Records: {commands}.", commands=names_text(RECORD_COMMANDS)))
        return Reply(public=lines)

