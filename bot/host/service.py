"""The host service: lobby, turns, storage and reminders for one table per channel.

Transport-agnostic: the Discord cog and the offline table both call a :class:`HostService` and
turn its :class:`Reply` values into messages. It never imports discord or PIL; everything
game-specific goes through the adapters of a :class:`bot.games.GameRegistry`.

API (every method is a coroutine; ``channel`` and ``user`` are opaque strings — Discord ids or
terminal names — and ``name`` is how people see a player)::

    svc = HostService(storage, registry, clock=time.time, reminder_delay=None, reminder_limit=3,
                      images=True, seed_source=None, cpu=None, shards=None)
                      # cpu: bot.processes.cpu.CpuPool; shards: bot.processes.shards.Shards this process serves
    await svc.load() -> int                              # warm up every unfinished table
    await svc.join(channel, user, name, *, guild=None, game=None) -> Reply
    await svc.leave(channel, user) -> Reply               # before the start only
    await svc.start(channel, user, game=None, options=(), *, seed=None, start_seat=None) -> Reply
    await svc.abandon(channel, user, *, is_admin=False) -> Reply  # creator/admin, or players' vote
    await svc.status(channel) -> Reply
    await svc.board(channel, user=None, *, private=False) -> Reply   # image + text of the table
    await svc.act(channel, user, text, *, version=None) -> Reply     # one game action
    await svc.rules(channel, topic=None, *, game=None) -> Reply
    await svc.export(channel, match_id=None, *, guild=None) -> Reply  # .file = the action log as text
    await svc.leaderboard(game=None, scope=None, *, guild=None) -> Reply   # issue 17 (bot.host.ratings)
    await svc.profile(who, *, guild=None) -> Reply        # who: user id or name
    await svc.game_history(*, guild=None) -> Reply        # finished games; .file = the list as TSV
    await svc.recap(match_id) -> Reply                    # result line + final scoring picture with VP chart
    await svc.replay_position(match_id, step=0, *, last=False, guild=None, channel=None, as_text=False) -> Reply
                                                          # issue 25: a finished game's position (.position)
    await svc.hint(channel, user) -> Reply                # issue 25: the search's advice, privately (bot.host.hints)
    await svc.animated_recap(match_id, *, guild=None, channel=None) -> Reply  # issue 25: .file = animated WebP
    await svc.analysis(match_id=None, *, guild=None, channel=None) -> Reply  # issue 31 (bot.host.analysis)
    await svc.request_analysis(match_id, channel=None) / run_analysis(match_id=None, progress=None)
    await svc.command(channel, user, line, *, name=None, guild=None, is_admin=False) -> Reply
    await svc.rematch_vote(match_id, user, name, *, guild=None, place=str) -> Reply  # issue 25 (bot.host.rematch)
    await svc.rematch_start(match_id, channel, *, guild=None, place=str, seed=None) -> Reply
    await svc.rematch_here(channel, user, *, seed=None) -> Reply  # the offline table: the last game again
    await svc.table(channel) -> Table | None              # read-only: record, adapter, live game
    await svc.move(channel, new_channel) -> bool          # the open table continues elsewhere
    await svc.history(channel=None, guild=None, limit=20) -> list[MatchRecord]
    await svc.replay(match_id) -> Game                    # rebuilt from seed + log
    await svc.due_reminders(now=None) -> list[Reminder]   # what to send now (and re-arms them)
    await svc.next_reminder_due() -> float | None
    await svc.pause(channel, why, *, parent=None) -> bool  # issue 29 (bot.host.lifecycle): place deleted, bot removed
    await svc.resume(channel, *, to=None) -> Reply        # the paused table goes on (table picture, prompts)
    await svc.resume_here(channel, guild) -> Reply        # /table resume
    await svc.pause_guild(guild) / resume_guild(guild)    # the bot removed from / invited back to a server
    await svc.status_here(channel, guild) -> Reply        # status, and the server's paused tables where none

Every refusal is a ``Reply`` with ``ok=False``, a ``code`` from :data:`REFUSALS` and the
translated sentence in ``private`` (show it to the actor only); nothing changes on a refusal.
Each refusal is a member of :class:`bot.host.refusals.RefusalCode` (its code, its message
template and the template's named parameters).
Success replies carry ``public`` lines (narration for everybody), ``prompts`` (who must decide
what next — the transport writes ``@name: text``), ``mentions`` (users to ping), ``image``
(rendered after the commit), ``events``, and the new ``version``. Actions are committed before
the reply exists. One lock per channel serialises everything that changes a table; a
``version`` given with ``act`` (from a button) must equal the table's version, and a repeated
click of the same button is answered ``duplicate`` and applied once.

Reminders: with ``reminder_delay`` seconds set, each seat that must act gets a durable
``reminder`` timer (re-armed at every action that changes who must act); ``due_reminders``
returns due ones whose seat still must act and re-arms them up to ``reminder_limit`` times.

Layout (issue 18): this module is the import facade; the service is split by concern in the
:mod:`bot.host` package, one mixin per concern over :class:`bot.host.tables.HostBase` (state,
table cache, pieces of replies):

=========================  ====================================================================
``bot.host.lobby``         join, leave, start, abandon, move
``bot.host.play``          act, forced moves, undo and replace glue (:mod:`bot.host.undo`, :mod:`bot.host.turns`)
``bot.host.looking``       status, board, rules
``bot.host.export``        export, history, replay
``bot.host.records``       leaderboard, profile, game_history, recap (issue 17)
``bot.host.replays``       replay_position: a finished game step by step (issue 25)
``bot.host.recap``         animated_recap: a finished game as one animated picture (issue 25)
``bot.host.commands``      command: a typed line to one of the calls above
``bot.host.rematch``       rematch_vote, rematch_start, rematch_here (issue 25)
``bot.host.reminders``     due_reminders, next_reminder_due
``bot.host.refusals``      :class:`RefusalCode`, :class:`Refusal`, :data:`REFUSALS`
``bot.host.guard``         ``@host_call(lock=...)``: lock the table, run, refusal → reply,
                           storage failure → ``storage_failed``
``bot.host.replies``       :class:`Reply`, :class:`Prompt`, :class:`Attachment`, :class:`Reminder`,
                           :class:`Table`
``bot.host.tables``        :class:`HostBase`: the state, the tables in memory, pieces of replies
``bot.host.turns``         deadlines and seat take-over (``/replace``), functions over the service
``bot.host.undo``          ``/undo``: what may be taken back, and agreement
``bot.host.protocol``      what turns and undo need of the service (protocols, not the mixins)
``bot.host.ratings``       ratings, profiles and history of finished games (issue 17)
``bot.host.turntimes``     turn times: each person's time per turn, how long a table waits (issue 25)
``bot.host.pings``         a person's ping setting (``settings``, ``defer_ping``, ``due_pings``; issue 25)
``bot.host.seats``         computer players at the table (``/addbot``, ``play_bots``)
``bot.host.analysis``      the analysis of a finished game (issue 31): queued jobs, run at low priority
``bot.host.hints``         ``/hint``: the search computer player's advice on a table with ``hints``
``bot.host.lifecycle``     pause, resume: a table whose place was deleted or whose server removed the bot (issue 29)
=========================  ====================================================================
"""

from __future__ import annotations

from bot.host.analysis import AnalysisMixin
from bot.host.commands import CommandsMixin
from bot.host.common import (
    COMPUTER_PREFIX,
    HOST_COMMANDS,
    MAX_FORCED_MOVES,
    MAX_NAME,
    RECORD_COMMANDS,
    SCOPES,
    is_computer,
    votes_needed,
)
from bot.host.guard import host_call, refused
from bot.host.lifecycle import LifecycleMixin
from bot.host.pings import PingsMixin
from bot.host.refusals import REFUSALS, Refusal, RefusalCode
from bot.host.rematch import RematchMixin
from bot.host.reminders import RemindersMixin
from bot.host.replies import Attachment, Prompt, Reminder, Reply, Table

_refused = refused  # the older name (bot.host.turns and helpers' branches used it)

__all__ = [
    "COMPUTER_PREFIX", "HOST_COMMANDS", "MAX_FORCED_MOVES", "MAX_NAME", "RECORD_COMMANDS", "REFUSALS", "SCOPES",
    "Attachment", "HostService", "Prompt", "Refusal", "RefusalCode", "Reminder", "Reply", "Table", "host_call",
    "is_computer", "refused", "votes_needed",
]


class HostService(LifecycleMixin, AnalysisMixin, RematchMixin, CommandsMixin, RemindersMixin, PingsMixin):
    """The host service (see the module's docstring): lobby, play, looking, export, records, text
    commands, rematches and reminders, one concern per :mod:`bot.host` module."""
