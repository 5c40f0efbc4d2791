"""Playing: one action of a seat (``act``), the forced moves after it, undo and replace glue."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.games import HOST_KEY, host_options
from bot.games.widgets import label_of
from bot.host import turns, undo
from bot.host.common import MAX_FORCED_MOVES, names_text, shortened
from bot.host.guard import host_call
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import Reply, Table
from bot.host.tables import HostBase
from bot.i18n import _, tr_msg
from bot.i18n.text import quote
from bot.storage import StaleVersionError, StorageUnavailable
from engine.core import (
    Action,
    ActionSyntaxError,
    EngineError,
    Event,
    Game,
    IllegalActionError,
    NotYourTurnError,
    json_copy,
)

log = logging.getLogger("bot.host.service")  # one logger for the host, whichever module says it


class PlayMixin(HostBase):
    """Moves: parse, check, apply, commit, narrate; forced moves; undo and replace (issue 17)."""

    @host_call(lock=True)
    async def act(
        self, channel: str, user: str, text: str, *, version: int | None = None, scoped: bool = False
    ) -> Reply:
        """Apply one action of ``user``'s seat; committed before this returns.

        ``version``: the table version the action was offered at (buttons); another version is
        refused as ``stale`` (``duplicate`` if it is this very action, already applied).
        ``scoped``: the version guards only this seat's own decision (its private choices while
        several seats decide at once, e.g. the Brian Boru draft): when since ``version`` only
        other seats moved, this seat still must act and the action is still legal, it is taken
        at the current version — decided here, under the table's lock, so that players deciding
        at the same moment never make each other's choices stale.
        """
        return await self._forced_moves(channel, await self._act(channel, user, text.strip(), version, scoped))

    async def _forced_moves(self, channel: str, reply: Reply) -> Reply:
        """After a change: a decision with exactly one legal choice is made at once for whoever
        owes it, committed and narrated like any move (issue 13), unless the table was started
        ``manual`` or the adapter says the choice is optional or would reveal something."""
        for _i in range(MAX_FORCED_MOVES):
            table = self._tables.get(channel)
            if not reply.ok or table is None or table.game is None or table.game.is_over:
                break
            if not host_options(table.record.options)["forced_moves"]:
                break
            game = table.game
            forced = next(((seat, a) for seat in game.acting_seats()
                           if (a := table.adapter.forced_action(game, seat)) is not None), None)
            if forced is None:
                break
            seat, action = forced
            name = table.record.seats[seat].name
            label = label_of(table.adapter, game, action)
            made = await self._act(channel, table.record.seats[seat].user, str(action), None)
            if not made.ok:  # an adapter offered what the engine refuses: leave it to the player
                log.error("table %s: forced move %r for seat %d refused: %s", channel, str(action), seat,
                          made.private)
                break
            reply = Reply(
                ok=True, code=made.code,
                public=[*reply.public, _("{name} had one choice, made for them: {choice}.", name=name,
                                         choice=label), *made.public],
                private=reply.private, prompts=made.prompts, mentions=made.mentions,
                image=made.image or reply.image, file=reply.file, events=[*reply.events, *made.events],
                match_id=made.match_id, game=made.game, status=made.status, version=made.version,
                names=made.names,
            )
        return reply

    async def _only_others_moved(self, table: Table, seat: int, version: int, text: str) -> bool:
        """Since ``version`` only other seats moved, ``seat`` still must act and ``text`` is legal."""
        game, rec = table.game, table.record
        if game is None or not 0 <= version < rec.version or seat not in game.acting_seats():
            return False
        try:
            if not game.is_legal(seat, text):
                return False
        except Exception:  # unreadable text: refused as stale like any other old click
            return False
        since = [a for a in await self.storage.actions(rec.id) if a.seq > version]
        return not any(a.seat == seat for a in since)

    async def _act(self, channel: str, user: str, text: str, version: int | None, scoped: bool = False) -> Reply:
        table, game = await self._need_game(channel)
        rec = table.record
        if rec.options.get(HOST_KEY, {}).get("halt") is not None:  # issue 29: paused (bot.host.lifecycle)
            raise Refusal(RefusalCode.TABLE_PAUSED)
        seat = self._need_seat(table, user)
        if version is not None and version != rec.version:
            last = table.last_action
            if last is not None and version == last[0] - 1 and last[1] == seat and last[2] == text:
                raise Refusal(RefusalCode.DUPLICATE)
            if not (scoped and await self._only_others_moved(table, seat, version, text)):
                raise Refusal(RefusalCode.STALE)
        if any(c.isdigit() and not c.isascii() for c in text):
            # "buy ١" must not become "buy 1" (int() reads every script's digits): no game's
            # actions use other digits than 0-9, whatever its parser makes of them
            raise Refusal(RefusalCode.MALFORMED, text=quote(text), reason=_("numbers are written with the digits 0 to 9"))
        try:
            action = game.parse_action(text)
        except ActionSyntaxError as e:
            raise Refusal(RefusalCode.MALFORMED, text=quote(text), reason=shortened(tr_msg(e.msg), text)) from None
        except Exception:  # any parser failure is the input's fault, never the host's end
            log.warning("parsing %r in match %s failed", quote(text), rec.id, exc_info=True)
            raise Refusal(RefusalCode.UNREADABLE, text=quote(text)) from None
        acting = game.acting_seats()
        free = seat not in acting
        if free and not self._is_free_action(game, seat, action):
            raise self._not_your_turn(table, acting)
        try:
            events = self._apply(channel, game, seat, action)
        except NotYourTurnError:
            raise self._not_your_turn(table, acting) from None
        except IllegalActionError as e:
            if e.rule:
                raise Refusal(RefusalCode.ILLEGAL_BY_RULE, reason=shortened(tr_msg(e.msg), text), rule=e.rule) from None
            raise Refusal(RefusalCode.ILLEGAL, reason=shortened(tr_msg(e.msg), text)) from None
        except EngineError as e:
            raise Refusal(RefusalCode.ILLEGAL, reason=shortened(str(e), text)) from None
        now = self.clock()
        status = "finished" if game.is_over else "active"
        new_version = rec.version + 1
        keep_timers = free and game.acting_seats() == acting
        timers = None if keep_timers else self._reminder_timers(table, game, new_version, now)
        snapshot = game.to_json()
        action_text = str(action)
        try:
            await self.storage.commit_action(
                rec.id, expected_version=rec.version, seat=seat, action=action_text, snapshot=snapshot,
                status=status, now=now, timers=timers,
            )
        except StorageUnavailable:
            table.game = table.adapter.game_cls.from_json(json_copy(rec.snapshot))  # back to the commit
            raise
        except StaleVersionError:
            self._uncache(channel)
            raise Refusal(RefusalCode.STALE) from None
        except BaseException:
            self._uncache(channel)  # the live game is ahead of the database: reload it
            raise
        rec.version, rec.snapshot, rec.status, rec.updated = new_version, snapshot, status, now
        table.last_action = (new_version, seat, text)
        public = table.adapter.narrate(game, events)
        if game.is_over:
            public += self._winner_lines(table, game)
            self._uncache(channel)
        prompts = self._prompts(table)
        return self._reply(
            table, public=public, prompts=prompts, mentions=[p.user for p in prompts], events=events,
            image=await self._image(table, game, new_version, events=events),
        )

    def _apply(self, channel: str, game: Game, seat: int, action: Action) -> list[Event]:
        try:
            return game.apply(seat, action)
        except EngineError:
            raise  # the protocol: nothing changed
        except BaseException:
            self._uncache(channel)  # an engine bug may have half-changed the live game
            raise

    @staticmethod
    def _is_free_action(game: Game, seat: int, action: Action) -> bool:
        """A kind of action the game lets any seat take at any time (``free_actions(seat)``,
        e.g. Vikings' ``exchange N``); the engine then judges the details (e.g. too many VP)."""
        return type(action) in {type(a) for a in game.free_actions(seat)}

    @staticmethod
    def _not_your_turn(table: Table, acting: list[int]) -> Refusal:
        names = [table.record.seats[s].name for s in acting]
        return Refusal(RefusalCode.NOT_YOUR_TURN, names=names_text(names), shown_names=table.record.names)

    # ------------------------------------------------------------------ undo, take-over (issue 17)

    @host_call(lock=True)
    async def undo(self, channel: str, user: str, answer: bool | None = None, *,
                   version: int | None = None) -> Reply:
        """Take back ``user``'s last move, or agree (``answer`` True) to / refuse (False) another
        player's request, given at table ``version`` (a button's) (:mod:`bot.host.undo`)."""
        return await undo.undo(self, channel, user, answer, version)

    @host_call(lock=True)
    async def replace(self, channel: str, user: str, words: Sequence[str]) -> Reply:
        """``replace NAME LEVEL|me|yes``: the table gives a seat to a computer or a person (:mod:`bot.host.turns`)."""
        return await turns.replace(self, channel, user, list(words))

