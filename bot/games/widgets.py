"""Pending decisions as transport-neutral widgets: buttons, a select, or a multi-select.

A transport (the Discord adapter) shows the decision of a seat that must act as widgets and
turns what the player picks back into one action text for ``HostService.act``. By default the
widgets are built from the engine's ``legal_actions(seat)`` (labels from the adapter's
``describe_action(game, action)``); an adapter may instead return from ``widgets(game, seat)``
a list of :class:`Widget` (e.g. Brian Boru's "keep exactly 2 cards" multi-select)::

    Widget(kind="multiselect", placeholder="keep 2 cards", options=[("Harp 7", "h7"), ...],
           min_values=2, max_values=2, template="keep {0} {1}")

``Widget.action(values)`` fills the template with the chosen values in the order they are
offered. This module imports neither discord nor the engine's concrete games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from engine.core import Action, Game

WidgetKind = Literal["buttons", "select", "multiselect"]
KINDS = ("buttons", "select", "multiselect")

MAX_BUTTONS = 5  # more choices than this become a select
MAX_OPTIONS = 25  # Discord's options per select
MAX_LABEL = 100  # a select option's label (buttons are cut to 80 by the transport)


@dataclass(frozen=True, slots=True)
class Widget:
    """One way to decide: ``options`` are ``(label, value)``; ``template`` turns values into text.

    ``template`` uses ``str.format`` positional fields (``"{0}"`` = the single value, the
    default; ``"keep {0} {1}"`` for two values). ``{all}`` stands for every value joined by a
    space.
    """

    kind: WidgetKind
    options: list[tuple[str, str]]
    placeholder: str = ""
    min_values: int = 1
    max_values: int = 1
    template: str = "{0}"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"widget kind must be one of {KINDS}, not {self.kind!r}")
        if not self.options:
            raise ValueError("a widget needs at least one option")
        values = [v for _label, v in self.options]
        if len(set(values)) != len(values):
            raise ValueError(f"widget option values repeat: {values}")
        if not 0 <= self.min_values <= self.max_values:
            raise ValueError(f"min_values {self.min_values} / max_values {self.max_values} do not fit")
        if self.kind != "multiselect" and (self.min_values, self.max_values) != (1, 1):
            raise ValueError(f"a {self.kind} widget chooses exactly one value")
        if self.kind == "multiselect" and self.max_values > len(self.options):
            raise ValueError(f"max_values {self.max_values} exceeds the {len(self.options)} options")

    def action(self, values: Sequence[str]) -> str:
        """The action text for the chosen ``values`` (kept in the order they are offered)."""
        order = {v: i for i, (_label, v) in enumerate(self.options)}
        unknown = [v for v in values if v not in order]
        if unknown:
            raise ValueError(f"not offered: {unknown}")
        if not self.min_values <= len(values) <= self.max_values:
            raise ValueError(f"choose {self.min_values}..{self.max_values} values, got {len(values)}")
        chosen = sorted(set(values), key=order.__getitem__)
        return fill(self.template, chosen)


def fill(template: str, values: Sequence[str]) -> str:
    """``template`` with ``{0}``, ``{1}``… and ``{all}`` filled; raises ValueError if it does not fit."""
    try:
        return template.format(*values, all=" ".join(values)).strip()
    except (IndexError, KeyError) as e:
        raise ValueError(f"template {template!r} does not fit {len(values)} values") from e


class ActionLabels(Protocol):
    """What a label needs of an adapter (every :class:`bot.games.GameAdapter` has it): this module
    types against it, not against the adapter protocol that names :class:`Widget`, so that neither
    module imports the other."""

    def describe_action(self, game: Any, action: Action) -> str: ...


class OwnWidgets(ActionLabels, Protocol):
    """... and the adapter's own widgets, when it has some."""

    def widgets(self, game: Any, seat: int) -> list[Widget] | None: ...


def label_of(adapter: ActionLabels, game: Game, action: Action) -> str:
    """The adapter's ``describe_action`` label (its text when empty), cut to a button's length."""
    label = adapter.describe_action(game, action)
    return (label or str(action))[:MAX_LABEL]


def default_widgets(adapter: ActionLabels, game: Game, seat: int) -> list[Widget]:
    """The seat's legal actions as buttons (≤ 5), one select (≤ 25) or several selects (pages).

    Selects take at most 25 options each, so more choices are split into pages of 25; the
    transport decides what to do when they do not fit in one message.
    """
    actions = game.legal_actions(seat)
    options = [(label_of(adapter, game, a), str(a)) for a in actions]
    if not options:
        return []
    if len(options) <= MAX_BUTTONS:
        return [Widget("buttons", options)]
    pages = [options[i:i + MAX_OPTIONS] for i in range(0, len(options), MAX_OPTIONS)]
    return [Widget("select", page) for page in pages]


def widgets_for(adapter: OwnWidgets, game: Game, seat: int) -> list[Widget]:
    """The adapter's own ``widgets(game, seat)`` when it gives some, else :func:`default_widgets`."""
    found = adapter.widgets(game, seat)
    if found is not None:
        return list(found)
    return default_widgets(adapter, game, seat)


@dataclass(frozen=True, slots=True)
class PlanDialog:
    """A decision built in steps and sent as one action (the Vikings sailor dialog, V-33 … V-35):
    what the adapter's ``plan_dialog(game, seat, steps, extra)`` shows for the steps chosen so far.

    ``steps`` are the values chosen at each step, each with the game's extra flag (Vikings: that
    sailor takes the boat, V-49); ``options`` the next step's choices (none: nothing more to add),
    ``extra`` the label of the flag's toggle for the next step (``None``: not offered), ``action``
    the whole decision's text, ``picture`` the player's picture of it (or ``None``)."""

    text: str
    options: list[tuple[str, str]]
    placeholder: str
    action: str
    extra: str | None = None
    picture: bytes | None = None
