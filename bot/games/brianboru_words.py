"""How Brian Boru's things are said: card labels, colours, regions and towns, the Princess's
offers, what an extra action takes; in the current language (``bot.i18n``), shared by the adapter's
narration, prompts, labels and text (:mod:`bot.games.brianboru`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import N_, _, ngettext, tr_msg
from engine.brianboru import DATA
from engine.brianboru.data import marriage_title
from engine.core import Action

COLOUR_WORDS = {"red": N_("red"), "blue": N_("blue"), "yellow": N_("yellow"), "white": N_("white")}
PRINCESS_WORDS = {
    "support": N_("military support: Viking towns count as the taker's own in region control and claims"),
    "trade": N_("trade: Viking towns count as the taker's own for the regions score"),
    "refuse": N_("refuse her for 4 VP"),
}
PRINCESS_OFFER = N_("military support, trade, or refuse her for 4 VP")
EXTRA_WHAT = {"church": N_("church disc"), "battle": N_("invader token"), "marriage": N_("marriage step")}
EXTRA_WHAT_PLURAL = {"church": N_("church discs"), "battle": N_("invader tokens"), "marriage": N_("marriage steps")}


def card_number(action: Action) -> tuple[int, str]:
    """A card action (``play 14``) by its card's number; anything else after the cards, by text."""
    words = str(action).split()
    number = words[1] if len(words) == 2 and words[1].isdigit() else ""
    return (int(number), "") if number else (10**6, str(action))


def princess_word(data: Mapping[str, Any]) -> str:
    """The English word of a Princess choice (kept out of ``_()`` calls, where Babel would take the
    dictionary keys for messages)."""
    choice = data["choice"]
    return PRINCESS_WORDS.get(choice, choice)


def extra_what(pending: Mapping[str, Any]) -> str:
    sym = pending.get("sym") or ""
    return EXTRA_WHAT.get(sym, sym)


def colour_word(colour: str) -> str:
    return _(COLOUR_WORDS.get(colour, colour))


def region_name(region_id: str) -> str:
    i = DATA.region_index.get(region_id)
    return DATA.region_names[i] if i is not None else region_id


def town_info(name: str) -> tuple[str, str]:
    """(colour, region name) of a town."""
    i = DATA.town_index[name]
    return ("red", "blue", "yellow")[DATA.town_colour[i]], DATA.region_names[DATA.town_region[i]]


def symbols_text(symbols: str) -> str:
    """B-22 symbols as short words (``"coin coin expand"`` → ``"2 coins, expand"``)."""
    from renderer.brianboru import action_words  # the same words as on the card images
    from renderer.common import translating

    with translating(_, ngettext):  # in the current language, as the pictures say it
        return action_words(symbols)


def card_label(value: int) -> str:
    """``"11 red — wins: control, coin · loses: 2 coins / 2 invaders"``."""
    c = DATA.cards[value]
    colour = ("red", "blue", "yellow", "white")[c.colour]
    main = symbols_text(c.main_text)
    sec = " / ".join(symbols_text(s) for s in c.secondary_text)
    return _("{value} {colour} — wins: {main} · loses: {secondary}", value=value, colour=colour_word(colour),
             main=main, secondary=sec)


def card_colour(value: int) -> str:
    return ("red", "blue", "yellow", "white")[DATA.cards[value].colour]


def revealed_lines(game: Any) -> list[str]:
    """What was hidden at a position of ``game`` (a ``BrianBoruGame``), said in the replay of a finished
    game only (issue 25): every player's hand, the cards in front of them in the draft and the two they
    chose (B-14, face down), the marriage cards and Viking cards still in their stacks, next first
    (B-11, B-12: each round turns the top one)."""
    lines = []
    for seat, name in enumerate(game.names):
        you = game.view(seat)["you"]
        if you["hand"]:
            lines.append(_("Hand of {name}: {cards}.", name=name, cards=", ".join(_card(c) for c in sorted(you["hand"]))))
        if you["draft"]:
            line = _("In front of {name} in the draft: {cards}", name=name,
                     cards=", ".join(_card(c) for c in sorted(you["draft"])))
            if you["choice"]:
                line += "; " + _("keeps {a} and {b}", a=_card(you["choice"][0]), b=_card(you["choice"][1]))
            lines.append(line + ".")
    state = game.to_json()
    marriages = state["marriage_stack"][::-1]  # the top (next) card is the last
    if marriages:
        lines.append(_("Marriage cards still in the stack, next first: {titles}.", titles=", ".join(
            tr_msg(marriage_title(m, DATA.marriage[m].title)) for m in marriages)))
    vikings = state["viking_deck"][::-1]
    if vikings:
        lines.append(_("Viking cards still face down, next first: {cards}.", cards=", ".join(map(str, vikings))))
    return lines


def _card(value: int) -> str:
    """``"11 red"``: a card by its number and colour."""
    return _("{value} {colour}", value=value, colour=colour_word(card_colour(value)))
