"""What the host needs to know about Vikings: options, narration, prompts, labels, text, image, rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.games import BaseAdapter
from bot.games.vikings_words import KIND_TEXT_PLURAL, SPECIAL_TEXT, kind_text, revealed_lines, tile_text
from bot.games.widgets import PlanDialog
from bot.i18n import N_, _, ngettext, tr_msg
from bot.i18n.rulebook import lookup
from engine.core import Action, Event
from engine.vikings import VikingsGame, normalise_options
from engine.vikings import actions as A
from engine.vikings.data import (
    SAILOR,
    SCORING_AFTER,
    cell_name,
)
from engine.vikings.view import VikingsView

OPTION_WORDS = {o.word: o.sets for o in VikingsGame.INFO.options}  # the engine's declared options


ROW_LABELS = ("ships", "W", "N", "S", "G", "F")


def upper_first(text: str) -> str:
    """The first letter upper case, the rest as translated (``capitalize`` would lower German nouns)."""
    return text[:1].upper() + text[1:]


def kind_of(data: Mapping[str, Any]) -> str:
    return data["kind"]


def name_of(data: Mapping[str, Any]) -> str:
    """(Small readers like these keep dictionary keys out of ``_()`` calls, where Babel would take
    them for messages.)"""
    return data["name"]


def homeland_grid(rows: Sequence[Sequence[str]]) -> list[str]:
    """A homeland as text rows under column numbers (V-20 … V-22): every row, as wide as the
    widest one; nothing while the homeland is empty."""
    width = max((len(r) for r in rows), default=0)
    if width == 0:
        return []
    labels = [_("ships"), *ROW_LABELS[1:]]
    pad = max(5, *(len(label) for label in labels))
    out = [" " * (pad + 4) + "".join(f"{c:<4}" for c in range(1, width + 1)).rstrip()]
    for label, row in zip(labels, rows):
        cells = [*row, *["."] * (width - len(row))]
        out.append(f"   {label:>{pad}} " + "".join(f"{t:<4}" for t in cells).rstrip())
    return out


class VikingsAdapter(BaseAdapter[VikingsGame]):
    game_cls = VikingsGame
    title = "Vikings"
    verbs: ClassVar[Mapping[str, str]] = {
        "buy": "buy",
        "place": "place",
        "start-tile": "start",
        "sail": "sail",
        "exchange": "exchange",
        "bid": "bid",
        "pass": "pass",
        "remove": "remove",
        "lay": "lay",
        "special": "special",
        "swap": "swap",
    }
    free_actions_placeholder = N_("Exchange VP for gold (V-16), at any time")  # its own select on Discord
    scoring_events = ("score", "game_over")  # each scoring is one message on Discord (V-32 … V-38)
    hidden_shown = N_("a tile turned or a viking drawn")  # V-13, V-14: the wheel refilled

    # ------------------------------------------------------------------ options

    def parse_options(self, words: Sequence[str]) -> dict[str, Any]:
        """The words of ``VikingsGame.INFO.options``: ``basic``, ``advanced``, ``auction``,
        ``single-sailor``, ``specials``, ``strict-ships`` (D-6)."""
        out = super().parse_options(words)
        normalise_options(out)
        return out

    def describe_options(self, options: Mapping[str, Any]) -> str:
        opts = normalise_options(dict(options))
        variant = [o for o in VikingsGame.INFO.options if o.kind == "flag" and o.default is False]  # V-40 … V-49
        on = [o.word for o in variant if o.key is not None and opts[o.key]]
        parts = [_("progress variant: {options}", options=", ".join(on))] if on else [_("basic game")]
        if not opts["ships_any_order"]:
            parts.append(_("strict ships (each next to one already placed)"))
        return "; ".join(parts)

    # ------------------------------------------------------------------ narration

    def narrate(self, game: VikingsGame, events: Sequence[Event]) -> list[str]:
        out: list[str] = []
        names = game.names
        for e in events:
            who = names[e.seat] if e.seat is not None else ""
            d = e.data
            k = e.kind
            if k == "round":
                after = SCORING_AFTER[d["round"] - 1]
                scoring = {"small": _("a small scoring"), "major": _("a major scoring")}[after]
                if d["round"] == 6:
                    scoring = _("a major and the final scoring")
                out.append(_("Round {round} of 6 begins (at its end: {scoring}). Start player: {name}.",
                             round=d["round"], scoring=scoring, name=names[d["start_player"]]))
            elif k == "bought":
                out.append(_("{name} buys the {kind} with {tile} for {price} gold.", name=who,
                             kind=kind_text(d["viking"]), tile=tile_text(d["tile"]), price=d["price"]))
            elif k == "exchange":
                out.append(ngettext("{name} exchanges {n} VP for gold.", "{name} exchanges {n} VP for gold.",
                                    d["vp"], name=who))
            elif k == "wheel":
                out.append(ngettext("The wheel turns by {n} position.", "The wheel turns by {n} positions.",
                                    d["turned"]))
            elif k == "placed":
                if d["tile"].startswith("^"):
                    where = _("{name} puts the ship at {cell}", name=who, cell=d["cell"])
                else:
                    where = _("{name} places the tile at {cell}", name=who, cell=d["cell"])
                if d["on_tile"]:
                    out.append(_("{where}; the {kind} stands on it.", where=where, kind=kind_text(d["viking"])))
                else:
                    out.append(_("{where}; the {kind} goes to the base.", where=where, kind=kind_text(d["viking"])))
            elif k == "start_tile":
                out.append(_("{name} places the start tile at {cell}.", name=who, cell=d["cell"]))
            elif k == "discarded":
                # no possessive after a name: "Ragnar (computer, heuristic)'s" reads badly
                out.append(_("{name}: {tile} fits nowhere in the homeland and leaves the game; the {kind} "
                             "goes to the base.", tile=tile_text(d["tile"]), name=who,
                             kind=kind_text(d["viking"])))
            elif k == "sailor":
                out.append(_("{name} sends out a sailor with a boat.", name=who) if d["boat"]
                           else _("{name} sends out a sailor.", name=who))
            elif k == "sailed":
                out.append(_("The {kind} sails to {cell}.", kind=kind_text(d["kind"]), cell=d["cell"]))
            elif k == "score":
                label = {"small": _("Small scoring"), "major": _("Major scoring"), "final": _("Final scoring")}[
                    d["scoring"]]
                gains = []
                if d["gold"]:
                    gains.append(_("{n:+d} gold", n=d["gold"]))
                if d["vp"]:
                    gains.append(_("{n:+d} VP", n=d["vp"]))
                total = ", ".join(gains) if gains else _("nothing")
                out.append(_("{label} — {name}: {total} ({details}).", label=label, name=who, total=total,
                             details="; ".join(tr_msg(x) for x in d["lines"])))
            elif k == "start_player":
                out.append(_("{name} is the start player now.", name=who))
            elif k == "game_over":
                standings = sorted(range(len(names)), key=lambda s: (-d["vp"][s], -d["gold"][s]))
                table = [_("{name} {vp} VP, {gold} gold", name=names[s], vp=d["vp"][s], gold=d["gold"][s])
                         for s in standings]
                out.append(_("Final standings: {table}.", table="; ".join(table)))
                top = max(d["vp"])
                tied = [s for s in range(len(names)) if d["vp"][s] == top]
                if len(tied) > 1 and len(d["winners"]) == 1:
                    out.append(_("{names} tie on {vp} VP; the most gold left decides (V-38).",
                                 names=", ".join(names[s] for s in tied), vp=top))
                elif len(d["winners"]) > 1:
                    out.append(_("{names} tie on VP and gold: they share the win (V-38).",
                                 names=", ".join(names[s] for s in d["winners"])))
            elif k == "specials":
                shown = [_(SPECIAL_TEXT[s]) for s in d["display"] if s]
                if shown:
                    out.append(_("Special tiles on display: {tiles}.", tiles=", ".join(shown)))
            elif k == "bid":
                out.append(_("{name} bids {n} gold for the start player.", name=who, n=d["amount"]))
            elif k == "pass":
                out.append(_("{name} drops out of the auction.", name=who))
            elif k == "auction":
                if d["nobody"]:
                    out.append(_("Nobody bids: {name} stays start player for free.", name=who))
                else:
                    out.append(_("{name} wins the auction for {n} gold and is start player.", name=who,
                                 n=d["price"]))
            elif k == "removed":
                if d.get("tiles_laid_out"):  # V-42: the round's tiles are face up from now on
                    out.append(_("{name} removes a {kind} from the game and lays out the round's tiles.",
                                 name=who, kind=kind_text(d["kind"])))
                else:
                    out.append(_("{name} removes a {kind} from the game.", name=who, kind=kind_text(d["kind"])))
            elif k == "laid":
                out.append(ngettext("{name} lays out the {kind}.", "{name} lays out the {count} {kinds}.",
                                    d["count"], name=who, kind=kind_text(d["kind"]), count=d["count"],
                                    kinds=_(KIND_TEXT_PLURAL[kind_of(d)])))
            elif k == "special":
                out.append(_("{name} takes a special tile: {tile}.", name=who, tile=_(SPECIAL_TEXT[name_of(d)])))
            elif k == "swapped":
                out.append(_("{name} swaps the middle tile at {cell} for {tile}.", name=who, cell=d["cell"],
                             tile=_(SPECIAL_TEXT[name_of(d)])))
        return out

    # ------------------------------------------------------------------ prompts and labels

    def prompt(self, game: VikingsGame, seat: int) -> str:
        v = game.view(seat)
        phase, me, pend = v["phase"], v["players"][seat], v["pending"]
        if phase == "buy":
            return _("buy a combo: /buy POSITION (you have {gold} gold and {vp} VP)",
                     gold=me["gold"], vp=me["vp"])
        if phase == "place" and pend is not None:
            if pend["placed"]:
                return _("place your start tile in column 1: /start-tile CELL")
            if _to_base(pend):  # V-27: a sailor, or any viking bought with a ship, goes to the base
                text = _("place {tile} (/place CELL); the {kind} goes to the base (V-27)",
                         tile=tile_text(pend["tile"]), kind=kind_text(pend["viking"]))
            else:
                text = _("place {tile} (/place CELL; the {kind} stands on it when its row matches, "
                         "or add “base”)", tile=tile_text(pend["tile"]), kind=kind_text(pend["viking"]))
            if me["start_tile_pending"]:
                if any(type(a) is A.Place for a in game.legal_actions(seat)):
                    text += " " + _("— and your start tile (/start-tile CELL), in either order")
                else:  # V-24: only column 1 is reachable, and it takes a left end
                    return _("first place your start tile in column 1 (/start-tile CELL); then {tile} can go "
                             "next to it", tile=tile_text(pend["tile"]))
            return text
        if phase == "sail":
            if v["trip"] is not None:
                if A.SailDone() in game.legal_actions(seat):
                    return _("this sailor may take another viking (/sail CELL) or stop (/sail done)")
                # V-34 all of one kind, V-35 [D-12] in the last major scoring: the trip goes on
                return _("this sailor must take another viking while one fits: /sail CELL")
            return _("major scoring: use your sailors (/sail CELL), or /sail end (you have {n}); or plan them all "
                     "at once: /sail plan N2 S3 / G4 / end", n=me["base"]["B"])
        if phase == "bid":
            return _("bid for the start player (/bid N) or drop out (/pass); highest bid {n}",
                     n=_high_bid(v))
        if phase == "remove":
            return _("remove one of the drawn vikings from the game: /remove KIND")
        if phase == "lay":
            return _("choose a kind of viking to lay out: /lay KIND")
        if phase == "special":
            return _("take a displayed special tile (/special NAME) or /special none")
        if phase == "swap":
            return _("choose the middle tile the building tile replaces: /swap CELL")
        return _("your move")

    def forced_action(self, game: VikingsGame, seat: int) -> Action | None:
        """The only legal choice, made by the host (issue 13). Vikings has no hidden hands, so
        a single choice reveals nothing; free exchanges (V-16) are never made for anyone."""
        actions = game.legal_actions(seat)
        return actions[0] if len(actions) == 1 else None

    @staticmethod
    def buy_cost(game: VikingsGame, action: A.Buy) -> str:
        """What a buy costs the player to act: "7 gold", or "4 gold + 3 VP" when the gold falls
        short and VP are exchanged first (V-13, V-16)."""
        acting = game.acting_seats()
        short = max(0, action.pos - _gold(game, acting[0])) if acting else 0
        if short:
            return _("{gold} gold + {vp} VP", gold=action.pos - short, vp=short)
        return _("{price} gold", price=action.pos)

    def confirm(self, game: VikingsGame, seat: int, action: Action) -> str | None:
        """A question to confirm before a picked action commits, or None: a buy that spends VP
        (V-16) is never made silently."""
        if type(action) is A.Buy and action.pos > _gold(game, seat):
            return _("Buying {pos} costs you {cost}: your gold falls short, so VP are exchanged first (V-16). Buy it?",
                     pos=action.pos, cost=self.buy_cost(game, action))
        return None

    def button_prompt(self, game: VikingsGame, seat: int) -> str:
        """The prompt where the choices are buttons and selects (Discord, issue 13): what to decide,
        never a command to type."""
        v = game.view(seat)
        phase, me, pend = v["phase"], v["players"][seat], v["pending"]
        if phase == "buy":
            return _("buy a combo (you have {gold} gold and {vp} VP)", gold=me["gold"], vp=me["vp"])
        if phase == "place" and pend is not None:
            if pend["placed"]:
                return _("place your start tile in column 1")
            if _to_base(pend):  # V-27
                text = _("place {tile}; the {kind} goes to the base (V-27)",
                         tile=tile_text(pend["tile"]), kind=kind_text(pend["viking"]))
            else:
                text = _("place {tile}; the {kind} stands on it when its row matches, else it goes to the base",
                         tile=tile_text(pend["tile"]), kind=kind_text(pend["viking"]))
            if me["start_tile_pending"]:
                if any(type(a) is A.Place for a in game.legal_actions(seat)):
                    text += " " + _("— and your start tile, in either order")
                else:  # V-24
                    return _("first place your start tile in column 1; then {tile} can go next to it",
                             tile=tile_text(pend["tile"]))
            return text
        if phase == "sail":
            if v["trip"] is not None:
                return _("this sailor may take another viking, or stop")
            return _("major scoring: use your sailors cell by cell, or plan them all at once (you have {n})",
                     n=me["base"]["B"])
        if phase == "bid":
            return _("bid for the start player, or drop out; highest bid {n}", n=_high_bid(v))
        if phase == "remove":
            return _("remove one of the drawn vikings from the game")
        if phase == "lay":
            return _("choose a kind of viking to lay out")
        if phase == "special":
            return _("take a displayed special tile, or none")
        if phase == "swap":
            return _("choose the middle tile the building tile replaces")
        return _("your move")

    def describe_action(self, game: VikingsGame, action: Action) -> str:
        """A label for a button, select option or autocomplete choice (≤ 100 characters)."""
        if isinstance(action, A.Buy):
            slot = game.view(None)["wheel"][action.pos]
            tile, viking = (slot["tile"], slot["viking"] or "") if slot else ("", "")
            return _("{pos}: {kind} + {tile} — {cost}", pos=action.pos, kind=kind_text(viking),
                     tile=tile_text(tile), cost=self.buy_cost(game, action))[:100]
        if isinstance(action, A.Exchange):
            return _("exchange {n} VP for {n} gold", n=action.amount)
        if isinstance(action, A.Place):
            if action.to_base:
                return _("{cell}, viking to the base", cell=cell_name(action.row, action.col))
            pend = game.view(None)["pending"]
            viking = pend["viking"] if pend else ""
            stands = action.row != 0 and action.row == {"W": 1, "N": 2, "S": 3, "G": 4, "F": 5}.get(viking)
            return (_("{cell}, {kind} on the tile", cell=cell_name(action.row, action.col),
                      kind=kind_text(viking)) if stands
                    else _("{cell}", cell=cell_name(action.row, action.col)))
        if isinstance(action, A.Start):
            return _("start tile at {cell}", cell=cell_name(action.row, 1))
        if isinstance(action, A.Sail):
            from engine.vikings.data import ROW_KIND

            text = _("{kind} to {cell}", kind=kind_text(ROW_KIND[action.row]), cell=cell_name(action.row, action.col))
            return _("boat: {text}", text=text) if action.boat else text
        if isinstance(action, A.SailDone):
            return _("this sailor is done")
        if isinstance(action, A.SailEnd):
            return _("no more sailors")
        if isinstance(action, A.Bid):
            return _("bid {n} gold", n=action.amount)
        if isinstance(action, A.Pass):
            return _("drop out")
        if isinstance(action, A.Remove):
            return _("remove a {kind}", kind=kind_text(action.kind))
        if isinstance(action, A.Lay):
            auction = game.view(None).get("auction")
            n = list(auction["drawn"]).count(action.kind) if auction else 0
            if n == 1:
                return _("lay out the {kind}", kind=kind_text(action.kind))
            return _("lay out the {kinds}", kinds=_(KIND_TEXT_PLURAL[action.kind]))
        if isinstance(action, A.TakeSpecial):
            return _("no special tile") if action.name == "none" else _(SPECIAL_TEXT[action.name])
        if isinstance(action, A.Swap):
            return _("replace the tile at {cell}", cell=cell_name(action.row, action.col))
        return str(action)

    # ------------------------------------------------------------------ table as text / image / notation

    def text(self, game: VikingsGame, seat: int | None = None) -> str:
        v = game.view(seat)
        coming = N_("major + final") if (nxt := v["scorings"][v["round"] - 1]) == "final" else nxt  # V-33, V-37
        lines = [_("Vikings — round {round} of 6, next scoring: {scoring}.", round=v["round"],
                   scoring=_(coming)) if not game.is_over else _("Vikings — game over.")]
        offer = []
        for pos, c in enumerate(v["wheel"]):
            if c is None:
                continue
            offer.append(f"{pos}:{c['tile']}/{c['viking'] or '?'}")
        if offer:
            lines.append(_("Offer (position:tile/viking, price = position): {offer}", offer="  ".join(offer)))
        for p in v["players"]:
            marks = []
            if p["seat"] == v["start_player"]:
                marks.append(_("start player"))
            if p["seat"] == v["active"]:
                marks.append(_("to act"))
            head = _("{name}: {gold} gold, {vp} VP", name=p["name"], gold=p["gold"], vp=p["vp"])
            head += f" ({', '.join(marks)})" if marks else ""
            lines.append(head)
            # an empty homeland is said, or the next player's grid would read as this one's
            lines += homeland_grid(p["rows"]) or ["    " + _("empty homeland")]
            base = " ".join(f"{k}{n}" for k, n in p["base"].items() if n)
            if base:
                lines.append("    " + _("base: {vikings}", vikings=base))
            if p["threatened"]:
                lines.append("    " + _("threatened: {cells}", cells=" ".join(p["threatened"])))
            if p["specials"]:
                lines.append("    " + _("special tiles: {tiles}", tiles=", ".join(_(SPECIAL_TEXT[s]) for s in p["specials"])))
        if v.get("specials_display") is not None:
            lines.append(_("Special tiles on display: {tiles}",
                           tiles=", ".join(_(SPECIAL_TEXT[s]) if s else "—" for s in v["specials_display"])))
        final = v["final"]
        if game.is_over and final is not None:
            winners = ", ".join(game.names[s] for s in final["winners"])
            lines.append(_("Final scoring — winner(s): {names}.", names=winners))
            for s, name in enumerate(game.names):
                lines.append(f"  {name}: " + "; ".join(tr_msg(x) for x in final["lines"][s]))
        if v.get("auction") and v["phase"] in ("bid", "remove", "lay"):
            a = v["auction"]
            lines.append(_("Drawn vikings: {drawn}", drawn=" ".join(a["drawn"])))
        return "\n".join(lines)

    def text_key(self) -> str | None:
        return _("Key: L, R island ends · Ma–Md middle tiles (building a–d) · * a viking stands on the "
                 "tile · ^r ^g ^y ^b ships (sail colour) · rows W warriors, N nobles, S scouts, "
                 "G goldsmiths, F fishers · base: F fisher, G goldsmith, S scout, N noble, W warrior, "
                 "B sailor.")

    def render(self, game: VikingsGame, *, seat: int | None = None) -> bytes | None:
        """The full table (``/board``): every homeland cropped to its columns in use."""
        return self.picture(game, seat=seat, board=True)

    # ------------------------------------------------------------------ pictures (issue 14)

    def needs_replay(self, game: VikingsGame, events: Sequence[Event]) -> bool:
        """The picture of this move needs the action log replayed: the final scoring's VP chart, or a
        major scoring whose players scored over several moves (V-33: each sails in turn)."""
        if game.is_over:
            return True
        done = _finished_scoring(game, events)
        return done is not None and len({s["seat"] for s in done}) < len(game.names)

    def plan_dialog(self, game: VikingsGame, seat: int, steps: Sequence[tuple[bool, Sequence[str]]], extra: bool,
                    *, picture: bool = False) -> PlanDialog | None:
        """The sailor dialog (V-33 … V-35): every sailor's trip planned, sent as one ``sail plan``."""
        from bot.games.vikings_sailing import sailor_dialog

        return sailor_dialog(game, seat, steps, extra, picture=picture, kind_text=kind_text)

    def scoring_pictured(self, game: VikingsGame, events: Sequence[Event]) -> bool:
        """Whether this move's picture is the scoring picture (it finished a scoring): Discord then
        shows it with the scoring's message (issue 13)."""
        return _finished_scoring(game, events) is not None

    def picture(self, game: VikingsGame, *, seat: int | None = None, board: bool = False,
                events: Sequence[Event] = (), replay: Any = None, focus: int | None = None) -> bytes | None:
        """The chat picture: the full table for ``/board`` (``focus``: one homeland large), the scoring
        picture when this move finished a scoring, else the turn picture (``focus``: whose homeland
        it shows instead of the acting player's: the animated recap shows the player who just
        moved). ``replay``: ``(setup, moves)`` of the match when :meth:`needs_replay` asked for it."""
        from renderer.scoring import render_vikings_scoring
        from renderer.vikings import highlights_from_actions, render_vikings
        from renderer.vikings_turn import render_vikings_turn

        view = game.view(seat)
        highlights = None
        acting = game.acting_seats()
        if view["phase"] == "place" and acting:
            highlights = highlights_from_actions(game.legal_actions(acting[0]))
        elif view["phase"] == "sail" and acting and not board:  # V-34: where a sailor may take a viking
            cells = [str(a).split()[1] for a in game.legal_actions(acting[0])
                     if str(a).split()[0] == "sail" and len(str(a).split()) == 2 and str(a).split()[1][:1].isalpha()
                     and str(a).split()[1][1:].isdigit()]
            highlights = {"tile": cells, "base": []} if cells else None
        if board:
            return render_vikings(view, highlights=highlights, focus=focus, tr=_, ntr=ngettext)
        scores = _finished_scoring(game, events)
        if scores is not None:
            history = None
            if replay is not None:
                from bot.games.replay import try_replay

                rep = try_replay(type(game), *replay)
                history = rep.history if rep else None
                if rep and len({s["seat"] for s in scores}) < len(game.names) and rep.last_scores:
                    kind = scores[0]["scoring"]
                    scores = [s for s in rep.last_scores if s.get("scoring") == kind] or scores
            return render_vikings_scoring(view, scores, history=history, after_round=scored_round(game, events),
                                          tr=_, ntr=ngettext)
        legal = [str(a) for a in game.legal_actions(acting[0])] if view["phase"] == "buy" and acting else None
        # the pictures speak the current language (the host sets it per task with use_language)
        return render_vikings_turn(view, highlights=highlights, legal=legal, shown=focus, tr=_, ntr=ngettext)

    def notation(self, game: VikingsGame) -> str | None:
        return game.to_notation()

    def revealed(self, game: VikingsGame) -> list[str]:
        """Issue 25: what lay face down (the next stack, the bag's next draw), for a finished game's replay."""
        return revealed_lines(game.to_json())

    # ------------------------------------------------------------------ rules

    def rules(self, topic: str | None) -> list[str]:
        if topic is None:
            return [
                _("Vikings (Michael Kiesling), 2–4 players, 6 rounds. Each round 12 combos (tile + viking) "
                  "lie on the wheel; a combo costs its position in gold. Buy one per turn and place the tile "
                  "at once: ships in the top row, islands (left end, middles, right end) in the five rows "
                  "below; a viking stands on its tile when the row is its own."),
                _("Undefended ships (no warrior under them) threaten the vikings below down to their sail's "
                  "depth. Small scoring after rounds 1, 3, 5 (goldsmiths); major scoring after 2, 4, 6 "
                  "(ships, nobles, scouts, goldsmiths, sailors move vikings first); final scoring after round 6."),
                _("Ask for one rule by number: rules V-14. Rules V-1 to V-49 are available."),
            ]
        return lookup("vikings.md", "V", topic)


def _to_base(pending: Mapping[str, Any]) -> bool:
    """V-27: the bought viking goes to the base wherever its tile goes — a sailor always, and any
    viking bought with a ship."""
    return pending["viking"] == SAILOR or str(pending["tile"]).startswith("^")


def _gold(game: VikingsGame, seat: int) -> int:
    return game.view(None)["players"][seat]["gold"]


def _high_bid(view: VikingsView) -> int:
    """The highest bid of the auction under way (V-41), 0 before anyone bids."""
    auction = view.get("auction")
    bids = auction["bids"] if auction else None
    return int(bids["high"]) if bids else 0


def _finished_scoring(game: VikingsGame, events: Sequence[Event]) -> list[dict[str, Any]] | None:
    """The ``score`` events (data with ``seat``) of the scoring this move finished, else ``None``.
    A scoring is finished once no sailor is still to move (V-33); of a major and the final scoring in
    one move (round 6), the final one is pictured."""
    scores = [dict(e.data, seat=e.seat) for e in events if e.kind == "score"]
    if not scores or game.view(None)["phase"] == "sail":
        return None
    kind = scores[-1]["scoring"]
    return [s for s in scores if s["scoring"] == kind]


def scored_round(game: VikingsGame, events: Sequence[Event]) -> int:
    """The round a scoring finished by ``events`` belongs to: the move may already have begun the next."""
    new = [int((e.data or {}).get("round", 0)) for e in events if e.kind == "round"]
    return new[-1] - 1 if new else int(game.view(None)["round"])

