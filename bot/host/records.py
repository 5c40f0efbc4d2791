"""Records (issue 17): leaderboard, profile, finished games and a finished game's recap."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.games import GameAdapter
from bot.host.common import SCOPES, names_text
from bot.host.guard import host_call
from bot.host.hints import hints_note
from bot.host.ratings import Standing, result_of
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import Attachment, Reply, Table
from bot.host.tables import HostBase
from bot.host.turntimes import TurnClock, TurnSummary, duration_text, turn_clock
from bot.i18n import _, ngettext
from bot.i18n.text import quote
from bot.storage import MatchRecord, rebuild

log = logging.getLogger("bot.host.service")  # one logger for the host, whichever module says it


class RecordsMixin(HostBase):
    """What the tables remember (:mod:`bot.host.ratings`), said for people."""

    @staticmethod
    def _rating_text(st: Standing) -> str:
        return _("{ordinal} (μ {mu} ± {sigma})", ordinal=f"{st.ordinal:.1f}", mu=f"{st.mu:.1f}",
                 sigma=f"{st.sigma:.1f}")

    def _game_adapter(self, game: str | None) -> GameAdapter[Any]:
        adapter = self.games.get(game or self.games.default or "")
        if adapter is None:
            raise Refusal(RefusalCode.UNKNOWN_GAME, game=quote(game or ""), games=names_text(self.games.ids()))
        return adapter

    @host_call()
    async def leaderboard(self, game: str | None = None, scope: str | None = None, *,
                          guild: str | None = None, limit: int = 20) -> Reply:
        """The ratings of ``game`` (default: the first game) on this server (``scope`` ``server``,
        the default where there is a server) or on ``all``: rank, name, ordinal (μ ± σ), games.
        ``Reply.standings`` holds the :class:`bot.host.ratings.Standing` rows for a picture or embed."""
        adapter = self._game_adapter(game)
        scope = (scope or ("server" if guild is not None else "all")).lower()
        if scope not in SCOPES:
            raise Refusal(RefusalCode.BAD_SCOPE, scope=quote(scope))
        where = guild if scope == "server" else None
        rows = await self.records.leaderboard(adapter.game_cls.GAME_ID, where)
        title = (_("{game} leaderboard, this server", game=adapter.title) if where is not None
                 else _("{game} leaderboard, all servers", game=adapter.title))
        lines = [title]
        if not rows:
            lines.append(_("Nobody has finished a rated game yet."))
        for st in rows[:limit]:
            lines.append(ngettext("{rank}. {name}: {rating}, {count} game",
                                  "{rank}. {name}: {rating}, {count} games", st.games, rank=st.rank,
                                  name=st.name, rating=self._rating_text(st), count=st.games))
        return Reply(public=lines, game=adapter.game_cls.GAME_ID, names=[st.name for st in rows[:limit]],
                     standings=rows[:limit], image=await self._leaderboard_image(title, rows[:limit]))

    async def _leaderboard_image(self, title: str, rows: Sequence[Standing]) -> Attachment | None:
        """The leaderboard picture (renderer/leaderboard.py), or ``None`` (images off, nobody rated,
        or the renderer failed: the lines say it all)."""
        if not self.images or not rows:
            return None
        from renderer.leaderboard import render_leaderboard  # Pillow only where pictures are drawn

        data = [{"rank": st.rank, "name": st.name, "ordinal": st.ordinal, "mu": st.mu, "sigma": st.sigma,
                 "games": st.games} for st in rows]
        try:
            png = await asyncio.to_thread(functools.partial(render_leaderboard, title, data, tr=_, ntr=ngettext))
        except Exception:
            log.exception("rendering the leaderboard failed")
            return None
        return Attachment(png, "meadhall-leaderboard.png")

    async def _turn_clock(self, record: MatchRecord) -> TurnClock | None:
        """The turn times of a match (:mod:`bot.host.turntimes`), a finished one's kept; ``None``
        when its game is not installed or its log does not replay."""
        cached = self.turn_clocks.get(record.id)
        if cached is not None and record.status == "finished":
            return cached
        adapter = self.games.get(record.game)
        if adapter is None:
            return None
        actions = await self.storage.actions(record.id)
        try:
            clock = await asyncio.to_thread(turn_clock, adapter.game_cls, record, actions)
        except Exception:
            log.exception("timing the turns of match %s failed", record.id)
            return None
        if record.status == "finished":
            self.turn_clocks[record.id] = clock
        return clock

    async def _turn_lines(self, user: str, guild: str | None) -> dict[str, str]:
        """Per game: one profile line with ``user``'s median and longest time per turn over the
        finished games of ``guild`` (``None``: all) — issue 25."""
        per_game: dict[str, list[float]] = {}
        for record in await self.storage.finished_matches(guild=guild, snapshots=False):
            if record.seat_of(user) is None and not any(
                    r.get("user") == user for r in record.options.get("host", {}).get("replaced", [])):
                continue
            clock = await self._turn_clock(record)
            if clock is not None:
                per_game.setdefault(record.game, []).extend(clock.of_user(user))
        out: dict[str, str] = {}
        for game, seconds in per_game.items():
            summary = TurnSummary.of(seconds)
            if summary is not None:
                out[game] = self._summary_text(summary)
        return out

    @staticmethod
    def _summary_text(summary: TurnSummary) -> str:
        return ngettext("time per turn: median {median}, longest {longest} ({count} turn)",
                        "time per turn: median {median}, longest {longest} ({count} turns)", summary.count,
                        median=duration_text(summary.median), longest=duration_text(summary.longest),
                        count=summary.count)

    @host_call()
    async def profile(self, who: str, *, guild: str | None = None) -> Reply:
        """A person's record (by user id or name): games and wins per game, rating here and on all
        servers, best and average final VP, the most recent games with their links."""
        prof = await self.records.profile(who, guild)
        if prof is None or not prof.games:
            raise Refusal(RefusalCode.NO_GAMES, name=quote(who))
        lines = [_("Profile of {name}", name=prof.name)]
        if prof.computer:  # D-ratings-1: fixed ratings, never listed
            lines.append(_("{name} is a computer player: computer players are not rated.", name=prof.name))
        times = {} if prof.computer else await self._turn_lines(prof.user, guild)  # issue 25: people only
        for game, rec in prof.games.items():
            adapter = self.games.get(game)
            title = adapter.title if adapter else game
            lines.append(ngettext("{game}: {count} game, {wins} won", "{game}: {count} games, {wins} won",
                                  rec.games, game=title, count=rec.games, wins=rec.wins))
            if rec.rating is not None:
                lines.append(_("  rating {rating}", rating=self._rating_text(rec.rating)))
            if rec.rating_all is not None and guild is not None:
                lines.append(_("  rating on all servers {rating}", rating=self._rating_text(rec.rating_all)))
            if rec.best_vp is not None:
                lines.append(_("  final VP: best {best}, average {average}", best=rec.best_vp,
                               average=f"{rec.average_vp:.1f}"))
            if game in times:
                lines.append(f"  {times[game]}")
        lines.append(_("Most recent games:"))
        for g in prof.recent:
            adapter = self.games.get(g.game)
            when = datetime.fromtimestamp(g.ended, UTC).strftime("%Y-%m-%d")
            line = (_("  game {id} ({game}, {date}): won", id=g.match_id,
                      game=adapter.title if adapter else g.game, date=when) if g.won else
                    _("  game {id} ({game}, {date}): place {place} of {players}", id=g.match_id,
                      game=adapter.title if adapter else g.game, date=when, place=g.place, players=g.players))
            if g.vp is not None:
                line += _(", {vp} VP", vp=g.vp)
            if g.link:
                line += f" {g.link}"
            lines.append(line)
        return Reply(public=lines, names=[prof.name])

    @host_call()
    async def game_history(self, *, guild: str | None = None, limit: int = 20) -> Reply:
        """The finished games of this server (``guild``; ``None``: every game this host keeps),
        newest first: players with final VP, the winners, the link to its thread, and how to get
        its export (``/export ID``). ``Reply.file`` holds the same as tab-separated text."""
        entries = await self.records.history(guild, limit)
        lines = [_("Finished games:")] if entries else [_("No game has been finished here yet.")]
        rows = ["match	game	ended	players	winners	link	turn times"]
        names: list[str] = []
        for e in entries:
            rec = e.record
            adapter = self.games.get(rec.game)
            players = names_text([s.name + ("" if vp is None else f" {vp}")
                              for s, vp in zip(rec.seats, e.result.vps, strict=True)])
            when = datetime.fromtimestamp(rec.updated, UTC).strftime("%Y-%m-%d")
            line = _("game {id} ({game}, {date}): {players}; won by {winners}; export: /export {id}",
                     id=rec.id, game=adapter.title if adapter else rec.game, date=when, players=players,
                     winners=names_text(e.winners))
            line += hints_note(rec.options)  # issue 25
            lines.append(line + (f" {rec.link}" if rec.link else ""))
            times = await self._game_turn_times(rec)  # issue 25: each person's median and longest turn
            if times:
                lines.append("  " + _("time per turn: {times}", times="; ".join(times)))
            names += rec.names
            rows.append("\t".join([str(rec.id), rec.game, when, players, names_text(e.winners), rec.link or "",
                                   "; ".join(times)]))
        data = ("\n".join(rows) + "\n").encode("utf-8")
        return Reply(public=lines, names=names, file=Attachment(data, "meadhall-history.tsv"))

    async def _game_turn_times(self, record: MatchRecord) -> list[str]:
        """"NAME: median …, longest …" for each person who played turns of ``record`` (the name of
        the seat they played)."""
        clock = await self._turn_clock(record)
        if clock is None:
            return []
        out: list[str] = []
        for user in dict.fromkeys(t.user for t in clock.turns):
            summary = TurnSummary.of(clock.of_user(user))
            seat = next(t.seat for t in clock.turns if t.user == user)
            if summary is not None:
                out.append(_("{name}: median {median}, longest {longest}", name=record.seats[seat].name,
                             median=duration_text(summary.median), longest=duration_text(summary.longest)))
        return out

    @host_call()
    async def recap(self, match_id: int) -> Reply:
        """The recap of a finished match (issue 17), for a transport to post when a game ends (or
        later): ``public[0]`` one line with the result (the parent channel's line), ``image`` the
        final scoring picture with every player's VP by round, replayed from the stored log (the
        same picture the game-ending move's reply carries)."""
        record = await self.storage.get_match(match_id)
        if record is None or record.status != "finished":
            raise Refusal(RefusalCode.NO_FINISHED_GAME, id=match_id)
        adapter = self._game_adapter(record.game)
        actions = await self.storage.actions(record.id)
        game = rebuild(adapter.game_cls, record, actions[:-1])
        events = game.apply(actions[-1].seat, actions[-1].action) if actions else []
        result = result_of(adapter.game_cls, record)
        winners = names_text([record.seats[s].name for s in result.winners])
        line = _("{game}, game {id}: won by {winners}.", game=adapter.title, id=record.id, winners=winners)
        if all(vp is not None for vp in result.vps):
            line += " " + _("Final VP: {scores}.", scores=names_text(
                [f"{s.name} {vp}" for s, vp in zip(record.seats, result.vps, strict=True)]))
        line += hints_note(record.options)  # issue 25
        if record.link:
            line += f" {record.link}"
        image = await self._image(Table(record, adapter, game), game, record.version, events=events)
        return Reply(public=[line], image=image, names=list(record.names), match_id=record.id,
                     game=record.game, status=record.status, version=record.version)

