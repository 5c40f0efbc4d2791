"""How Vikings' things are said: tiles, vikings and special tiles in the current language
(``bot.i18n``), shared by the adapter's narration, prompts, labels and text (:mod:`bot.games.vikings`),
and what lay face down at a position, for the replay of a finished game (issue 25)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.i18n import N_, _
from engine.vikings.data import (
    AUCTION,
    KIND_NAME,
    KIND_PLURAL,
    KIND_WORD,
    KIND_WORDS,
    KINDS,
    ROUNDS,
    SHIPS,
    SPECIAL_WORD,
)
from engine.vikings.game import WHEEL

TILE_NAMES = {
    "L": N_("a left island end"),
    "R": N_("a right island end"),
    "Ma": N_("a middle tile (longhouse)"),
    "Mb": N_("a middle tile (smithy)"),
    "Mc": N_("a middle tile (temple)"),
    "Md": N_("a middle tile (market)"),
}
KIND_TEXT = {k: KIND_WORD[k].id for k in KIND_NAME}  # the engine's marked words (in the catalogs)
KIND_TEXT_PLURAL = {k: KIND_WORDS[k].id for k in KIND_PLURAL}
SPECIAL_TEXT = {k: w.id for k, w in SPECIAL_WORD.items()}  # the engine's marked names (V-45..V-49)


def tile_text(tile: str) -> str:
    if tile.startswith("^"):
        ship = SHIPS[tile[1]]
        reward = _("{n} gold", n=ship["amount"]) if ship["reward"] == "gold" else _("{n} VP", n=ship["amount"])
        colour = ship["colour"]  # marked in data; bound first so Babel extracts no stray words
        return _("a ship with a {colour} sail ({reward})", colour=_(colour), reward=reward)
    return _(TILE_NAMES.get(tile, tile))


def kind_text(kind: str) -> str:
    return _(KIND_TEXT[kind])


def revealed_lines(state: dict[str, Any]) -> list[str]:
    """What lay face down at a position (``state``: the game's JSON), said in the replay of a finished
    game only (issue 25): the next tile stack in its order (V-6), the vikings the next round to begin
    draws from the bag (V-1: the bag is drawn from its end; V-11 sorts them on the wheel, so how many
    of each kind is what shows), and the special tiles in the order they come (V-45)."""
    lines = []
    stacks: list[list[str]] = state["stacks"]
    if stacks:
        lines.append(_("Next tile stack, face down (round {round}): {tiles}.", round=ROUNDS - len(stacks) + 1,
                       tiles=", ".join(tile_text(t) for t in stacks[0])))
    if int(state["round"]) < ROUNDS:  # a round is still to begin, and draws from the bag
        options = state.get("options") or {}
        drawn = Counter(state["bag"][-(AUCTION["vikings_drawn"] if options.get("auction") else WHEEL):])
        lines.append(_("The next vikings drawn from the bag: {vikings}.",
                       vikings=", ".join(f"{kind_text(k)} ×{drawn[k]}" for k in KINDS if drawn[k])))
    coming = [s for stack in state.get("special_stacks") or [] for s in reversed(stack)]  # V-45: drawn from the end
    if coming:
        lines.append(_("Special tiles still face down, next first: {tiles}.",
                       tiles=", ".join(_(SPECIAL_TEXT[s]) for s in coming)))
    return lines
