"""Brian Boru deals consistent with everything a seat saw, at any decision (issue 30).

:func:`deal` rebuilds a whole :class:`~engine.brianboru.BrianBoruGame` from one seat's view: what the
view shows is copied, what it hides is drawn at random among the arrangements the seat cannot tell
apart. The engine's continuation (its task stack) is public and part of the view, so a game can be
rebuilt at every decision: the draft, the tricks, a losing card's option, extras, expansions, a
freed town, raids, monasteries, the Princess.

**The draft** (B-13, B-14). Each seat's dealt pile travels left, one seat a step, every holder
keeping two cards, until the last two (or one) join the hand of the seat holding them: a *chain*.
The seat knows, from its own draft memory (``view["you"]["drafted"]``), every chain it held: the pile
it saw and what it passed on. So:

* the cards it passed at a step are, now, in the hands of the seats that held that chain after it
  (two kept by each, at the steps since), or in the pile of the seat holding it now, or played;
* the cards kept from a chain *before* it reached the seat, and every card of a chain it never held,
  are unknown: drawn from the cards it has not seen;
* a card an opponent played this round (``view["played"]``) was in that opponent's hand: it is put
  in one of the opponent's places.

The Viking deck and the marriage stack (the Princess at its bottom, B-7) are drawn again from the
cards not revealed. A view without draft memory (a game saved before issue 30) gets the unseen
cards spread uniformly, as :func:`engine.players.brianboru.determinize` does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.brianboru.data import DATA as D
from engine.brianboru.data import WHITE
from engine.brianboru.game import TOWN_VERBS, BrianBoruGame, parse_action
from engine.core import Rng

ALL_CARDS = frozenset(D.card_values)
T = len(D.town_names)


class Inconsistent(ValueError):
    """The draft memory admits no arrangement (never in a real game: a corrupt view)."""


def keep_steps(n: int) -> tuple[int, int]:
    """(keep steps of a round's draft, cards joining the hand at its end) for ``n`` seats (B-14)."""
    size, steps = D.deal[n], 0
    while size > 2:
        size -= 2
        steps += 1
    return steps, size


def deal(view: Mapping[str, Any], rng: Rng) -> BrianBoruGame:
    """A whole game consistent with ``view`` (a seat's own view at one of its decisions), hidden
    cards drawn by ``rng``. ``ValueError`` on a spectator's view or another seat's decision."""
    me = view["seat"]
    if me is None or "you" not in view:
        raise ValueError("deal() needs a seat's own view")
    pend = view["pending"]
    if pend is not None and pend["kind"] != "keep" and pend["seat"] != me:
        raise ValueError("deal() rebuilds the seat's own decisions only")
    hands, piles, choice, aside, discard = _cards(view, rng)
    active = D.town_index[view["active_town"]] if view["active_town"] else -1
    trick = [[c["seat"], c["card"]] for c in view["trick"]["cards"]]
    return state(view, rng, (hands, piles, choice, aside, discard), free_lead=_free_lead(view, active, trick),
                 tasks=[list(t) for t in view["tasks"]], pending=_pending(view), final=view["final"])


def decks(view: Mapping[str, Any], rng: Rng) -> tuple[list[int], list[int], list[int], int | None]:
    """(the Viking deck, the marriage stack, the marriages out of play, the one revealed) drawn again
    from the cards the view does not show (B-7: the Princess at the stack's bottom; B-11, B-12)."""
    vik = list(D.viking_cards)
    for v in view["viking_cards_revealed"]:
        vik.remove(v)
    rng.shuffle(vik)
    taken = {m for p in view["players"] for m in p["marriages"]}
    revealed = view["marriage"]["revealed"]
    rid = revealed["id"] if revealed else None
    gone_princess = (D.princess_id not in taken and rid != D.princess_id and view["marriage"]["stack_left"] == 0)
    ordinary = [m for m in D.ordinary_marriage if m not in taken and m != rid]
    rng.shuffle(ordinary)
    left = view["marriage"]["stack_left"]
    stack = [D.princess_id, *ordinary[: left - 1]] if left > 0 else []
    out = ordinary[max(0, left - 1):]
    if gone_princess:  # refused (B-27.3) or lost with every disc on space 1 ([D-6])
        out.append(D.princess_id)
    return vik, stack, out, rid


Cards = tuple[list[list[int]], list[list[int]], list[Any], list[int], list[int]]  # hands, piles, choices, aside, discard


def state(view: Mapping[str, Any], rng: Rng, cards: Cards, *, free_lead: bool, tasks: list[list[Any]],
          pending: dict[str, Any] | None, final: Any) -> BrianBoruGame:
    """The whole game: what ``view`` shows copied, the hidden ``cards`` as dealt, the decks drawn by
    ``rng`` (:func:`decks`), the engine's continuation (``tasks``, ``pending``) as given. The deal of
    the ``hard`` level (:func:`deal`) and of ``montecarlo``
    (:func:`engine.players.brianboru.determinize`) both end here."""
    hands, piles, choice, aside, discard = cards
    n = len(view["players"])
    vik, stack, out, rid = decks(view, rng)
    towns = view["towns"]
    s: dict[str, Any] = {
        "game": "brian-boru", "names": [p["name"] for p in view["players"]], "n": n, "round": view["round"],
        "rounds": view["rounds"], "phase": view["phase"], "start": view["start_player"],
        "marker": -1 if view["marker"] is None else view["marker"],
        "active": D.town_index[view["active_town"]] if view["active_town"] else -1, "leader": view["leader"],
        "free_lead": free_lead,
        "owner": [-1 if t["owner"] is None else t["owner"] for t in towns],
        "viking": [t["viking"] for t in towns], "monastery": [t["monastery"] for t in towns],
        "claim_up": [c["face_up"] for c in view["claims"]],
        "claim_owner": [-1 if c["owner"] is None else c["owner"] for c in view["claims"]],
        "battle": view["battle"], "viking_deck": vik, "viking_revealed": list(view["viking_cards_revealed"]),
        "marriage_stack": stack, "marriage_out": out, "marriage_revealed": rid,
        "aside": aside, "discard": discard,
        "coins": [p["coins"] for p in view["players"]], "vp": [p["vp"] for p in view["players"]],
        "renown": [p["renown"] for p in view["players"]], "invaders": [p["invaders"] for p in view["players"]],
        "church": [p["church"] for p in view["players"]], "track": [p["track"] for p in view["players"]],
        "hand": hands, "pile": piles, "choice": choice,
        "marriages": [list(p["marriages"]) for p in view["players"]],
        "princess": next(([p["seat"], p["princess"]] for p in view["players"] if p["princess"]), None),
        "trick": [[c["seat"], c["card"]] for c in view["trick"]["cards"]],
        "winner": -1 if view["trick"]["winner"] is None else view["trick"]["winner"],
        "trick_no": view["trick"]["number"] - 1, "tasks": tasks, "pending": pending, "final": final,
        "winners": [],
        "rng": rng.next64(),
    }
    if "played" in view:  # the round's memory as the seat knows it: its view stays the same
        s["memory"] = memory_of(view)
    return BrianBoruGame.from_json(s)


# --------------------------------------------------------------------------- the continuation


def _pending(view: Mapping[str, Any]) -> dict[str, Any] | None:
    pend = view["pending"]
    if pend is None:
        return None
    kind = pend["kind"]
    if kind == "keep":
        return {"kind": "keep", "seats": list(pend["seats"]), "rule": pend.get("rule")}
    options: list[Any] = []
    for text in view["you"]["legal"]:
        arg = parse_action(text).args[0]
        options.append((-1 if arg == "no" else D.town_index[arg]) if kind in TOWN_VERBS or kind == "expand"
                       else arg)
    p: dict[str, Any] = {"kind": kind, "seat": pend["seat"], "options": options, "rule": pend.get("rule")}
    for key in ("why", "victim", "sym", "base", "card"):
        if key in pend:
            p[key] = pend[key]
    if "region" in pend:
        p["region"] = D.region_ids.index(pend["region"])
    if pend.get("hold"):
        p["hold"] = True
    return p


def _free_lead(view: Mapping[str, Any], active: int, trick: Sequence[Sequence[int]]) -> bool:
    """Whether the trick's lead was (or will be) free of the active town's colour (B-17, [D-1])."""
    pend = view["pending"]
    towns = view["towns"]
    if pend is not None and pend["kind"] == "active":  # the seat's own lead: from its hand
        empty = [x for x in range(T) if towns[x]["owner"] is None]
        cols = {D.card_colour[c] for c in view["you"]["hand"]}
        return not (WHITE in cols or any(D.town_colour[x] in cols for x in empty))
    if pend is not None and pend["kind"] == "lead":
        return active < 0 or any(D.card_colour[int(t.split()[1])] not in (D.town_colour[active], WHITE)
                                 for t in view["you"]["legal"])
    if view["phase"] == "tricks" and trick:
        return active < 0 or D.card_colour[trick[0][1]] not in (D.town_colour[active], WHITE)
    return False


# --------------------------------------------------------------------------- the cards


def _cards(view: Mapping[str, Any], rng: Rng) -> tuple[list[list[int]], list[list[int]], list[Any], list[int],
                                                         list[int]]:
    """(hands, piles, choices, the cards set aside, the discards) consistent with ``view``."""
    me = view["seat"]
    n = len(view["players"])
    if view["phase"] not in ("draft", "tricks"):  # no card is in a hand: all are out of play, face down
        return [[] for _ in range(n)], [[] for _ in range(n)], [None] * n, [], sorted(ALL_CARDS)
    played = [(e["seat"], e["card"]) for e in view.get("played", [])]
    if "played" in view and "drafted" in view["you"]:
        try:
            return _chains(view, rng, played)
        except Inconsistent:  # a view the draft chains cannot explain (a game saved before issue 30)
            return _uniform(view, rng, played, me, n)
    return _uniform(view, rng, played, me, n)


def _finish(view: Mapping[str, Any], rng: Rng, hands: list[list[int]], piles: list[list[int]],
            rest: list[int], played: Sequence[tuple[int, int]]) -> tuple[list[list[int]], list[list[int]], list[Any],
                                                                         list[int], list[int]]:
    me = view["seat"]
    n = len(view["players"])
    trick = {c["card"] for c in view["trick"]["cards"]}
    choice: list[Any] = [None] * n
    for q in range(n):
        if q == me:
            choice[q] = None if view["you"]["choice"] is None else list(view["you"]["choice"])
        elif view["players"][q]["chosen"]:
            pick = list(piles[q])
            rng.shuffle(pick)
            choice[q] = sorted(pick[:2])
    discard = [c for _q, c in played if c not in trick]
    return [sorted(h) for h in hands], [sorted(p) for p in piles], choice, sorted(rest), discard


def _uniform(view: Mapping[str, Any], rng: Rng, played: Sequence[tuple[int, int]], me: int, n: int) -> Any:
    """Unseen cards spread uniformly over the hidden places (no draft memory in the view)."""
    you = view["you"]
    seen = set(you["hand"]) | set(you["draft"]) | {c for _q, c in played} | {c["card"] for c in view["trick"]["cards"]}
    pool = sorted(ALL_CARDS - seen)
    rng.shuffle(pool)
    hands: list[list[int]] = [[] for _ in range(n)]
    piles: list[list[int]] = [[] for _ in range(n)]
    for q in range(n):
        if q == me:
            hands[q], piles[q] = list(you["hand"]), list(you["draft"])
            continue
        p = view["players"][q]
        hands[q] = pool[: p["hand_size"]]
        del pool[: p["hand_size"]]
        piles[q] = pool[: p["draft_size"]]
        del pool[: p["draft_size"]]
    return _finish(view, rng, hands, piles, pool, played)


def _chains(view: Mapping[str, Any], rng: Rng, played: Sequence[tuple[int, int]]) -> Any:
    """The draft followed chain by chain (see the module's docstring)."""
    me = view["seat"]
    n = len(view["players"])
    you = view["you"]
    steps, merge = keep_steps(n)
    drafted = you["drafted"]
    c = len(drafted)  # keep steps done
    drafting = view["phase"] == "draft"
    cur = c + 1 if drafting else steps + 2  # the step the piles are at now (after the merge: steps + 2)
    if (drafting and c >= steps) or (not drafting and c != steps):
        raise Inconsistent("draft memory and phase disagree")
    by_seat: dict[int, set[int]] = {}
    for q, card in played:
        by_seat.setdefault(q, set()).add(card)
    mine_played = by_seat.get(me, set())
    mine_ever = set(you["hand"]) | mine_played | set(you["draft"])
    kept_all = {x for step in drafted for x in step["kept"]}
    merged_mine = sorted(mine_ever - kept_all) if not drafting else []

    def holder(o: int, t: int) -> int:
        return (o + t - 1) % n

    def size(t: int) -> int:
        return 2 if t <= steps else merge

    # slots[(o, t)]: the cards of chain o kept at step t (merge: t = steps + 1) — hands if t < cur
    slots: dict[tuple[int, int], list[int]] = {}
    pile_of: dict[int, list[int]] = {}  # chain o's pile now (drafting), by chain
    unknown: list[tuple[int, int]] = []  # slots to fill from the unseen cards
    unknown_piles: list[int] = []  # chains whose current pile is unseen
    known_cards: set[int] = set(mine_ever)
    todo: list[tuple[int, list[int], int]] = []  # (chain, cards after the seat's step, the seat's step)
    for o in range(n):
        t_me = (me - o) % n + 1
        last = min(cur - 1, steps + 1)  # the last step already taken into hands
        if t_me <= c:  # the seat kept from this chain and passed on the rest
            step = drafted[t_me - 1]
            slots[(o, t_me)] = list(step["kept"])
            known_cards |= set(step["kept"]) | set(step["passed"])
            todo.append((o, list(step["passed"]), t_me))
        elif drafting and t_me == cur:  # the pile in front of the seat now
            pile_of[o] = list(you["draft"])
        elif not drafting and t_me == steps + 1:  # the last cards, joined to the seat's hand
            slots[(o, t_me)] = merged_mine
        else:
            t_me = 10 ** 6  # never held: every card unknown
            if drafting:
                unknown_piles.append(o)
        for t in range(1, min(t_me, last + 1)):
            unknown.append((o, t))
    # the cards the seat passed: kept by the holders after it, or in the pile now
    for o, passed, t_me in todo:
        cards = list(passed)
        later = [t for t in range(t_me + 1, steps + 2) if t < cur]
        for t in later:
            q = holder(o, t)
            if q == me:  # come back to the seat (its last cards, B-14)
                slots[(o, t)] = sorted(x for x in cards if x in mine_ever)
                cards = [x for x in cards if x not in mine_ever]
                continue
            forced = [x for x in cards if x in by_seat.get(q, ())]
            others = [x for x in cards if x not in forced and x not in mine_ever
                      and not any(x in by_seat.get(h, ()) for h in range(n))]
            if len(forced) > size(t):
                raise Inconsistent("a seat played more cards of a chain than it kept")
            rng.shuffle(others)
            pick = forced + others[: size(t) - len(forced)]
            if len(pick) < size(t):
                raise Inconsistent("a chain ran short")
            slots[(o, t)] = pick
            cards = [x for x in cards if x not in pick]
        if drafting:
            pile_of[o] = cards
        elif cards:
            raise Inconsistent("cards of a chain left over after the draft")
    # the unseen cards: opponents' plays first into their own places, then the rest at random
    pool = sorted(ALL_CARDS - known_cards)
    free = {key: size(key[1]) for key in unknown}
    for key in unknown:
        slots[key] = []
    for q, cards_q in sorted(by_seat.items()):
        for x in sorted(cards_q):
            if x in known_cards:
                continue
            places = [key for key in unknown if holder(*key) == q and free[key] > 0]
            if not places:
                raise Inconsistent("an opponent played a card it could not hold")
            key = places[rng.randbelow(len(places))]
            slots[key].append(x)
            free[key] -= 1
            pool.remove(x)
    rng.shuffle(pool)
    for key in unknown:
        k = free[key]
        slots[key].extend(pool[:k])
        del pool[:k]
    for o in unknown_piles:
        q = holder(o, cur)
        k = view["players"][q]["draft_size"]
        pile_of[o] = pool[:k]
        del pool[:k]
    hands: list[list[int]] = [[] for _ in range(n)]
    piles: list[list[int]] = [[] for _ in range(n)]
    gone = {x for _q, x in played}
    for (o, t), cards in slots.items():
        if t < cur:
            hands[holder(o, t)].extend(x for x in cards if x not in gone)
    for o, cards in pile_of.items():
        piles[holder(o, cur)] = list(cards)
    hands[me], piles[me] = list(you["hand"]), list(you["draft"])
    for q in range(n):
        p = view["players"][q]
        if len(hands[q]) != p["hand_size"] or len(piles[q]) != p["draft_size"]:
            raise Inconsistent(f"seat {q}: {len(hands[q])} cards in hand, {len(piles[q])} in the pile")
    return _finish(view, rng, hands, piles, pool, played)


def memory_of(view: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's round memory for a game rebuilt from ``view``: the plays (public) and the seat's own
    draft as it was; the other seats' drafts are not known, so they are left empty (no seat ever sees
    them: only its own view shows a seat's draft)."""
    me = view["seat"]
    return {"played": [[e["seat"], e["card"]] for e in view["played"]],
            "draft": [[[list(s["kept"]), list(s["passed"])] for s in view["you"].get("drafted", [])] if q == me else []
                      for q in range(len(view["players"]))]}
