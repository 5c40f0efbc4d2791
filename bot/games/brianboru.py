"""What the host needs to know about Brian Boru: narration, prompts, labels, text, images, widgets, rules.

Hidden information: a player's hand and the cards in front of them during the draft are theirs
alone. ``narrate``, ``prompt``, ``text(game)`` (no seat), ``render`` and ``notation`` only use the
public view (``game.view(None)``) and events (which carry only public facts); the seat's own cards
appear in ``text(game, seat)``, ``private_text``, ``private_image`` and ``widgets``, which a
transport must show to that player only. :meth:`BrianBoruAdapter.private_choices` says when a
seat's widgets carry hidden cards (the draft, leading and playing a card, and the leader's choice
of active town, whose legal towns betray the colours in hand).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from bot.games import BaseAdapter, Position
from bot.games.brianboru_words import (
    EXTRA_WHAT,
    EXTRA_WHAT_PLURAL,
    PRINCESS_OFFER,
    PRINCESS_WORDS,
    card_colour,
    card_label,
    card_number,
    colour_word,
    extra_what,
    princess_word,
    region_name,
    revealed_lines,
    symbols_text,
    town_info,
)
from bot.i18n import N_, _, ngettext, tr_msg
from bot.i18n.rulebook import lookup
from engine.brianboru import DATA, BrianBoruAction, BrianBoruGame
from engine.brianboru.data import marriage_title
from engine.core import Action, ActionSyntaxError, Event

if TYPE_CHECKING:
    from renderer.recap import Frame

# decisions whose choices show cards only the deciding seat may see
PRIVATE_KINDS = frozenset({"keep", "lead", "play", "active"})


class BrianBoruAdapter(BaseAdapter[BrianBoruGame]):
    game_cls = BrianBoruGame
    title = "Brian Boru"
    verbs: ClassVar[Mapping[str, str]] = {v: v for v in (
        "town", "keep", "active", "lead", "play", "option", "extra", "expand", "free", "princess", "raid",
        "monastery")}
    hidden_shown = N_("a card seen, passed on or drawn")  # B-13, B-14: the draft passes cards on

    def describe_options(self, options: Mapping[str, Any]) -> str:
        return _("house map and cards") if not options else super().describe_options(options)

    # ------------------------------------------------------------------ narration

    def narrate(self, game: BrianBoruGame, events: Sequence[Event]) -> list[str]:
        out: list[str] = []
        names = game.names
        for e in events:
            line = self._event(game, names, e)
            if line:
                out.append(line)
        return out

    def _event(self, game: BrianBoruGame, names: list[str], e: Event) -> str | None:
        who = names[e.seat] if e.seat is not None else ""
        d = e.data
        k = e.kind
        if k == "placed":
            if d.get("why") == "start":
                return _("{name} places a start disc on {town}.", name=who, town=d["town"])
            if d.get("why") == "any town":
                return _("{name} puts a disc on {town} (marriage track bonus).", name=who, town=d["town"])
            return _("{name} puts a disc on {town}.", name=who, town=d["town"])
        if k == "round":
            return _("Round {round} of {rounds} begins.", round=d["round"], rounds=game.view(None)["rounds"])
        if k == "vikings":
            return ngettext("A Viking card: {n} invader lands on the battle area.",
                            "A Viking card: {n} invaders land on the battle area.", d["invaders"])
        if k == "marriage_revealed":
            card = DATA.marriage[d["card"]]
            reward = symbols_text(card.reward_text.replace(",", " ")) if not card.princess else _(PRINCESS_OFFER)
            line = _("Marriage card on offer: {title} ({reward}).", title=tr_msg(marriage_title(card.id, card.title)),
                     reward=reward)
            if d.get("last_round"):
                line += " " + _("This is the last round.")
            return line
        if k == "dealt":
            return ngettext(
                "Everyone gets {n} card to draft. Look at yours with /hand and keep two (/keep A B).",
                "Everyone gets {n} cards to draft. Look at yours with /hand and keep two (/keep A B).",
                d["cards"])
        if k == "kept":
            return _("{name} has chosen two cards.", name=who)
        if k == "passed":
            return ngettext("Everyone has chosen; the other {n} card passes to the next player.",
                            "Everyone has chosen; the other {n} cards pass to the next player.", d["cards"])
        if k == "draft_done":
            return ngettext("The draft is over: everyone holds {n} card.",
                            "The draft is over: everyone holds {n} cards.", d["hand"])
        if k == "active":
            colour, region = town_info(d["town"])
            line = _("{name} puts the active-town marker on {town} ({colour}, {region}).", name=who,
                     town=d["town"], colour=colour_word(colour), region=region)
            if d.get("free_lead"):
                line += " " + _("No card in hand fits any free town, so any card may be led (D-1).")
            return line
        if k == "no_active_town":
            return _("Every town holds a disc: {name} leads without an active town; every card counts (D-1).",
                     name=who)
        if k == "played":
            if d.get("lead"):
                return _("{name} leads {colour} {card}.", name=who, colour=colour_word(d["colour"]), card=d["card"])
            return _("{name} plays {colour} {card}.", name=who, colour=colour_word(d["colour"]), card=d["card"])
        if k == "trick_won":
            return _("{name} wins the trick with {card}.", name=who, card=d["card"])
        if k == "main":
            if d.get("town"):
                return _("{name} takes {town} and the active-town marker ({action}).", name=who, town=d["town"],
                         action=symbols_text(d["action"]))
            return _("{name} takes the active-town marker ({action}).", name=who, action=symbols_text(d["action"]))
        if k == "secondary":
            return _("{name} ({card}): {action}.", name=who, card=d["card"], action=symbols_text(d["action"]))
        if k == "gain":
            what = {"coin": ngettext("{n} coin", "{n} coins", d["n"]),
                    "renown": ngettext("{n} renown token", "{n} renown tokens", d["n"]),
                    "vp": _("{n} VP", n=d["n"])}.get(d["what"], f"{d['n']} {d['what']}")
            if d.get("why") == "marriage track":
                return _("{name} gains {what} (marriage track bonus).", name=who, what=what)
            return _("{name} gains {what}.", name=who, what=what)
        if k == "pay":
            if d.get("coins"):
                return _("{name} pays a coin.", name=who)
            return _("{name} has no coin and loses {n} VP instead.", name=who, n=d.get("vp", 0))
        if k == "church":
            line = ngettext("{name} puts {n} disc in the church area", "{name} puts {n} discs in the church area",
                            d["discs"], name=who)
            return line + (ngettext(" (paying {n} coin).", " (paying {n} coins).", d["paid"]) if d.get("paid") else ".")
        if k == "invaders":
            line = ngettext("{name} takes {n} invader token", "{name} takes {n} invader tokens", d["n"], name=who)
            return line + (ngettext(" (paying {n} coin).", " (paying {n} coins).", d["paid"]) if d.get("paid") else ".")
        if k == "marriage":
            if d["frm"] == d["to"]:  # the space reached was taken and it slid back where it was
                line = _("{name} stays at {at} on the marriage track (space {n} is taken)", name=who, at=d["frm"],
                         n=d["reached"])
            else:
                line = _("{name} moves up the marriage track from {frm} to {to}", name=who, frm=d["frm"], to=d["to"])
                if d.get("slid"):
                    line += _(" (space {n} was taken)", n=d["reached"])
            return line + (ngettext(", paying {n} coin.", ", paying {n} coins.", d["paid"]) if d.get("paid") else ".")
        if k == "expand":
            return _("{name} pays 5 coins and expands to {town}.", name=who, town=d["town"])
        if k == "expand_declined":
            return _("{name} does not expand.", name=who)
        if k == "freed":
            return _("{name} frees {town} from the Vikings.", name=who, town=d["town"])
        if k == "nothing":
            if d.get("what") == "town in":
                return _("{name}: no free town left in {region}.", name=who, region=region_name(d.get("region", "")))
            if d.get("what") == "battle":
                return _("{name}: no invaders left to take.", name=who)
            if d.get("what") == "marriage":
                return _("{name} is already at the top of the marriage track.", name=who)
            return None
        if k == "upkeep":
            return _("All tricks are played (the last cards are discarded unseen). Upkeep: marriage, battle, "
                     "church, regions.")
        if k == "married":
            return _("{name} takes the marriage card: {title}.", name=who,
                     title=tr_msg(marriage_title(d["card"], d["title"])))
        if k == "marriage_lost":
            return _("Nobody moved up the marriage track: {title} leaves the game.",
                     title=tr_msg(marriage_title(d["card"], DATA.marriage[d["card"]].title)))
        if k == "princess":
            return _("{name} and the Princess of Denmark: {choice}.", name=who,
                     choice=_(princess_word(d)))
        if k == "raid":
            losers = ", ".join(names[s] for s in d["losers"])
            return ngettext("The Vikings raid ({n} invader left): {names} must lose a town.",
                            "The Vikings raid ({n} invaders left): {names} must lose a town.",
                            d["invaders"], names=losers)
        if k == "lost_town":
            chooser = d.get("chooser")
            if chooser is not None and chooser != e.seat:
                return _("{name} loses {town} to the Vikings ({chooser} chose).", name=who, town=d["town"],
                         chooser=names[chooser])
            return _("{name} loses {town} to the Vikings.", name=who, town=d["town"])
        if k == "raid_nothing":
            return _("{name} has no town to lose.", name=who)
        if k == "repelled":
            return _("No invaders are left: the Vikings are repelled.")
        if k == "spoils":
            if d.get("renown"):
                return _("{name} led the fight: +1 renown and {vp} VP.", name=who, vp=d["vp"])
            return _("{name} gains 1 VP for the most invader tokens.", name=who)
        if k == "church_top":
            return _("{name} has the most church discs: takes the active-town marker.", name=who)
        if k == "church_most":
            return _("{name} gains 1 VP for the most church discs.", name=who)
        if k == "monastery":
            return _("{name} founds a monastery in {town}.", name=who, town=d["town"])
        if k == "no_monastery":
            return _("{name} has no town for a monastery.", name=who)
        if k == "church_returned":
            return None
        if k == "claim_revealed":
            return _("The {region} claim token turns face up.", region=region_name(d["region"]))
        if k == "claim":
            if d.get("vikings"):
                return _("The Vikings lead in {region}: its claim token goes back to the board.",
                         region=region_name(d["region"]))
            return _("{name} takes the {region} claim token.", name=who, region=region_name(d["region"]))
        if k == "game_over":
            final = game.view(None)["final"] or {}
            table = "; ".join(_("{name} {vp} VP", name=p["name"], vp=p["vp"]) for p in final.get("players", []))
            return _("Final scoring: {table}.", table=table) if table else None
        return None

    # ------------------------------------------------------------------ prompts and labels

    def prompt(self, game: BrianBoruGame, seat: int) -> str:
        """What ``seat`` must decide, with the command. Public: it never names a hidden card."""
        v = game.view(None)
        p = v["pending"]
        if p is None:
            return _("nothing to decide")
        k = p["kind"]
        if k == "town":
            why = p.get("why")
            if why == "start":
                return _("place your start disc on an empty town in a region where nobody else has one: /town NAME")
            if why == "town in":
                return _("put a disc on an empty town in {region}: /town NAME", region=region_name(p["region"]))
            return _("put a disc on any empty town: /town NAME")
        if k == "keep":
            return _("keep two of the cards in front of you: see them with /hand, then /keep A B")
        if k == "active":
            return _("you lead: put the active-town marker on an empty town (/active NAME), then lead a card of "
                     "its colour or a white one (/hand shows your cards)")
        if k == "lead":
            if v["active_town"]:
                colour, _region = town_info(v["active_town"])
                return _("lead a card for {town}: {colour} or white (/lead N; /hand shows your cards)",
                         town=v["active_town"], colour=colour_word(colour))
            return _("lead any card: /lead N (/hand shows your cards)")
        if k == "play":
            return _("play any card to the trick: /play N (/hand shows your cards)")
        if k == "option":
            c = DATA.cards[p["card"]]
            return _("your {card} lost the trick; choose its action: /option 1 ({one}) or /option 2 ({two})",
                     card=p["card"], one=symbols_text(c.secondary_text[0]), two=symbols_text(c.secondary_text[1]))
        if k == "extra":
            acts = game.legal_actions(seat)
            most = acts[-1].args[0] if acts and isinstance(acts[-1], BrianBoruAction) else 0
            return _("pay 2 coins for each extra {what} (you have {coins} coins): /extra N, 0 to {most}",
                     what=_(extra_what(p)), coins=v["players"][seat]["coins"],
                     most=most)
        if k == "expand":
            return _("pay 5 coins for a disc on a town next to one of yours (/expand NAME), or /expand no")
        if k == "free":
            return _("remove a Viking control marker: /free NAME")
        if k == "princess":
            return _("you married the Princess of Denmark: /princess support, /princess trade or /princess refuse")
        if k == "raid":
            victim = p.get("victim", seat)
            if victim == seat:
                return _("choose the town you lose to the Vikings: /raid NAME")
            return _("choose the town {name} loses to the Vikings: /raid NAME", name=game.names[victim])
        if k == "monastery":
            return _("choose the town for your monastery: /monastery NAME")
        return _("your move")

    def message_group(self, game: BrianBoruGame) -> str | None:
        """One trick (B-17 … B-21) is one message on Discord, edited as cards are played and ending
        with its resolution (issue 13): the trick it belongs to, or None outside tricks."""
        v = game.view(None)
        pending = v["pending"]
        if v["phase"] != "tricks" or pending is None or pending["kind"] == "keep":
            return None
        return f"trick {v['round']}.{v['trick']['number'] - 1}"

    def button_prompt(self, game: BrianBoruGame, seat: int) -> str:
        """The prompt where the choices are buttons and selects (Discord, issue 13): what to decide,
        never a command to type. Public: it never names a hidden card."""
        v = game.view(None)
        p = v["pending"]
        if p is None:
            return _("nothing to decide")
        k = p["kind"]
        private = _("press “Make your choice” to see your cards and choose")
        if k == "town":
            why = p.get("why")
            if why == "start":
                return _("place your start disc on an empty town in a region where nobody else has one")
            if why == "town in":
                return _("put a disc on an empty town in {region}", region=region_name(p["region"]))
            return _("put a disc on any empty town")
        if k == "keep":
            return _("keep two of the cards in front of you: {how}", how=private)
        if k == "active":
            return _("you lead: put the active-town marker on an empty town, then lead a card of its colour or a "
                     "white one: {how}", how=private)
        if k == "lead":
            if v["active_town"]:
                colour, _region = town_info(v["active_town"])
                return _("lead a card for {town}, {colour} or white: {how}", town=v["active_town"],
                         colour=colour_word(colour), how=private)
            return _("lead any card: {how}", how=private)
        if k == "play":
            return _("play a card to the trick: {how}", how=private)
        if k == "option":
            c = DATA.cards[p["card"]]
            return _("your {card} lost the trick; choose its action: {one} or {two}", card=p["card"],
                     one=symbols_text(c.secondary_text[0]), two=symbols_text(c.secondary_text[1]))
        if k == "extra":
            return _("pay 2 coins for each extra {what} (you have {coins} coins)",
                     what=_(extra_what(p)), coins=v["players"][seat]["coins"])
        if k == "expand":
            return _("pay 5 coins for a disc on a town next to one of yours, or do not expand")
        if k == "free":
            return _("remove a Viking control marker")
        if k == "princess":
            return _("you married the Princess of Denmark: support, trade or refuse")
        if k == "raid":
            victim = p.get("victim", seat)
            if victim == seat:
                return _("choose the town you lose to the Vikings")
            return _("choose the town {name} loses to the Vikings", name=game.names[victim])
        if k == "monastery":
            return _("choose the town for your monastery")
        return _("your move")

    def describe_action(self, game: BrianBoruGame, action: Action) -> str:
        """A label for a button, select option or autocomplete choice (≤ 100 characters)."""
        if not isinstance(action, BrianBoruAction):
            try:
                action = game.parse_action(str(action))
            except ActionSyntaxError:
                return str(action)[:100]
        verb, args = action.verb, action.args
        if verb in ("town", "active", "raid", "free", "monastery", "expand"):
            name = args[0]
            if name == "no":
                return _("do not expand (keep the coins)")
            colour, region = town_info(name)
            label = _("{town} ({colour}, {region})", town=name, colour=colour_word(colour), region=region)
            if verb == "expand":
                label = _("expand to {label} for 5 coins", label=label)
            return label[:100]
        if verb == "lead":
            return _("lead {card}", card=card_label(args[0]))[:100]
        if verb == "play":
            return _("play {card}", card=card_label(args[0]))[:100]
        if verb == "keep":
            a, b = args
            return _("keep {a} {ca} and {b} {cb}", a=a, ca=colour_word(card_colour(a)), b=b,
                     cb=colour_word(card_colour(b)))[:100]
        if verb == "option":
            pend = game.view(None)["pending"]
            card = pend.get("card") if pend else None
            if card in DATA.cards:
                return _("option {n}: {action}", n=args[0],
                         action=symbols_text(DATA.cards[card].secondary_text[args[0] - 1]))[:100]
            return _("option {n}", n=args[0])
        if verb == "extra":
            n = args[0]
            pend = game.view(None)["pending"]
            sym = pend.get("sym", "") if pend else ""
            if n == 0:
                return _("no extras (pay nothing)")
            what = _(EXTRA_WHAT.get(sym, sym)) if n == 1 else _(EXTRA_WHAT_PLURAL.get(sym, sym))
            return _("{n} extra {what} for {coins} coins", n=n, what=what, coins=2 * n)[:100]
        if verb == "princess":
            return _(PRINCESS_WORDS[args[0]])[:100]
        return str(action)[:100]

    def private_choices(self, game: BrianBoruGame, seat: int) -> bool:
        """True when ``seat``'s choices (``widgets``, ``legal_actions``) show hidden cards: offer them
        to that player privately only (an ephemeral message), never in the channel."""
        p = game.view(None)["pending"]
        return p is not None and p["kind"] in PRIVATE_KINDS and seat in game.acting_seats()

    def forced_action(self, game: BrianBoruGame, seat: int) -> Action | None:
        """The only legal choice, made by the host (issue 13) — but never a decision about
        cards in a hand (keep, lead, play, the active town card): making it at once would
        show everybody that the hand allowed nothing else."""
        p = game.view(None)["pending"]
        if p is None or p["kind"] in PRIVATE_KINDS or seat not in game.acting_seats():
            return None
        actions = game.legal_actions(seat)
        return actions[0] if len(actions) == 1 else None

    def widgets(self, game: BrianBoruGame, seat: int) -> list | None:
        """The draft is one multi-select of exactly 2 cards; other decisions use the default widgets."""
        try:
            from bot.games.widgets import MAX_OPTIONS, Widget
        except ImportError:  # pragma: no cover - the widgets module ships with the host
            return None
        v = game.view(seat)
        p = v["pending"]
        if p is None or seat not in game.acting_seats():
            return []
        if p["kind"] == "keep":
            cards = sorted(v["you"]["draft"]) if "you" in v else []
            options = [(card_label(v)[:100], str(v)) for v in cards][:MAX_OPTIONS]
            return [Widget("multiselect", options, placeholder=_("keep 2 cards"), min_values=2, max_values=2,
                           template="keep {0} {1}")]
        if p["kind"] in ("lead", "play"):  # cards by number, as /hand lists them (the engine's order is text order)
            from bot.games.widgets import MAX_BUTTONS, label_of

            actions = sorted(game.legal_actions(seat), key=card_number)
            choices = [(label_of(self, game, a), str(a)) for a in actions]
            if len(choices) <= MAX_BUTTONS:
                return [Widget("buttons", choices)] if choices else []
            return [Widget("select", choices[i:i + MAX_OPTIONS]) for i in range(0, len(choices), MAX_OPTIONS)]
        return None

    # ------------------------------------------------------------------ table as text / image / notation

    def text(self, game: BrianBoruGame, seat: int | None = None) -> str:
        v = game.view(None)
        names = game.names
        lines = []
        if v["phase"] == "over":
            lines.append(_("Brian Boru — game over."))
        else:
            phase = {"setup": _("set-up"), "draft": _("draft"), "tricks": _("tricks"), "upkeep": _("upkeep")}
            head = _("Brian Boru — round {round} of {rounds}, {phase}.", round=v["round"], rounds=v["rounds"],
                     phase=phase.get(v["phase"], v["phase"]))
            if v["phase"] == "tricks":
                head += " " + _("Trick {n} of {of}.", n=v["trick"]["number"], of=v["trick"]["of"])
            lines.append(head)
        where = (_("on {town}", town=v["active_town"]) if v["active_town"] else
                 _("held by {name}", name=names[v["marker"]]) if v["marker"] is not None else "-")
        lines.append(_("Start player: {name}. Active-town marker: {where}.", name=names[v["start_player"]],
                       where=where))
        m = v["marriage"]["revealed"]
        offer = (_("{title} ({reward})", title=tr_msg(marriage_title(m["id"], m["title"])),
                   reward=symbols_text(m["reward"].replace(",", " ")) or _(PRINCESS_OFFER))
                 if m else _("none"))
        lines.append(_("Marriage card on offer: {offer}; {n} left in the stack.", offer=offer,
                       n=v["marriage"]["stack_left"]))
        lines.append(_("Battle area: {n} invaders. Viking cards so far: {cards}; {left} left.", n=v["battle"],
                       cards=", ".join(map(str, v["viking_cards_revealed"])) or "-", left=v["viking_cards_left"]))
        trick = v["trick"]["cards"]
        if trick:
            played = ", ".join(f"{names[c['seat']]} {colour_word(c['colour'])} {c['card']}" for c in trick)
            lines.append(_("Trick: {cards}.", cards=played))
        owned: dict[int, list[str]] = {}
        for t in v["towns"]:
            if t["owner"] is not None:
                flag = ("+" if t["monastery"] else "") + ("!" if t["viking"] else "")
                owned.setdefault(t["owner"], []).append(t["name"] + flag)
        for p in v["players"]:
            s = p["seat"]
            marks = []
            if s in v["acting"]:
                marks.append(_("to act"))
            if v["phase"] == "draft":
                marks.append(_("has chosen") if p["chosen"] else _("choosing"))
            if p["princess"]:
                marks.append(_("Princess: {choice}", choice=p["princess"]))
            claims = [c["name"] for c in v["claims"] if c["owner"] == s]
            line = _("{name}: {vp} VP, coins {coins}, renown {renown}, invaders {invaders}, church {church}, "
                     "marriage track {track}, marriage cards {marriages}, cards in hand {hand}",
                     name=p["name"], vp=p["vp"], coins=p["coins"], renown=p["renown"], invaders=p["invaders"],
                     church=p["church"], track=p["track"], marriages=len(p["marriages"]), hand=p["hand_size"])
            if claims:
                line += "; " + _("claims: {claims}", claims=", ".join(claims))
            if marks:
                line += f" ({', '.join(marks)})"
            lines.append(line)
            lines.append("    " + _("towns: {towns}", towns=" ".join(owned.get(s, [])) or "-"))
        regions = []
        for c in v["claims"]:
            state = (_("claim face down") if not c["face_up"] else
                     _("claim on the board") if c["owner"] is None else _("claim: {name}", name=names[c["owner"]]))
            regions.append(_("{region} {threshold}+/{points} VP ({state})", region=c["name"],
                             threshold=c["threshold"], points=c["points"], state=state))
        lines.append(_("Regions (towns to reveal / points): {regions}.", regions="; ".join(regions)))
        lines.append(_("Towns: + monastery, ! Viking control marker."))
        if v["final"]:
            for p in v["final"]["players"]:
                scored = "; ".join(tr_msg(x) for x in p["lines"])
                lines.append("  " + _("{name}: {vp} VP — {lines}", name=p["name"], vp=p["vp"], lines=scored))
            lines.append(_("Winners: {names}.", names=", ".join(v["final"]["winners"])))
        if seat is not None:
            lines += self.private_text(game, seat).splitlines()
        return "\n".join(lines)

    def private_text(self, game: BrianBoruGame, seat: int) -> str:
        """``seat``'s hand, the cards in front of them during the draft and their choice: private."""
        you = game.view(seat)["you"]
        lines = []
        if you["hand"]:
            lines.append(_("Your hand:"))
            lines += [f"  {card_label(c)}" for c in you["hand"]]
        else:
            lines.append(_("Your hand is empty."))
        if you["draft"]:
            if you["choice"]:
                lines.append(_("In front of you (you keep {a} and {b}):", a=you["choice"][0], b=you["choice"][1]))
            else:
                lines.append(_("In front of you (keep two: /keep A B):"))
            lines += [f"  {card_label(c)}" for c in you["draft"]]
        return "\n".join(lines)

    def private_image(self, game: BrianBoruGame, seat: int) -> bytes | None:
        from renderer.brianboru import render_hand

        return render_hand(game.view(seat), seat, tr=_, ntr=ngettext)  # in the current language (issue 16)

    def render(self, game: BrianBoruGame, *, seat: int | None = None) -> bytes | None:
        """The public map and table; never a hand (``seat`` is ignored: see ``private_image``)."""
        from renderer.brianboru import render_brianboru

        return render_brianboru(game.view(None), tr=_, ntr=ngettext)

    # ------------------------------------------------------------------ pictures (issue 14)

    def needs_replay(self, game: BrianBoruGame, events: Sequence[Event]) -> bool:
        """The final scoring's VP chart is replayed from the action log."""
        return game.is_over and any(e.kind == "game_over" for e in events)

    def picture(self, game: BrianBoruGame, *, seat: int | None = None, board: bool = False,
                events: Sequence[Event] = (), replay: Any = None, focus: int | None = None) -> bytes | None:
        """The full map for ``/board``, the final scoring when the game just ended, else the turn
        picture. Always public: a hand only ever goes out through ``private_image``."""
        from renderer.brianboru_turn import render_brianboru_turn
        from renderer.scoring import render_brianboru_final

        if board:
            return self.render(game)
        view = game.view(None)
        if game.is_over and isinstance(view.get("final"), dict) and any(e.kind == "game_over" for e in events):
            history = None
            if replay is not None:
                from bot.games.replay import try_replay

                rep = try_replay(type(game), *replay)
                history = rep.history if rep else None
            return render_brianboru_final(view, history=history, tr=_, ntr=ngettext)
        return render_brianboru_turn(view, tr=_, ntr=ngettext)

    def recap_frame(self, position: Position) -> Frame | None:
        """The animated recap (issue 25): a frame per trick (shown whole), the upkeep as a scoring."""
        from bot.games.recap import brianboru_frame

        return brianboru_frame(self, position)

    def notation(self, game: BrianBoruGame) -> str | None:
        return game.notation()

    def revealed(self, game: BrianBoruGame) -> list[str]:
        """Issue 25: the hands, the draft and the stacks' order, for a finished game's replay."""
        return revealed_lines(game)

    def public_action(self, text: str) -> str:
        """B-14: the two cards a player keeps are face down; while the game runs the log shows only
        that they kept two. Every other decision (towns, led and played cards, options) is public."""
        verb = text.split(maxsplit=1)[0] if text.strip() else ""
        return "keep (hidden)" if verb == "keep" else text

    # ------------------------------------------------------------------ rules

    def rules(self, topic: str | None) -> list[str]:
        if topic is None:
            return [
                _("Brian Boru (Peer Sylvester), 3–5 players, 3 rounds (3 players) or 4. Each round: draft a hand "
                  "(keep 2 cards, pass the rest, until all are kept), then play tricks for towns: the leader "
                  "picks an empty town as the active town and leads its colour or white; the highest card of "
                  "that colour or white wins the town; every other card does one of its secondary actions."),
                _("Upkeep: the highest on the marriage track takes the marriage card; the fewest invaders lose a "
                  "town to the Vikings; the most church discs found monasteries; majorities take the regions' "
                  "claim tokens. Most VP at the end wins."),
                _("Ask for one rule by number: rules B-19. Rules B-1 to B-34 and D-1 to D-12 are available."),
            ]
        return lookup("brian-boru.md", "B", topic)
