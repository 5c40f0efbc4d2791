"""Per-game knowledge the host needs, behind one small adapter protocol, and their registry.

The host service (``bot.host.service``) knows nothing about any particular game: everything
game-specific goes through a :class:`GameAdapter`:

=================================  ===========================================================
``game_cls``                       the ``engine.core.Game`` subclass (``GAME_ID``, seat limits)
``title``                          the game's name for people ("Vikings")
``verbs``                          command word → action verb, for the text dispatcher
                                   (e.g. ``{"buy": "buy", "start-tile": "start"}``)
``parse_options(words)``           option words → the engine's options dict; raises
                                   :class:`OptionError` with a translated message
``describe_options(options)``      one line for people ("basic game", "auction, specials")
``narrate(game, events)``          the engine's events → short sentences (already translated)
``prompt(game, seat)``             what that seat must decide now, without the mention
                                   ("buy a combo"); the transport adds "@alice: "
``text(game, seat=None)``          the table as text (the offline table prints it)
``render(game, seat=None)``        PNG bytes of the table, or ``None`` (no image). Called in a
                                   worker thread; must not keep references to ``game``
``notation(game)``                 the game's notation for ``export`` (or ``None``); public
``public_action(text)``            a logged action as every player may see it while the game
                                   runs (``export``): a hidden decision (Brian Boru's ``keep``)
                                   is written as hidden; the default shows the text
``rules(topic)``                   lines of rules summary (``topic=None``) or one rule
                                   ("V-14"); raises ``KeyError`` for an unknown topic
``text_key()``                     a line explaining the codes of ``text`` (or ``None``)
``forced_action(game, seat)``      the action the host may make for ``seat`` at once because it
                                   is the only legal choice, or ``None`` (the default): never
                                   when the choice is optional or making it would reveal hidden
                                   information (e.g. a hand with a single playable card)
``picture(game, *, seat, board,    the chat picture (issue 14): turn picture, scoring picture, or
events, replay, focus)``           with ``board`` the full table (``focus``: one player large);
                                   default: ``render(game, seat=seat)``. Worker thread/process
``needs_replay(game, events)``     ``picture`` of this move wants ``replay`` (the action log);
                                   default ``False``
``describe_action(game, action)``  an action's label on a button (default: its text)
``widgets(game, seat)``            the seat's own controls (:class:`bot.games.widgets.Widget`), or
                                   ``None`` (the default) for :func:`bot.games.widgets.default_widgets`
``private_choices(game, seat)``    the seat's choices show hidden information: offered to it
                                   privately only (default ``False``)
``private_text(game, seat)``       what only ``seat`` may see as text (default: ``text``)
``private_image(game, seat)``      what only ``seat`` may see as a picture, or ``None`` (default)
``button_prompt(game, seat)``      the prompt where choices are buttons (never a command to type),
                                   or ``None`` (the default): the service's ``prompt`` text
``confirm(game, seat, action)``    a question to confirm before a picked action commits, or
                                   ``None`` (the default: no question)
``trips(game, seat)``              whole multi-step choices ``(key, label, actions)`` offered as
                                   one (Vikings' sailor trip, V-34); default ``[]``
``message_group(game)``            a key: consecutive messages with the same key are one message
                                   on Discord (a Brian Boru trick), or ``None`` (default)
``scoring_events``                 event kinds told as a scoring's own message (default ``()``)
``scoring_pictured(game, events)`` this move's picture is the scoring picture (default ``False``)
``free_actions_placeholder``       the placeholder of the free actions' select (an ``N_``
                                   message id), or ``None`` (default: "At any time")
``hidden_shown``                   what a move may show that was hidden, for the undo refusal
                                   (an ``N_`` message id; default "something no player had seen")
``option_words``                   table option words offered while ``/start`` is typed (default:
                                   the engine's declared ``game_cls.INFO.options``)
``describe_verb(word)``            a verb command's own description, or ``None`` (default)
``revealed(game)``                 lines saying what was hidden at this position (hands, the order
                                   of stacks), for the replay of a *finished* game only (issue 25);
                                   default ``[]``
``recap_frame(position)``          the animated recap's frame (:class:`renderer.recap.Frame`)
                                   after one replayed move (a :class:`Position`), or ``None``: no
                                   frame there (issue 25). Default: a frame at the start, at
                                   each change of the player to act, at a finished scoring and
                                   at the end, each the chat picture of that position (public)
=================================  ===========================================================

Table options that are the host's, not the game's (:data:`HOST_OPTION_WORDS`, e.g. ``manual``),
are kept in the options under :data:`HOST_KEY`; :func:`engine_options` strips them before an
engine sees the options, :func:`host_options` reads them with their defaults.

:class:`BaseAdapter` gives every method a plain default, so an adapter overrides what it has;
callers call every hook directly (a test forbids finding them with ``getattr``/``hasattr``).
:class:`GameRegistry` maps game ids to adapters; the first registered game is the default one
a new table gets.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from bot.i18n import N_, SOURCE_LANGUAGE, _, available_languages
from bot.i18n.text import quote
from engine.core import Action, Event, Game
from engine.players import ALIASES as COMPUTER_ALIASES
from engine.players import LEVELS as COMPUTER_LEVELS
from engine.players import canonical_level

if TYPE_CHECKING:
    from bot.games.widgets import PlanDialog, Widget
    from renderer.recap import Frame


class OptionError(ValueError):
    """Option words a game does not understand; ``str(error)`` is the translated message."""


HOST_KEY = "host"
HOST_OPTION_DEFAULTS: dict[str, Any] = {"forced_moves": True, "deadline": None, "level": "normal",
                                        "language": None, "hints": False}
HOST_OPTION_WORDS: dict[str, dict[str, Any]] = {
    # every decision is asked, even one with a single legal choice (issue 13: "a table option
    # may turn this off")
    "manual": {"forced_moves": False},
    # issue 25: /hint is allowed (the players agreed to be coached by the search computer player)
    "hints": {"hints": True},
}


# issue 17: "deadline:12h" (minutes to days) and "level:normal" (the computer player that moves
# for a seat after its deadline; issue 30: an old name, level:heuristic or level:search, is taken
# as its new one) are host options with a value
DEADLINE_UNITS = {"m": 60, "h": 3600, "d": 86400}
DEADLINE_MIN, DEADLINE_MAX = 60, 30 * 86400  # 1 minute … 30 days (a bound, not a rule)


def parse_deadline(text: str) -> int:
    """``"30m"``, ``"12h"``, ``"2d"`` → seconds; raises :class:`OptionError`."""
    m = re.fullmatch(r"(\d{1,6})([mhd])", text.strip().lower())
    if m is None or not DEADLINE_MIN <= int(m[1]) * DEADLINE_UNITS[m[2]] <= DEADLINE_MAX:
        raise OptionError(_("A deadline is minutes, hours or days from 1m to 30d, like deadline:30m, "
                            "deadline:12h or deadline:2d; not “{text}”.", text=text[:40]))
    return int(m[1]) * DEADLINE_UNITS[m[2]]


# issue 16: the table's language ("lang:pl"), chosen at the start: its public messages, narration,
# pictures, reminders and buttons speak it. Each language is named in itself (a player looks for
# their own language's name, whatever language the menu is in).
LANGUAGE_NAMES = {"en": "English", "pl": "Polski", "fi": "Suomi", "cs": "Čeština", "es": "Español", "de": "Deutsch"}


def table_languages() -> list[str]:
    """The languages a table may speak: English and every language with a compiled catalog (those
    of :data:`LANGUAGE_NAMES` in its order, then any other)."""
    known = {SOURCE_LANGUAGE, *available_languages()}
    return [*(lang for lang in LANGUAGE_NAMES if lang in known), *sorted(known - set(LANGUAGE_NAMES))]


def language_name(lang: str) -> str:
    return LANGUAGE_NAMES.get(lang, lang)


def parse_language(code: str) -> str:
    """``"pl"`` (also ``"PL"``, ``"pl-PL"`` → ``"pl"`` when only ``pl`` exists) → a table language;
    raises :class:`OptionError`."""
    text = code.strip().replace("-", "_")
    known = table_languages()
    for candidate in (text, text.lower(), text.split("_")[0].lower()):
        if candidate in known:
            return candidate
    raise OptionError(_("There is no language “{lang}”. Languages: {langs}.", lang=code[:40],
                        langs=", ".join(f"lang:{k} ({language_name(k)})" for k in known)))


def table_language(options: Mapping[str, Any]) -> str | None:
    """The language a table was started in (``None``: none stored, e.g. a lobby or an older table)."""
    host = options.get(HOST_KEY)
    lang = host.get("language") if isinstance(host, Mapping) else None
    return lang if isinstance(lang, str) else None


def split_option_words(words: Sequence[str]) -> tuple[list[str], dict[str, Any]]:
    """The game's option words, and the host's options the other words set (raises
    :class:`OptionError` for a host option with a bad value)."""
    game_words, host = [], {}
    for w in words:
        key = w.lower().strip(",")
        if key in HOST_OPTION_WORDS:
            host.update(HOST_OPTION_WORDS[key])
        elif key.startswith("deadline:"):
            host["deadline"] = parse_deadline(key.removeprefix("deadline:"))
        elif key.startswith("level:"):
            level = key.removeprefix("level:")
            try:
                host["level"] = canonical_level(level)
            except ValueError:
                raise OptionError(_("There is no computer level “{level}”. Levels: {levels}.",
                                    level=level[:40], levels=", ".join(COMPUTER_LEVELS))) from None
        elif key.startswith("lang:"):
            host["language"] = parse_language(w.strip(",")[len("lang:"):])
        else:
            game_words.append(w)
    return game_words, host


def engine_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options as the engine takes them (without the host's)."""
    return {k: v for k, v in options.items() if k != HOST_KEY}


def host_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The host's options of a table, defaults filled in; a computer level stored under an old name
    (a table started before issue 30 with ``level:heuristic``) read as its new one."""
    host = {**HOST_OPTION_DEFAULTS, **options.get(HOST_KEY, {})}
    host["level"] = COMPUTER_ALIASES.get(host["level"], host["level"])
    return host


@dataclass
class Position:
    """One position of a replayed match (:func:`bot.games.replay.positions`, issue 25): after
    ``index`` of the log's ``total`` moves in force (0: the start), the last one ``action`` by
    ``seat`` with its ``events``. ``game`` is the live game, valid until the next position is taken
    (copy what you keep); ``acting_before`` and ``before`` (the public view) are of the position
    before that move (``before`` is ``None`` at the start). ``setup`` and ``moves`` are the match's
    (``moves[:index]`` led here), e.g. for a picture's ``replay``."""

    index: int
    total: int
    game: Game
    seat: int | None = None
    action: str | None = None
    events: list[Event] = field(default_factory=list)
    acting_before: tuple[int, ...] = ()
    before: Mapping[str, Any] | None = None
    setup: tuple[list[str], int, dict[str, Any] | None, int | None] | None = None
    moves: list[tuple[int, str]] = field(default_factory=list)

    @property
    def start(self) -> bool:
        return self.index == 0

    @property
    def replay(self) -> tuple[Any, list[tuple[int, str]]] | None:
        """``(setup, moves so far)``: what :meth:`GameAdapter.picture` takes as ``replay``."""
        return None if self.setup is None else (self.setup, self.moves[:self.index])


G = TypeVar("G", bound=Game)
"""The game an adapter hosts: each adapter's methods take its own engine's game."""


@runtime_checkable
class GameAdapter(Protocol[G]):
    game_cls: type[G]

    # read-only members (BaseAdapter and each adapter set them on the class)
    @property
    def title(self) -> str: ...

    @property
    def verbs(self) -> Mapping[str, str]: ...

    def parse_options(self, words: Sequence[str]) -> dict[str, Any]: ...

    def describe_options(self, options: Mapping[str, Any]) -> str: ...

    def narrate(self, game: G, events: Sequence[Event]) -> list[str]: ...

    def prompt(self, game: G, seat: int) -> str: ...

    def text(self, game: G, seat: int | None = None) -> str: ...

    def render(self, game: G, *, seat: int | None = None) -> bytes | None: ...

    def notation(self, game: G) -> str | None: ...

    def rules(self, topic: str | None) -> list[str]: ...

    def text_key(self) -> str | None: ...

    def forced_action(self, game: G, seat: int) -> Action | None: ...

    def public_action(self, text: str) -> str: ...

    # optional hooks: BaseAdapter's defaults say "nothing special"
    @property
    def scoring_events(self) -> Sequence[str]: ...

    @property
    def free_actions_placeholder(self) -> str | None: ...

    @property
    def hidden_shown(self) -> str: ...

    @property
    def option_words(self) -> Sequence[str]: ...

    def picture(self, game: G, *, seat: int | None = None, board: bool = False,
                events: Sequence[Event] = (), replay: Any = None, focus: int | None = None) -> bytes | None: ...

    def needs_replay(self, game: G, events: Sequence[Event]) -> bool: ...

    def describe_action(self, game: G, action: Action) -> str: ...

    def widgets(self, game: G, seat: int) -> list[Widget] | None: ...

    def private_choices(self, game: G, seat: int) -> bool: ...

    def private_text(self, game: G, seat: int) -> str: ...

    def private_image(self, game: G, seat: int) -> bytes | None: ...

    def button_prompt(self, game: G, seat: int) -> str | None: ...

    def confirm(self, game: G, seat: int, action: Action) -> str | None: ...

    def plan_dialog(self, game: G, seat: int, steps: Sequence[tuple[bool, Sequence[str]]], extra: bool, *,
                    picture: bool = False) -> PlanDialog | None: ...

    def message_group(self, game: G) -> str | None: ...

    def scoring_pictured(self, game: G, events: Sequence[Event]) -> bool: ...

    def describe_verb(self, word: str) -> str | None: ...

    def revealed(self, game: G) -> list[str]: ...
    def recap_frame(self, position: Position) -> Frame | None: ...


class BaseAdapter(Generic[G]):
    """Plain defaults for every :class:`GameAdapter` member except ``game_cls`` and ``title``."""

    game_cls: type[G]  # set by each adapter class (a ClassVar cannot hold a type variable)
    title: ClassVar[str]
    verbs: ClassVar[Mapping[str, str]] = {}

    @property
    def game_id(self) -> str:
        return self.game_cls.GAME_ID

    @property
    def option_words(self) -> tuple[str, ...]:
        """The game's table option words, as its engine declares them (``Game.INFO.options``);
        offered as /start's options are typed."""
        return self.game_cls.INFO.option_words

    def parse_options(self, words: Sequence[str]) -> dict[str, Any]:
        """The engine options the words set (``Game.INFO``); raises :class:`OptionError`."""
        info = self.game_cls.INFO
        if words and not info.options:
            raise OptionError(_("{game} has no options.", game=self.title))
        try:
            return info.options_from_words(words)
        except KeyError as e:
            raise OptionError(_("{game} has no option “{word}”. Options: {options}.", game=self.title,
                                word=quote(str(e.args[0])), options=", ".join(info.option_words))) from None

    def describe_options(self, options: Mapping[str, Any]) -> str:
        if not options:
            return _("basic game")
        return ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(options.items()))

    def narrate(self, game: G, events: Sequence[Event]) -> list[str]:
        lines = []
        for e in events:
            who = game.names[e.seat] if e.seat is not None else ""
            lines.append(f"{who} {e.kind}".strip())
        return lines

    def prompt(self, game: G, seat: int) -> str:
        choices = [str(a) for a in game.legal_actions(seat)[:5]]
        return _("your move ({choices})", choices=", ".join(choices)) if choices else _("your move")

    def text(self, game: G, seat: int | None = None) -> str:
        return json.dumps(game.view(seat), sort_keys=True)

    def render(self, game: G, *, seat: int | None = None) -> bytes | None:
        return None

    def notation(self, game: G) -> str | None:
        return None

    def public_action(self, text: str) -> str:
        return text

    def rules(self, topic: str | None) -> list[str]:
        if topic is None:
            return []
        raise KeyError(topic)

    def text_key(self) -> str | None:
        return None

    def forced_action(self, game: G, seat: int) -> Action | None:
        return None

    # ------------------------------------------------------------------ optional hooks

    scoring_events: ClassVar[Sequence[str]] = ()
    free_actions_placeholder: ClassVar[str | None] = None
    hidden_shown: ClassVar[str] = N_("something no player had seen")  # the undo refusal (issue 17)

    def picture(self, game: G, *, seat: int | None = None, board: bool = False,
                events: Sequence[Event] = (), replay: Any = None, focus: int | None = None) -> bytes | None:
        return self.render(game, seat=seat)

    def needs_replay(self, game: G, events: Sequence[Event]) -> bool:
        return False

    def describe_action(self, game: G, action: Action) -> str:
        return str(action)

    def widgets(self, game: G, seat: int) -> list[Widget] | None:
        return None

    def private_choices(self, game: G, seat: int) -> bool:
        return False

    def private_text(self, game: G, seat: int) -> str:
        return self.text(game, seat)

    def private_image(self, game: G, seat: int) -> bytes | None:
        return None

    def button_prompt(self, game: G, seat: int) -> str | None:
        return None

    def confirm(self, game: G, seat: int, action: Action) -> str | None:
        return None

    def plan_dialog(self, game: G, seat: int, steps: Sequence[tuple[bool, Sequence[str]]], extra: bool, *,
                    picture: bool = False) -> PlanDialog | None:
        """A decision ``seat`` may build in steps and send whole (:class:`bot.games.widgets.PlanDialog`):
        ``None`` when there is none now (Vikings: the sailor dialog of a major scoring, V-34)."""
        return None

    def message_group(self, game: G) -> str | None:
        return None

    def scoring_pictured(self, game: G, events: Sequence[Event]) -> bool:
        return False

    def describe_verb(self, word: str) -> str | None:
        return None

    def revealed(self, game: G) -> list[str]:
        return []
    def recap_frame(self, position: Position) -> Frame | None:
        """The recap's frame after ``position`` (issue 25): at the start, when the player to act
        changed, when a scoring finished (held longer) and at the end; the picture is the chat
        picture every player saw there (``picture`` with ``seat=None``). ``None``: no frame here."""
        from bot.games.recap import default_frame  # Pillow only where pictures are drawn

        return default_frame(self, position)


class GameRegistry:
    """Game id → adapter. ``default`` is the first registered game id (or ``None``)."""

    def __init__(self, adapters: Sequence[GameAdapter[Any]] = ()) -> None:
        self._adapters: dict[str, GameAdapter[Any]] = {}
        for adapter in adapters:
            self.register(adapter)

    def register(self, adapter: GameAdapter[Any]) -> None:
        game_id = adapter.game_cls.GAME_ID
        if game_id in self._adapters:
            raise ValueError(f"game {game_id!r} is registered twice")
        self._adapters[game_id] = adapter

    def get(self, game_id: str) -> GameAdapter[Any] | None:
        return self._adapters.get(game_id)

    def __getitem__(self, game_id: str) -> GameAdapter[Any]:
        return self._adapters[game_id]

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._adapters

    def __iter__(self) -> Iterator[GameAdapter[Any]]:
        return iter(self._adapters.values())

    def ids(self) -> list[str]:
        return list(self._adapters)

    @property
    def default(self) -> str | None:
        return next(iter(self._adapters), None)
