"""Why the host says no: :class:`RefusalCode`, :class:`Refusal` and :data:`REFUSALS` (issue 18).

Every refusal the host gives is one member of :class:`RefusalCode`. A member carries

* ``code`` — the stable string code (``"no_table"``, ``"stale"`` …) that replies, logs, stored
  data and tests see as ``Reply.code``/``Refusal.code``; several members may share a code when the
  same kind of refusal is said in different words (there is no table, no game to show, no game to
  export … are all ``no_table``);
* ``template`` — the English sentence, a message id for translation (marked with ``N_``) whose
  ``str.format`` placeholders are named;
* ``params`` — the names of those placeholders, which the raiser must give, no more and no fewer.

``Refusal(RefusalCode.TABLE_FULL, max=5)`` translates the template into the current language at
once (the same moment as ``_()`` was called before) and raises :class:`TypeError` when a
parameter is missing or unknown; ``shown_names`` are players' names the message shows (see
``Reply.names``). :data:`REFUSALS` lists the codes, in the order they were documented.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from enum import Enum

from bot.i18n import N_, _


def _placeholders(template: str) -> tuple[str, ...]:
    """The named ``str.format`` fields of ``template``, in order of first use."""
    names: list[str] = []
    for _text, field, _spec, _conv in string.Formatter().parse(template):
        if field is not None and field not in names:
            names.append(field)
    return tuple(names)


class RefusalCode(Enum):
    """One way of saying no: ``(code, template, params)``; see the module's docstring."""

    code: str
    template: str
    params: tuple[str, ...]

    def __init__(self, code: str, template: str, params: tuple[str, ...]) -> None:
        self.code = code
        self.template = template
        self.params = params

    # no table (or no game to show/export) in this channel
    NO_TABLE = "no_table", N_("There is no table in this channel. Use /join to open one."), ()
    NO_GAME_TO_SHOW = "no_table", N_("There is no game to show in this channel."), ()
    NO_GAME_TO_EXPORT = "no_table", N_("There is no game to export in this channel."), ()
    NO_FINISHED_GAME = "no_table", N_("There is no finished game {id}."), ("id",)
    NO_RECAP = "no_table", N_("Game {id} has no pictures, so it has no animated recap."), ("id",)  # issue 25
    ANALYSIS_RUNNING = "no_table", N_("Game {id} is being analysed right now; ask again in a minute."), ("id",)  # issue 31
    ANALYSIS_FAILED = "no_table", N_("The analysis of game {id} could not be made."), ("id",)  # issue 31
    NO_FINISHED_HERE = "no_table", N_("No game has been finished in this channel yet."), ()
    # the table is still a lobby
    NOT_STARTED = "not_started", N_("The game has not started yet."), ()
    # join/start/leave… on a running game
    NO_MORE_SEATS = "already_started", N_("The game has already started; no more seats."), ()
    CANNOT_LEAVE = "already_started", N_(
        "The game has already started; you cannot leave it. Use abandon to end it."), ()
    ALREADY_STARTED = "already_started", N_("The game has already started."), ()
    # join twice (or take a seat one already has)
    ALREADY_SEATED = "already_seated", N_("You already have a seat at this table."), ()
    # join beyond the game's MAX_PLAYERS
    TABLE_FULL = "table_full", N_("The table is full ({max} seats)."), ("max",)
    # join naming another game than the lobby's
    OTHER_GAME = "other_game", N_("This table is set up for {game}."), ("game",)
    # start below MIN_PLAYERS
    TOO_FEW_PLAYERS = "too_few_players", N_("{game} needs at least {min} players; {count} joined."), (
        "game", "min", "count")
    # start a game whose MAX_PLAYERS is below the seats taken
    TOO_MANY_PLAYERS = "too_many_players", N_("{game} seats at most {max} players; {count} joined."), (
        "game", "max", "count")
    # no adapter for that game id
    UNKNOWN_GAME = "unknown_game", N_("I do not know the game {game}. I know: {games}."), ("game", "games")
    GAME_NOT_OFFERED = "unknown_game", N_(
        "This channel's table plays {game}, which this host does not offer now."), ("game",)
    # option words the game does not accept (the reason is the adapter's translated OptionError)
    BAD_OPTIONS = "bad_options", "{reason}", ("reason",)
    NO_SEAT = "bad_options", N_("There is no seat {seat}."), ("seat",)
    OPTIONS_DO_NOT_WORK = "bad_options", N_("These options do not work: {reason}"), ("reason",)
    REPLACE_USAGE = "bad_options", N_(
        "Write replace NAME LEVEL (a computer player: {levels}), replace NAME me (you take the seat) or "
        "replace NAME yes (you support the request)."), ("levels",)
    NO_LEVEL = "bad_options", N_("There is no computer level “{level}”. Levels: {levels}."), ("level", "levels")
    ALREADY_PLAYED_THAT_WAY = "bad_options", N_("The seat of {name} is already played that way."), ("name",)
    # not seated at this table
    NOT_PLAYER = "not_player", N_("You are not a player at this table."), ()
    # a NAME naming nobody at this table (/board player:NAME, replace NAME …)
    UNKNOWN_PLAYER = "unknown_player", N_("There is no player called {name} at this table."), ("name",)
    # abandon by someone who may not (and cannot vote)
    NOT_ALLOWED = "not_allowed", N_(
        "Only the table's creator or an admin can abandon it; players of a running game can vote to "
        "abandon."), ()
    # a second vote by the same player
    ALREADY_VOTED_ABANDON = "already_voted", N_("You have already voted to abandon."), ()
    ALREADY_VOTED = "already_voted", N_("You have already voted for this."), ()
    # the seat owes no decision now
    NOT_YOUR_TURN = "not_your_turn", N_("It is not your turn; waiting for {names}."), ("names",)
    # the text is no action of this game
    MALFORMED = "malformed", N_("I cannot read “{text}” as a move: {reason}."), ("text", "reason")
    UNREADABLE = "malformed", N_("I cannot read “{text}” as a move of this game."), ("text",)
    # issue 25: /table settings pings: and hours: that do not go together
    PING_CHOICE = "malformed", N_(
        "Pings: choose every turn, only after N hours or reminders only, not {choice}."), ("choice",)
    PING_HOURS = "malformed", N_(
        "Only after how many hours? Give hours: a whole number from 1 to {max}, not {hours}."), ("hours", "max")
    PING_HOURS_ALONE = "malformed", N_(
        "Hours go with pings: only after N hours; nothing was changed."), ()
    # a well-formed action the rules forbid now
    ILLEGAL = "illegal", N_("That move is not allowed: {reason}."), ("reason",)
    ILLEGAL_BY_RULE = "illegal", N_("That move is not allowed: {reason} ({rule})."), ("reason", "rule")
    # a button of an older version of the table
    STALE = "stale", N_("The table has changed since that message. Please choose again from the latest one."), ()
    # the same button clicked again after it was applied
    DUPLICATE = "duplicate", N_("That move was already made."), ()
    # rules topic the game does not know
    UNKNOWN_RULE = "unknown_rule", N_("{game} has no rule {topic}."), ("game", "topic")
    # command() could not read the line
    UNKNOWN_COMMAND = "unknown_command", N_("I do not know the command “{line}”. Try /help."), ("line",)
    EXPORT_USAGE = "unknown_command", N_("Write /export, or /export ID of a finished game."), ()
    LEADERBOARD_USAGE = "unknown_command", N_("Write /leaderboard [game] [server|all]."), ()
    RECAP_USAGE = "unknown_command", N_("Write /recap, or /recap ID of a finished game."), ()
    # the database could not be written (or read) just now; nothing changed
    NOT_SAVED = "storage_failed", N_("That could not be saved, so nothing changed. Please try again in a moment."), ()
    NOT_READ = "storage_failed", N_("The table could not be read just now. Please try again in a moment."), ()
    # /leaderboard with a scope other than server or all
    BAD_SCOPE = "bad_scope", N_("The scope is server or all, not {scope}."), ("scope",)
    # /profile of somebody who finished no game (here)
    NO_GAMES = "no_games", N_("{name} has not finished a game here yet."), ("name",)
    # issue 17 (bot.host.undo): the player has no move in force to take back
    UNDO_NOTHING = "undo_nothing", N_("You have no move to take back."), ()
    # undo: chance was used since that move
    UNDO_RANDOM = "undo_random", N_(
        "That move cannot be taken back: it used chance (something was shuffled or drawn)."), ()
    # undo: something hidden was shown since (tile turned, viking drawn, card seen)
    UNDO_REVEALED = "undo_revealed", N_(
        "That move cannot be taken back: it showed something hidden ({what})."), ("what",)
    # undo: the host cannot tell whether something hidden was shown
    UNDO_UNSURE = "undo_unsure", N_(
        "That move cannot be taken back: I cannot tell whether it showed something hidden."), ()
    # replace NAME yes: there is no such request
    NO_REQUEST = "no_request", N_("There is no request to replace {name}."), ("name",)
    # undo yes|no: no undo request stands (issue 17)
    NO_UNDO_REQUEST = "no_request", N_("There is no request to take back a move now."), ()
    # undo yes|no by a player whose agreement the request does not need
    UNDO_NOT_ASKED = "undo_not_asked", N_("Only {names} may answer this request to take back a move."), ("names",)
    # undo yes: this player already agreed
    UNDO_ALREADY_AGREED = "already_voted", N_("You have already agreed to take back that move."), ()
    # undo with another word than yes or no
    UNDO_USAGE = "unknown_command", N_("Write undo, undo yes or undo no."), ()
    # issue 25 (bot.host.replays): no such game of this server (unknown, deleted or another server's)
    REPLAY_UNKNOWN = "no_table", N_("There is no game {id} of this server to replay."), ("id",)
    # replay of a game that is not finished (running, abandoned, a lobby): said the same whatever it hides
    REPLAY_NOT_FINISHED = "not_finished", N_(
        "Game {id} is not finished: only a finished game can be replayed, since a replay shows everything "
        "that was hidden."), ("id",)
    REPLAY_NO_STEP = "bad_step", N_("Game {id} has steps 0 to {last}; there is no step {step}."), (
        "id", "last", "step")
    REPLAY_BROKEN = "storage_failed", N_("The action log of game {id} does not replay, so it cannot be shown."), ("id",)
    REPLAY_USAGE = "unknown_command", N_("Write /replay ID or /replay ID STEP (a finished game of this server)."), ()
    # a replay button whose custom id cannot be read (damaged, or from another version of the bot)
    REPLAY_BAD_BUTTON = "malformed", N_(
        "This replay button cannot be read. Open the replay again with /records replay."), ()
    # issue 25: /hint on a table started without the option hints
    HINTS_OFF = "hints_off", N_(
        "This table was started without hints: a rated game is not coached unless everyone agreed. "
        "A table started with the option hints allows /hint."), ()
    # /hint after the game's end
    HINT_GAME_OVER = "game_over", N_("The game is over; a hint is for a decision still to make."), ()

    # issue 25 (bot.host.rematch): the Rematch button of a finished game
    REMATCH_NO_GAME = "no_table", N_("There is no finished game {id} to play again here."), ("id",)
    REMATCH_NOT_PLAYER = "not_player", N_("Only the people who played game {id} can ask for its rematch."), ("id",)
    REMATCH_ASKED = "already_voted", N_("You have already asked for this rematch; waiting for {names}."), ("names",)
    REMATCH_STARTED = "already_started", N_("The rematch has already started: {place}."), ("place",)
    REMATCH_WAITING = "not_started", N_("The rematch starts when everybody has asked; waiting for {names}."), (
        "names",)
    REMATCH_TABLE_OPEN = "already_started", N_(
        "This channel has a table already: the rematch can start here once it is finished or abandoned."), ()

    # issue 29: a table paused because its thread or channel was deleted, or the bot removed
    TABLE_PAUSED = "paused", N_("This table is paused; /table resume in its channel reopens it."), ()
    NOTHING_PAUSED = "nothing_paused", N_("No table of this server is paused."), ()
    RESUME_TABLE_OPEN = "already_started", N_(
        "This channel has a table already: resume the paused one in another channel."), ()

    @classmethod
    def by_code(cls, code: str) -> RefusalCode:
        """The first member with string ``code`` (e.g. an undo blocker's code); ``KeyError`` if none."""
        for member in cls:
            if member.code == code:
                return member
        raise KeyError(code)


REFUSALS: tuple[str, ...] = tuple(dict.fromkeys(member.code for member in RefusalCode))


class Refusal(Exception):
    """The host says no: ``code`` (the string code), ``message`` (translated), ``names`` (players'
    names the message shows), ``kind`` (the :class:`RefusalCode`) and ``params``."""

    def __init__(self, kind: RefusalCode, /, *, shown_names: Sequence[str] = (), **params: object) -> None:
        if not isinstance(kind, RefusalCode):
            raise TypeError(f"a refusal is a RefusalCode member, not {kind!r}")
        if set(params) != set(kind.params):
            missing, extra = set(kind.params) - set(params), set(params) - set(kind.params)
            raise TypeError(f"refusal {kind.name} takes {', '.join(kind.params) or 'no parameters'}; "
                            f"missing {sorted(missing)}, unknown {sorted(extra)}")
        self.kind = kind
        self.code = kind.code
        self.params = params
        self.message = _(kind.template, **params)
        self.names = list(shown_names)  # players' names the message shows (see Reply.names)
        super().__init__(self.message)
