"""Brian Boru: state, actions and the rules B-5 … B-34 (see ``../shared/rules/brian-boru.md``).

The state is one JSON-shaped dict (``self.s``) plus the RNG. Play is driven by a small task stack
(``s["tasks"]``, next task last): automatic steps run at once; a step that needs a choice sets
``s["pending"]`` and stops until a seat answers with an action. Every compound choice is cut into
small decisions, so ``legal_actions()`` stays short. A decision with exactly one legal answer is
taken automatically, except the simultaneous draft.

Action texts (``parse_action`` reads them, case-insensitive):

==================  ==========================================================================
``town NAME``       put a disc on NAME (start town B-9, "any town", "town in R", marriage rewards)
``active NAME``     the leader puts the active-town marker on NAME (B-17)
``lead N``          the leader leads card N (B-17)
``play N``          play card N to the trick (B-18)
``keep A B``        draft: keep cards A and B (B-14), all seats at once
``option 1|2``      a losing card's secondary action (B-20)
``extra N``         pay 2N coins for N more church discs / invaders / marriage steps (B-22)
``expand NAME``     pay 5 coins for a disc on NAME (B-22 expand); ``expand no`` declines
``free NAME``       remove the Viking control marker on NAME (B-22 free)
``princess X``      support | trade | refuse (B-27)
``raid NAME``       the town that goes to the Vikings (B-28)
``monastery NAME``  put a monastery on NAME (B-30)
==================  ==========================================================================
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from operator import itemgetter
from typing import Any, ClassVar

from engine.brianboru.data import CARD_COLOURS, COLOURS, DATA, WHITE
from engine.brianboru.notation import format_position
from engine.brianboru.scoring import PlayerPosition, Position, final_scoring, region_counts
from engine.brianboru.view import BrianBoruView, ClaimView, PendingView, TownView
from engine.core import (
    Action,
    ActionSyntaxError,
    Event,
    Game,
    GameInfo,
    IllegalActionError,
    Msg,
    NotYourTurnError,
    Rng,
    SharedList,
    WrongPhaseError,
    msg,
    msgn,
    whole_number,
)

D = DATA
T = len(D.town_names)
TOWN_NAMES = D.town_names
TOWN_COLOUR = D.town_colour
TOWN_REGION = D.town_region
CARD_COLOUR = D.card_colour
TOP = D.top_space
PRINCESS_CHOICES = ("refuse", "support", "trade")
HOLD = "hold"  # argument of a marriage symbol that another marriage symbol follows in the same action (B-22)
TOWN_VERBS = frozenset({"town", "active", "raid", "free", "monastery"})
VERBS = ("town", "active", "lead", "play", "keep", "option", "extra", "expand", "free", "princess", "raid",
         "monastery")
# the rule an illegal answer to each kind of decision breaks
KIND_RULE = {"active": "B-17", "lead": "B-17", "play": "B-18", "keep": "B-14", "option": "B-20",
             "extra": "B-22", "expand": "B-22", "free": "B-22", "princess": "B-27", "raid": "B-28",
             "monastery": "B-30"}
KIND_WHAT = {"town": msg("place a disc on a town"), "active": msg("put the active-town marker on a town"),
             "lead": msg("lead a card"), "play": msg("play a card"), "keep": msg("keep two cards"),
             "option": msg("choose a secondary action"), "extra": msg("choose how many extras to pay for"),
             "expand": msg("expand or not"), "free": msg("remove a Viking control marker"),
             "princess": msg("choose what to do with the Princess"),
             "raid": msg("choose the town lost to the Vikings"),
             "monastery": msg("choose the monastery town")}
COLOUR_WORD = {"red": msg("red"), "blue": msg("blue"), "yellow": msg("yellow")}
"""Town colours as words the host translates (issue 16); town and region names stay as they are."""


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class BrianBoruAction(Action):
    """``verb`` and ``args`` (town names, card values, numbers or words); ``str()`` is the text form."""

    verb: str
    args: tuple = ()
    _text: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_text", " ".join([self.verb, *map(str, self.args)]))

    @property
    def text(self) -> str:
        return self._text

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, BrianBoruAction):
            return NotImplemented
        return self._text < other._text


_ACTS: dict[tuple, BrianBoruAction] = {}


def act(verb: str, *args: Any) -> BrianBoruAction:
    key = (verb, args)
    a = _ACTS.get(key)
    if a is None:
        a = _ACTS[key] = BrianBoruAction(verb, args)
    return a


def _clip(word: str, most: int = 20) -> str:
    """``word`` shortened for an error reason (the whole text is already in the error)."""
    return word if len(word) <= most else word[: most - 1] + "…"


def parse_action(text: str) -> BrianBoruAction:
    if not isinstance(text, str):
        raise ActionSyntaxError(_clip(repr(text), 100), msg("an action is text"))
    parts = text.split()
    if not parts:
        raise ActionSyntaxError(text, msg("empty text"))
    verb, args = parts[0].lower(), parts[1:]
    if verb not in VERBS:
        raise ActionSyntaxError(text, msg("unknown word {word}; actions start with one of {verbs}",
                                                 word=repr(_clip(parts[0])), verbs=", ".join(VERBS)))
    need = 2 if verb == "keep" else 1
    if len(args) != need:
        raise ActionSyntaxError(text, msgn("'{verb}' takes {n} argument", "'{verb}' takes {n} arguments", need,
                                                 verb=verb))
    if verb in TOWN_VERBS or (verb == "expand" and args[0].lower() != "no"):
        t = D.town(args[0])
        if t is None:
            raise ActionSyntaxError(text, msg("no town called {word}", word=repr(_clip(args[0]))))
        return act(verb, TOWN_NAMES[t])
    if verb == "expand":
        return act("expand", "no")
    if verb == "princess":
        w = args[0].lower()
        if w not in PRINCESS_CHOICES:
            raise ActionSyntaxError(text, msg("the Princess: support, trade or refuse"))
        return act("princess", w)
    nums = []
    for a in args:
        v = whole_number(a)  # ASCII digits of sensible length only: '²', '١' or 5,000 digits are no number
        if v is None:
            raise ActionSyntaxError(text, msg("{word} is not a number (a whole number, digits 0–9)", word=repr(_clip(a))))
        nums.append(v)
    if verb in ("lead", "play", "keep"):
        for v in nums:
            if v not in D.cards:
                raise ActionSyntaxError(text, msg("there is no card {card} (cards are {low}–{high})", card=v,
                                                         low=D.card_values[0], high=D.card_values[-1]))
        if verb == "keep":
            if nums[0] == nums[1]:
                raise ActionSyntaxError(text, msg("keep two different cards"))
            return act("keep", *sorted(nums))
        return act(verb, nums[0])
    if verb == "option" and nums[0] not in (1, 2):
        raise ActionSyntaxError(text, msg("option is 1 or 2"))
    return act(verb, nums[0])


# --------------------------------------------------------------------------- state copies

_FLAT = ("names", "owner", "viking", "monastery", "claim_up", "claim_owner", "viking_deck", "viking_revealed",
         "marriage_stack", "marriage_out", "aside", "discard", "coins", "vp", "renown", "invaders", "church",
         "track", "winners")
_NESTED = ("hand", "pile", "marriages", "trick", "tasks")
_STATE_KEYS = frozenset(("game", "n", "round", "rounds", "phase", "start", "marker", "active", "leader",
                         "free_lead", "battle", "marriage_revealed", "princess", "choice", "winner", "trick_no",
                         "pending", "final", "rng", *_FLAT, *_NESTED))


def _copy_state(s: dict[str, Any]) -> dict[str, Any]:
    """A copy sharing no mutable part with ``s`` (the state's shape is fixed, so no generic deep copy)."""
    d = dict(s)
    for k in _FLAT:
        d[k] = list(s[k])
    for k in _NESTED:
        d[k] = [list(x) for x in s[k]]
    d["choice"] = [None if c is None else list(c) for c in s["choice"]]
    if s["princess"] is not None:
        d["princess"] = list(s["princess"])
    p = s["pending"]
    if p is not None:
        p = dict(p)
        for k in ("options", "seats"):
            if k in p:
                p[k] = list(p[k])
        d["pending"] = p
    if s["final"] is not None:
        d["final"] = json.loads(json.dumps(s["final"]))
    m = s.get("memory")
    if m is not None:  # this round's draft and trick memory (issue 30), from the deal to the upkeep
        d["memory"] = {"played": [list(e) for e in m["played"]],
                       "draft": [[[list(kept), list(passed)] for kept, passed in steps] for steps in m["draft"]]}
    return d


# --------------------------------------------------------------------------- game


class BrianBoruGame(Game):
    INFO: ClassVar[GameInfo] = GameInfo(
        id="brian-boru", title="Brian Boru", min_players=D.min_players, max_players=D.max_players,
        hidden_hands=True,  # hands and draft piles (B-14, B-17)
        simultaneous=True,  # the draft: every seat keeps two cards at once (B-14)
        # the public position (notation, scoring tests); ``step``, the players' unchecked apply (issue 30)
        # ``live_view``, the view with parts shared between calls, for the same simulations
        public=frozenset({"notation", "position", "step", "live_view"}),
    )
    GAME_ID: ClassVar[str] = INFO.id
    MIN_PLAYERS: ClassVar[int] = INFO.min_players
    MAX_PLAYERS: ClassVar[int] = INFO.max_players

    def __init__(self, state: dict[str, Any], rng: Rng) -> None:
        self.s = state
        self.rng = rng
        self._events: list[Event] | None = []  # None: a quiet step builds none
        self._live: dict[str, tuple[Any, SharedList]] = {}  # live_view's shared parts by what they show
        self._final_due = False  # a quiet step ended the game: ``final`` and ``winners`` written when read

    # ------------------------------------------------------------------ construction / JSON

    @classmethod
    def new(
        cls,
        names: Sequence[str],
        seed: int,
        options: dict[str, Any] | None = None,
        start_seat: int | None = None,
    ) -> BrianBoruGame:
        n = len(names)
        if not cls.MIN_PLAYERS <= n <= cls.MAX_PLAYERS:
            raise ValueError(f"Brian Boru is for {cls.MIN_PLAYERS}–{cls.MAX_PLAYERS} players, not {n} (D-3)")
        if len(set(names)) != n:
            raise ValueError("player names must be different")
        if options:
            raise ValueError(f"Brian Boru has no options; got {sorted(options)}")
        if start_seat is not None and not 0 <= start_seat < n:
            raise ValueError(f"start_seat must be 0..{n - 1}")
        rng = Rng(seed)
        st = D.start
        # B-7 marriage stack: the Princess at the bottom, 2 or 3 shuffled ordinary cards on her
        ordinary = list(D.ordinary_marriage)
        rng.shuffle(ordinary)
        used = D.ordinary_used[n]
        vikings = list(D.viking_cards)
        rng.shuffle(vikings)
        start = rng.randbelow(n) if start_seat is None else start_seat  # B-8
        s: dict[str, Any] = {
            "game": cls.GAME_ID,
            "names": list(names),
            "n": n,
            "round": 0,
            "rounds": used + 1,
            "phase": "setup",
            "start": start,
            "marker": start,
            "active": -1,
            "leader": start,
            "free_lead": False,
            "owner": [-1] * T,
            "viking": [False] * T,
            "monastery": [False] * T,
            "claim_up": [False] * len(D.region_ids),  # B-6 claim tokens face down on their regions
            "claim_owner": [-1] * len(D.region_ids),
            "battle": 0,
            "viking_deck": vikings,
            "viking_revealed": [],
            "marriage_stack": [D.princess_id, *ordinary[:used]],
            "marriage_out": ordinary[used:],
            "marriage_revealed": None,
            "aside": [],
            "discard": [],
            "coins": [st["coins"]] * n,  # B-5
            "vp": [st["vp"]] * n,
            "renown": [st["renown"]] * n,
            "invaders": [0] * n,
            "church": [0] * n,
            "track": [st["track"]] * n,
            "hand": [[] for _ in range(n)],
            "pile": [[] for _ in range(n)],
            "choice": [None] * n,
            "marriages": [[] for _ in range(n)],
            "princess": None,
            "trick": [],
            "winner": -1,
            "trick_no": 0,
            "tasks": [],
            "pending": None,
            "final": None,
            "winners": [],
        }
        g = cls(s, rng)
        # B-9 clockwise from the start player, one start town each; then the first round
        g._then(*[["setup", (start + k) % n] for k in range(n)], ["round"])
        g._run()
        return g

    def to_json(self) -> dict[str, Any]:
        if self._final_due:
            self._final()
        d = _copy_state(self.s)
        d["rng"] = self.rng.state
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BrianBoruGame:
        if data.get("game") != cls.GAME_ID:
            raise ValueError(f"not a Brian Boru game: {data.get('game')!r}")
        missing = _STATE_KEYS - data.keys()
        if missing:
            raise ValueError(f"Brian Boru state lacks {sorted(missing)}")
        s = _copy_state(data)
        rng = Rng(0)
        rng.state = int(s.pop("rng"))
        return cls(s, rng)

    @property
    def names(self) -> list[str]:
        return list(self.s["names"])

    # ------------------------------------------------------------------ protocol

    @property
    def is_over(self) -> bool:
        return self.s["phase"] == "over"

    def winners(self) -> list[int]:
        if self._final_due:
            self._final()
        return list(self.s["winners"])

    def acting_seats(self) -> list[int]:
        p = self.s["pending"]
        if p is None:
            return []
        if p["kind"] == "keep":
            return sorted(p["seats"])
        return [p["seat"]]

    def parse_action(self, text: str) -> BrianBoruAction:
        return parse_action(text)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        p = self.s["pending"]
        if p is None:
            return []
        kind = p["kind"]
        if kind != "keep":  # one seat decides
            if seat is not None and seat != p["seat"]:
                return []
            # prebuilt actions, the options sorted by their text (issue 30: lookups bound once)
            action_of, rank_of = _LOOKUPS[kind]
            return list(map(action_of, sorted(p["options"], key=rank_of)))
        if seat is None:
            seat = self.acting_seats()[0]
        if seat not in p["seats"]:
            return []
        # the pairs in their text order, "keep A B" with A < B: by A's text, then B's (issue 30:
        # no sort of the pairs; ``_keep_actions`` as it was, compared in tests)
        cards = sorted(self.s["pile"][seat], key=_CARD_TEXT_RANK.__getitem__)
        return [_KEEP_BY[a][b] for a in cards for b in cards if b > a]

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        a = parse_action(action) if type(action) is str else action
        if type(a) is not BrianBoruAction:
            if isinstance(a, str):
                a = parse_action(a)
            elif not isinstance(a, BrianBoruAction):  # as the Vikings engine: not an action of this game
                raise ActionSyntaxError(_clip(str(a), 100), msg("not an action of this game"))
        if (a.verb, a.args) not in _ACTS:  # built by hand, not by parse_action/act: check its text
            a = parse_action(a.text)
        s = self.s
        p = s["pending"]
        if type(seat) is not int or not 0 <= seat < s["n"]:  # as in Vikings: checked before the phase
            raise NotYourTurnError(a, msg("seat {seat} is not at this table", seat=seat))
        if p is None:
            raise WrongPhaseError(a, msg("the game is over"), rule="B-32")
        if (seat not in p["seats"]) if p["kind"] == "keep" else (seat != p["seat"]):
            who = ", ".join(s["names"][x] for x in self.acting_seats())
            raise NotYourTurnError(a, msg("it is not your turn; waiting for {who} to {what}", who=who,
                                                 what=KIND_WHAT[p["kind"]]))
        kind = p["kind"]
        if a.verb != kind:
            raise WrongPhaseError(a, msg("now you must {what} ('{kind} …'), not '{verb}'", what=KIND_WHAT[kind], kind=kind,
                                      verb=a.verb),
                                  rule=p.get("rule") or KIND_RULE.get(kind))
        value = self._value(seat, p, a)
        s["pending"] = None if kind != "keep" else p
        events: list[Event] = []
        self._events = events
        self._resolve(seat, p, value)
        self._run()
        return events

    def step(self, seat: int, action: Action, quiet: bool = False) -> list[Event]:
        """:meth:`apply` without its checks, for the players' own simulations (issue 30): ``action``
        must be one of ``legal_actions(seat)`` as they stand. The same change and events as
        :meth:`apply`; anything else is undefined (tests check both agree,
        ``tests/engine/test_fast_paths.py``). ``quiet``: the same change, no events built (``[]``),
        for the playouts that never read them."""
        a: BrianBoruAction = action  # type: ignore[assignment]  # (no cast: a call a step)
        s = self.s
        p = s["pending"]
        kind = p["kind"]
        if kind == "keep":
            value: Any = list(a.args)
        else:
            arg = a.args[0]
            value = (-1 if arg == "no" else D.town_index[arg]) if kind in TOWN_VERBS or kind == "expand" else arg
            s["pending"] = None
        events: list[Event] = []
        self._events = None if quiet else events
        _RESOLVERS[kind](self, seat, p, value)
        tasks = s["tasks"]  # ``_run`` written out (issue 30: a call less a step)
        while s["pending"] is None and tasks:
            t = tasks.pop()
            _HANDLERS[t[0]](self, t)
        return events

    # ------------------------------------------------------------------ validation

    def _value(self, seat: int, p: dict[str, Any], a: BrianBoruAction) -> Any:
        kind = p["kind"]
        rule = p.get("rule") or KIND_RULE[kind]
        if kind == "keep":
            pile = self.s["pile"][seat]
            missing = [v for v in a.args if v not in pile]
            if missing:
                raise IllegalActionError(a, msg("card {card} is not among the cards in front of you {cards}", card=missing[0],
                                             cards=str(sorted(pile))),
                                         rule="B-14")
            return list(a.args)
        arg = a.args[0]
        if kind in TOWN_VERBS or kind == "expand":
            v = -1 if arg == "no" else D.town_index[arg]
        else:
            v = arg
        if v in p["options"]:
            return v
        raise IllegalActionError(a, self._why_illegal(seat, p, v), rule=rule)

    def _why_illegal(self, seat: int, p: dict[str, Any], v: Any) -> Msg:
        s = self.s
        kind = p["kind"]
        if kind in ("lead", "play"):
            if v not in s["hand"][seat]:
                return msg("card {card} is not in your hand", card=v)
            a = s["active"]
            return (msg("lead a card of the active town's colour ({colour}) or a white card",
                        colour=COLOUR_WORD[COLOURS[TOWN_COLOUR[a]]])
                    if a >= 0 else msg("that card cannot be led"))
        if kind in TOWN_VERBS or kind == "expand":
            if v < 0:
                return msg("you cannot decline this")
            name = TOWN_NAMES[v]
            if kind == "active" or kind == "town" or kind == "expand":
                if s["owner"][v] >= 0:
                    return msg("{town} already holds a disc", town=name)
                if v == s["active"]:
                    return msg("the active-town marker stands on {town}", town=name)
                if kind == "active":
                    return msg("you hold no {colour} or white card to lead for {town}",
                               colour=COLOUR_WORD[COLOURS[TOWN_COLOUR[v]]], town=name)
                if kind == "expand":
                    return msg("{town} is not joined by a road to a town you control", town=name)
                if p.get("why") == "start":
                    return msg("another player already has a disc in {region}",
                               region=D.region_names[TOWN_REGION[v]])
                if p.get("region") is not None:
                    return msg("{town} is not in {region}", town=name, region=D.region_names[p["region"]])
                return msg("{town} cannot take a disc now", town=name)
            if kind == "free":
                return msg("{town} has no Viking control marker", town=name)
            if kind == "raid":
                return msg("{town} is not a town {name} controls", town=name, name=s["names"][p["victim"]])
            return msg("{town} is not a town you control without a monastery", town=name)
        if kind == "extra":
            return msg("you can pay for 0 to {most} extras", most=p["options"][-1])
        if kind == "option":
            return msg("card {card} has no option {option}", card=p["card"], option=v)
        return msg("not one of the choices")

    # ------------------------------------------------------------------ engine core

    def _ev(self, kind: str, seat: int | None = None, **data: Any) -> None:
        """An event of this apply or step. Callers test ``self._events is not None`` first, so a
        quiet step (issue 30) builds neither the event nor its data."""
        events = self._events
        if events is not None:
            events.append(Event(kind, seat, data))

    def _then(self, *tasks: list) -> None:
        """Queue tasks to run in the given order, before anything queued earlier."""
        self.s["tasks"].extend(reversed(tasks))

    def _ask(self, p: dict[str, Any]) -> None:
        """Pose a decision; with one answer it is taken at once, with none nothing happens."""
        opts = p["options"]
        if len(opts) > 1:
            self.s["pending"] = p
        elif opts:
            _RESOLVERS[p["kind"]](self, p["seat"], p, opts[0])

    def _run(self) -> None:
        s = self.s
        tasks = s["tasks"]
        handlers = _HANDLERS
        while s["pending"] is None and tasks:
            t = tasks.pop()
            handlers[t[0]](self, t)

    def _resolve(self, seat: int, p: dict[str, Any], v: Any) -> None:
        _RESOLVERS[p["kind"]](self, seat, p, v)

    def _order_from(self, first: int) -> list[int]:
        n = self.s["n"]
        return [(first + k) % n for k in range(n)]

    def _controlled(self, seat: int) -> list[int]:
        s = self.s
        owner, viking = s["owner"], s["viking"]
        return [t for t in range(T) if owner[t] == seat and not viking[t]]

    # ------------------------------------------------------------------ set-up and round

    def _t_setup(self, t: list) -> None:  # B-9
        s = self.s
        seat = t[1]
        owner = s["owner"]
        taken = {TOWN_REGION[x] for x in range(T) if owner[x] >= 0 and owner[x] != seat}
        opts = [x for x in range(T) if owner[x] < 0 and TOWN_REGION[x] not in taken]
        self._ask({"kind": "town", "seat": seat, "options": opts, "rule": "B-9", "why": "start"})

    def _t_round(self, t: list) -> None:
        s = self.s
        n = s["n"]
        s["round"] += 1
        s["phase"] = "draft"
        s["trick_no"] = 0
        if self._events is not None:
            self._ev("round", None, round=s["round"])
        v = s["viking_deck"].pop()  # B-11
        s["viking_revealed"].append(v)
        s["battle"] += v
        if self._events is not None:
            self._ev("vikings", None, invaders=v)
        m = s["marriage_stack"].pop()  # B-12
        s["marriage_revealed"] = m
        if self._events is not None:
            self._ev("marriage_revealed", None, card=m, last_round=not s["marriage_stack"])
        deck = list(D.card_values)  # B-13
        self.rng.shuffle(deck)
        k = D.deal[n]
        s["pile"] = [sorted(deck[i * k : (i + 1) * k]) for i in range(n)]
        s["aside"] = deck[n * k :]
        s["discard"] = []
        s["hand"] = [[] for _ in range(n)]
        s["choice"] = [None] * n
        # what every seat saw this round (issue 30): the cards played, with their seats (public), and each
        # seat's own draft steps (what it kept, what it passed on) for its own view only
        s["memory"] = {"played": [], "draft": [[] for _ in range(n)]}
        if self._events is not None:
            self._ev("dealt", None, cards=k)
        s["tasks"].append(["draft"])  # ``_then`` with one task, without the call (issue 30)

    def _t_draft(self, t: list) -> None:  # B-14, B-15
        s = self.s
        piles = s["pile"]
        if len(piles[0]) <= 2:
            for p in range(s["n"]):
                s["hand"][p] = sorted(s["hand"][p] + piles[p])
                piles[p] = []
            if self._events is not None:
                self._ev("draft_done", None, hand=len(s["hand"][0]))
            s["phase"] = "tricks"
            s["trick_no"] = 0
            s["tasks"].append(["lead"])
            return
        s["pending"] = {"kind": "keep", "seats": list(range(s["n"])), "rule": "B-14"}

    def _r_keep(self, seat: int, p: dict[str, Any], v: list[int]) -> None:
        s = self.s
        s["choice"][seat] = v
        p["seats"].remove(seat)
        if self._events is not None:
            self._ev("kept", seat)
        if p["seats"]:
            return
        s["pending"] = None
        n = s["n"]
        rest = []
        for q in range(n):
            c = s["choice"][q]
            s["hand"][q] = sorted(s["hand"][q] + c)
            rest.append([x for x in s["pile"][q] if x not in c])
            s["choice"][q] = None
            if "memory" in s:
                s["memory"]["draft"][q].append([sorted(c), sorted(rest[q])])
        s["pile"] = [rest[(q - 1) % n] for q in range(n)]  # pass to the left (next seat)
        if self._events is not None:
            self._ev("passed", None, cards=len(rest[0]))
        s["tasks"].append(["draft"])  # ``_then`` with one task, without the call (issue 30)

    # ------------------------------------------------------------------ tricks

    def _t_lead(self, t: list) -> None:  # B-17, [D-1]
        s = self.s
        leader = s["marker"]
        s["leader"] = leader
        owner = s["owner"]
        empty = [x for x in range(T) if owner[x] < 0]
        s["free_lead"] = False
        if not empty:
            s["active"] = -1
            s["free_lead"] = True
            if self._events is not None:
                self._ev("no_active_town", leader)
            s["tasks"].append(["lead_card"])
            return
        cols = set(map(CARD_COLOUR.__getitem__, s["hand"][leader]))
        opts = empty if WHITE in cols else [x for x in empty if TOWN_COLOUR[x] in cols]
        if not opts:
            opts = empty
            s["free_lead"] = True
        s["tasks"].append(["lead_card"])
        self._ask({"kind": "active", "seat": leader, "options": opts, "rule": "B-17"})

    def _r_active(self, seat: int, p: dict[str, Any], x: int) -> None:
        s = self.s
        s["active"] = x
        s["marker"] = -1
        if self._events is not None:
            self._ev("active", seat, town=TOWN_NAMES[x], colour=COLOURS[TOWN_COLOUR[x]], free_lead=s["free_lead"])

    def _t_lead_card(self, t: list) -> None:
        s = self.s
        leader = s["leader"]
        hand = s["hand"][leader]
        a = s["active"]
        if a < 0 or s["free_lead"]:
            opts = list(hand)
        else:
            col = TOWN_COLOUR[a]
            opts = [v for v in hand if CARD_COLOUR[v] == col or CARD_COLOUR[v] == WHITE]
        n = s["n"]
        tasks = s["tasks"]  # ``_then``: the others play in turn (B-18), then the trick
        tasks.append(["trick"])
        tasks.extend([["play", (leader + k) % n] for k in range(n - 1, 0, -1)])
        self._ask({"kind": "lead", "seat": leader, "options": opts, "rule": "B-17"})

    def _r_lead(self, seat: int, p: dict[str, Any], v: int) -> None:
        s = self.s
        s["hand"][seat].remove(v)
        s["trick"] = [[seat, v]]
        if "memory" in s:
            s["memory"]["played"].append([seat, v])
        if self._events is not None:
            self._ev("played", seat, card=v, colour=CARD_COLOURS[CARD_COLOUR[v]], lead=True)

    def _t_play(self, t: list) -> None:  # B-18
        seat = t[1]
        self._ask({"kind": "play", "seat": seat, "options": list(self.s["hand"][seat]), "rule": "B-18"})

    def _r_play(self, seat: int, p: dict[str, Any], v: int) -> None:
        s = self.s
        s["hand"][seat].remove(v)
        s["trick"].append([seat, v])
        if "memory" in s:
            s["memory"]["played"].append([seat, v])
        if self._events is not None:
            self._ev("played", seat, card=v, colour=CARD_COLOURS[CARD_COLOUR[v]], lead=False)

    def _t_trick(self, t: list) -> None:
        s = self.s
        trick = s["trick"]
        a = s["active"]
        if a < 0:
            matching = trick  # [D-1] no active town: every card counts as matching
        else:
            col = TOWN_COLOUR[a]
            matching = [e for e in trick if CARD_COLOUR[e[1]] == col or CARD_COLOUR[e[1]] == WHITE]  # B-19
            if not matching:
                matching = trick  # [D-4] nothing matches (only after a [D-1] free lead): highest card wins
        seat, v = max(matching, key=_CARD)
        s["winner"] = seat
        if self._events is not None:
            self._ev("trick_won", seat, card=v)
        # B-20 lowest value first, whatever the colour (``_then``: the highest queued first)
        tasks = s["tasks"]
        tasks.append(["trick_end"])
        tasks.extend([["card", q, c] for q, c in sorted(trick, key=_CARD, reverse=True)])

    def _t_card(self, t: list) -> None:  # B-20
        s = self.s
        seat, v = t[1], t[2]
        s["discard"].append(v)
        card = D.cards[v]
        if seat == s["winner"]:
            a = s["active"]
            if self._events is not None:
                self._ev("main", seat, card=v, action=card.main_text, town=TOWN_NAMES[a] if a >= 0 else None)
            self._syms(seat, card.main)
        elif len(card.secondary) == 1:
            if self._events is not None:
                self._ev("secondary", seat, card=v, option=1, action=card.secondary_text[0])
            self._syms(seat, card.secondary[0])
        else:
            self._ask({"kind": "option", "seat": seat, "options": [1, 2], "card": v, "rule": "B-20"})

    def _r_option(self, seat: int, p: dict[str, Any], i: int) -> None:
        card = D.cards[p["card"]]
        if self._events is not None:
            self._ev("secondary", seat, card=card.value, option=i, action=card.secondary_text[i - 1])
        self._syms(seat, card.secondary[i - 1])

    def _syms(self, seat: int, symbols: tuple) -> None:
        """Queue one action's symbols, left to right (B-22). Every marriage symbol but the action's
        last is marked ``HOLD``: the drop to a free space is checked once, after the whole action."""
        tasks = self.s["tasks"]
        later_marriage = False
        for name, k, arg in reversed(symbols):
            if name == "marriage":
                arg = HOLD if later_marriage else None
                later_marriage = True
            tasks.append(["sym", seat, name, k, arg])

    def _t_trick_end(self, t: list) -> None:  # B-16, B-21
        s = self.s
        s["trick"] = []
        s["winner"] = -1
        s["free_lead"] = False
        s["trick_no"] += 1
        if max(map(len, s["hand"])) <= 1:
            for h in s["hand"]:
                s["discard"].extend(h)  # the last cards are discarded unseen
                h.clear()
            s["phase"] = "upkeep"
            s.pop("memory", None)  # no card is hidden any more this round
            if self._events is not None:
                self._ev("upkeep", None)
            self._then(["marriage"], ["battle"], ["spoils"], ["church"], ["church_most"], ["church_four"],
                       ["regions"], ["round_end"])
        else:
            s["tasks"].append(["lead"])

    # ------------------------------------------------------------------ symbols (B-22)

    def _t_sym(self, t: list) -> None:
        s = self.s
        _, seat, name, k, arg = t
        if name == "coin":
            s["coins"][seat] += k
            if self._events is not None:
                self._ev("gain", seat, what="coin", n=k)
        elif name == "control":
            a = s["active"]
            if a >= 0:
                s["owner"][a] = seat  # the "main" event names the town
                s["active"] = -1
            s["marker"] = seat
        elif name == "pay":
            for _ in range(k):
                if s["coins"][seat] > 0:
                    s["coins"][seat] -= 1
                    if self._events is not None:
                        self._ev("pay", seat, coins=1)
                elif s["vp"][seat] > 0:  # B-23 never below zero; [D-5] with 1 VP, that 1 VP is lost
                    lost = min(2, s["vp"][seat])
                    s["vp"][seat] -= lost
                    if self._events is not None:
                        self._ev("pay", seat, vp=lost)
        elif name == "renown":
            s["renown"][seat] += k
            if self._events is not None:
                self._ev("gain", seat, what="renown", n=k)
        elif name == "vp":
            s["vp"][seat] += k
            if self._events is not None:
                self._ev("gain", seat, what="vp", n=k)
        elif name == "church":
            self._ask_extra(seat, "church", k, s["coins"][seat] // 2)
        elif name == "battle":
            if s["battle"] == 0:
                if self._events is not None:
                    self._ev("nothing", seat, what="battle", reason=msg("no invaders left").to_json())
                return
            take = min(k, s["battle"])
            self._ask_extra(seat, "battle", k, min(s["coins"][seat] // 2, s["battle"] - take))
        elif name == "marriage":
            pos = s["track"][seat]
            if pos >= TOP:
                if self._events is not None:
                    self._ev("nothing", seat, what="marriage", reason=msg("already on the top space").to_json())
                if arg != HOLD:  # the action's last marriage symbol: its drop is still checked
                    self._move_marriage(seat, 0)
                return
            self._ask_extra(seat, "marriage", k, max(0, min(s["coins"][seat] // 2, TOP - pos - k)), hold=arg == HOLD)
        elif name == "expand":
            if s["coins"][seat] < 5:
                return
            owner = s["owner"]
            mine = self._controlled(seat)
            targets = sorted({x for m in mine for x in D.neighbours[m] if owner[x] < 0 and x != s["active"]})
            if targets:
                self.s["pending"] = {"kind": "expand", "seat": seat, "options": [-1, *targets], "rule": "B-22"}
        elif name == "free":
            vik = [x for x in range(T) if s["viking"][x]]
            self._ask({"kind": "free", "seat": seat, "options": vik, "rule": "B-22"})
        elif name == "any town":
            opts = [x for x in range(T) if s["owner"][x] < 0]
            self._ask({"kind": "town", "seat": seat, "options": opts, "rule": "B-25", "why": "any town"})
        elif name == "town in":
            owner = s["owner"]
            opts = [x for x in D.region_towns[arg] if owner[x] < 0]
            if not opts:
                if self._events is not None:
                    self._ev("nothing", seat, what="town in", region=D.region_ids[arg])
            self._ask({"kind": "town", "seat": seat, "options": opts, "rule": "B-26", "why": "town in",
                       "region": arg})
        else:  # pragma: no cover - the data validator admits no other symbol
            raise AssertionError(name)

    def _ask_extra(self, seat: int, sym: str, base: int, most: int, hold: bool = False) -> None:
        if most <= 0:
            self._do_extra(seat, sym, base, 0, hold)
        else:
            p = {"kind": "extra", "seat": seat, "options": list(range(most + 1)), "sym": sym, "base": base,
                 "rule": "B-22"}
            if hold:
                p["hold"] = True
            self.s["pending"] = p

    def _r_extra(self, seat: int, p: dict[str, Any], k: int) -> None:
        self._do_extra(seat, p["sym"], p["base"], k, p.get("hold", False))

    def _do_extra(self, seat: int, sym: str, base: int, k: int, hold: bool = False) -> None:
        s = self.s
        s["coins"][seat] -= 2 * k
        if sym == "church":
            s["church"][seat] += base + k
            if self._events is not None:
                self._ev("church", seat, discs=base + k, paid=2 * k)
        elif sym == "battle":
            take = min(base, s["battle"]) + k
            s["battle"] -= take
            s["invaders"][seat] += take
            if self._events is not None:
                self._ev("invaders", seat, n=take, paid=2 * k)
        else:
            self._move_marriage(seat, base + k, paid=2 * k, hold=hold)

    def _move_marriage(self, seat: int, steps: int, paid: int = 0, hold: bool = False) -> None:
        """B-22 marriage: move up; at the end of the action (``hold`` is false for the action's last
        marriage symbol) a disc on an occupied space drops to the first free space below (space 1
        holds any number). Only this seat's disc moves during its action, so dropping after its last
        marriage symbol is dropping once, when the whole action has been resolved."""
        s = self.s
        track = s["track"]
        start = track[seat]
        dest = min(TOP, start + steps)
        end = dest
        if not hold:
            others = {track[q] for q in range(s["n"]) if q != seat}
            while end > 1 and end in others:
                end -= 1
        track[seat] = end
        if steps or end != dest:
            if self._events is not None:
                self._ev("marriage", seat, frm=start, to=end, reached=dest, slid=end != dest, paid=paid)

    def _r_expand(self, seat: int, p: dict[str, Any], x: int) -> None:
        s = self.s
        if x < 0:
            if self._events is not None:
                self._ev("expand_declined", seat)
            return
        s["coins"][seat] -= 5
        s["owner"][x] = seat
        if self._events is not None:
            self._ev("expand", seat, town=TOWN_NAMES[x], paid=5)

    def _r_free(self, seat: int, p: dict[str, Any], x: int) -> None:
        s = self.s
        s["viking"][x] = False
        if self._events is not None:
            self._ev("freed", seat, town=TOWN_NAMES[x], owner=s["owner"][x])

    def _r_town(self, seat: int, p: dict[str, Any], x: int) -> None:
        self.s["owner"][x] = seat
        if self._events is not None:
            self._ev("placed", seat, town=TOWN_NAMES[x], why=p.get("why"))

    # ------------------------------------------------------------------ upkeep

    def _t_marriage(self, t: list) -> None:  # B-25, B-26, B-27
        s = self.s
        c = s["marriage_revealed"]
        s["marriage_revealed"] = None
        track = s["track"]
        top = max(track)
        if top <= 1:  # [D-6] every disc on space 1: the revealed card leaves the game, no bonus at all
            s["marriage_out"].append(c)
            if self._events is not None:
                self._ev("marriage_lost", None, card=c)
            return
        taker = track.index(top)
        s["marriages"][taker].append(c)
        card = D.marriage[c]
        if self._events is not None:
            self._ev("married", taker, card=c, title=card.title)
        n = s["n"]
        # [D-11] track bonuses ("any town" asks) clockwise from the card's taker
        later = [["track_reset", taker], *[["bonus", (taker + k) % n] for k in range(1, n)]]
        if card.princess:
            self._then(*later)
            self._ask({"kind": "princess", "seat": taker, "options": list(PRINCESS_CHOICES), "rule": "B-27"})
        else:
            self._then(*[["sym", taker, name, k, arg] for name, k, arg in card.reward], *later)

    def _r_princess(self, seat: int, p: dict[str, Any], w: str) -> None:
        s = self.s
        if w == "refuse":  # B-27.3; [D-12] a refused Princess is discarded: no marriage card for B-34
            s["marriages"][seat].remove(D.princess_id)
            s["marriage_out"].append(D.princess_id)
            s["vp"][seat] += 4
        else:
            s["princess"] = [seat, w]
        if self._events is not None:
            self._ev("princess", seat, choice=w)

    def _t_track_reset(self, t: list) -> None:
        self.s["track"][t[1]] = 1

    def _t_bonus(self, t: list) -> None:  # B-25 bonus beside the disc's space
        s = self.s
        seat = t[1]
        b = D.track[s["track"][seat]]
        if b == "coin":
            s["coins"][seat] += 1
            if self._events is not None:
                self._ev("gain", seat, what="coin", n=1, why="marriage track")
        elif b == "renown":
            s["renown"][seat] += 1
            if self._events is not None:
                self._ev("gain", seat, what="renown", n=1, why="marriage track")
        elif b == "any town":
            self._then(["sym", seat, "any town", 1, None])

    def _t_battle(self, t: list) -> None:  # B-28
        s = self.s
        if s["battle"] == 0:
            if self._events is not None:
                self._ev("repelled", None)
            return
        inv = s["invaders"]
        lo, hi = min(inv), max(inv)
        most = [q for q in range(s["n"]) if inv[q] == hi]
        losers = [q for q in self._order_from(s["marker"]) if inv[q] == lo]  # [D-11] clockwise from the marker
        if self._events is not None:
            self._ev("raid", None, losers=losers, invaders=s["battle"])
        self._then(*[["raid", q, most[0] if len(most) == 1 else q] for q in losers], ["battle_clear"])

    def _t_raid(self, t: list) -> None:
        victim, chooser = t[1], t[2]
        opts = self._controlled(victim)
        if not opts:  # [D-7] no town (only discs under Viking markers, or none): the raid takes nothing
            if self._events is not None:
                self._ev("raid_nothing", victim)
            return
        self._ask({"kind": "raid", "seat": chooser, "options": opts, "victim": victim, "rule": "B-28"})

    def _r_raid(self, seat: int, p: dict[str, Any], x: int) -> None:
        self.s["viking"][x] = True
        if self._events is not None:
            self._ev("lost_town", p["victim"], town=TOWN_NAMES[x], chooser=seat)

    def _t_battle_clear(self, t: list) -> None:
        self.s["battle"] = 0

    def _t_spoils(self, t: list) -> None:  # B-29
        s = self.s
        inv = s["invaders"]
        hi = max(inv)
        top = [q for q in range(s["n"]) if inv[q] == hi]
        if hi > 0 and len(top) == 1:
            q = top[0]
            s["renown"][q] += 1
            s["vp"][q] += s["renown"][q]
            if self._events is not None:
                self._ev("spoils", q, renown=1, vp=s["renown"][q], returned=inv[q])
            inv[q] = 0
        hi = max(inv)
        if hi >= 1:
            for q in range(s["n"]):
                if inv[q] == hi:
                    inv[q] -= 1
                    s["vp"][q] += 1
                    if self._events is not None:
                        self._ev("spoils", q, vp=1, returned=1)

    def _t_church(self, t: list) -> None:  # B-30 first step
        s = self.s
        ch = s["church"]
        hi = max(ch)
        top = [q for q in range(s["n"]) if ch[q] == hi]
        if hi > 0 and len(top) == 1:  # the single most; on a tie nobody
            q = top[0]
            # marker and all discs back whether or not a monastery can be placed (no town: nothing asked)
            self._then(["church_top", q])
            opts = [x for x in self._controlled(q) if not s["monastery"][x]]
            self._ask({"kind": "monastery", "seat": q, "options": opts, "rule": "B-30"})

    def _t_church_top(self, t: list) -> None:
        s = self.s
        q = t[1]
        s["marker"] = q
        if self._events is not None:
            self._ev("church_top", q, returned=s["church"][q])
        s["church"][q] = 0

    def _t_church_most(self, t: list) -> None:  # B-30 second step
        s = self.s
        ch = s["church"]
        hi = max(ch)
        if hi >= 1:  # [D-8] at least 1 disc
            for q in range(s["n"]):
                if ch[q] == hi:
                    ch[q] -= 1
                    s["vp"][q] += 1
                    if self._events is not None:
                        self._ev("church_most", q, vp=1, returned=1)

    def _t_church_four(self, t: list) -> None:  # B-30 third step, clockwise from the marker
        self._then(*[["church_four_one", q] for q in self._order_from(self.s["marker"])])

    def _t_church_four_one(self, t: list) -> None:
        s = self.s
        q = t[1]
        if s["church"][q] < 4:
            return
        opts = [x for x in self._controlled(q) if not s["monastery"][x]]
        if not opts:  # B-30: only a player who placed a monastery takes back the discs; the others keep them
            if self._events is not None:
                self._ev("no_monastery", q, reason=msg("no town without a monastery").to_json())
            return
        self._then(["church_zero", q])
        self._ask({"kind": "monastery", "seat": q, "options": opts, "rule": "B-30"})

    def _t_church_zero(self, t: list) -> None:
        s = self.s
        if self._events is not None:
            self._ev("church_returned", t[1], returned=s["church"][t[1]])
        s["church"][t[1]] = 0

    def _r_monastery(self, seat: int, p: dict[str, Any], x: int) -> None:
        self.s["monastery"][x] = True
        if self._events is not None:
            self._ev("monastery", seat, town=TOWN_NAMES[x])

    def _t_regions(self, t: list) -> None:  # B-31
        s = self.s
        n = s["n"]
        support = s["princess"][0] if s["princess"] and s["princess"][1] == "support" else -1
        counts = region_counts(s["owner"], s["viking"], s["monastery"], n, support)
        up, cl = s["claim_up"], s["claim_owner"]
        for r, c in enumerate(counts):
            if not up[r]:
                if sum(c) >= D.thresholds[r]:
                    up[r] = True
                    if self._events is not None:
                        self._ev("claim_revealed", None, region=D.region_ids[r])
                else:
                    continue
            top = max(c)
            leaders = [k for k in range(n + 1) if c[k] == top]
            if top == 0 or len(leaders) > 1:  # a tie, [D-9] also Vikings v players: the token stays
                continue
            new = -1 if leaders[0] == n else leaders[0]
            if new != cl[r]:
                cl[r] = new
                if self._events is not None:
                    self._ev("claim", new if new >= 0 else None, region=D.region_ids[r], vikings=new < 0)

    def _t_round_end(self, t: list) -> None:  # B-32
        s = self.s
        if s["marriage_stack"]:
            self._then(["round"])
            return
        s["phase"] = "over"
        if self._events is None:  # a quiet step (issue 30): the final scoring is written when read
            self._final_due = True
            return
        self._final()
        self._ev("game_over", None, winners=s["winners"])

    def _final(self) -> None:
        """B-33 and B-34: the final scoring and the winners into the state. Nothing changes after
        the game's end, so a quiet step's game writes them when first read (``to_json``, a view,
        ``winners``) with the same content."""
        s = self.s
        res = final_scoring(self.position())
        s["final"] = {"players": res["players"], "winners": res["winners"]}
        s["winners"] = res["winner_seats"]
        self._final_due = False

    # ------------------------------------------------------------------ position / view

    def position(self) -> Position:
        """The public position in the notation's terms (for scoring, bug reports and tests)."""
        s = self.s
        n = s["n"]
        players = []
        for q in range(n):
            players.append(PlayerPosition(
                name=s["names"][q], coins=s["coins"][q], vp=s["vp"][q], renown=s["renown"][q],
                invaders=s["invaders"][q], church=s["church"][q], track=s["track"][q],
                marriages=len(s["marriages"][q]),
                princess=s["princess"][1] if s["princess"] and s["princess"][0] == q else None,
                marker=s["marker"] == q,
                towns=[TOWN_NAMES[x] for x in range(T) if s["owner"][x] == q],
                claims=[D.region_ids[r] for r in range(len(D.region_ids)) if s["claim_owner"][r] == q],
            ))
        return Position(
            players=players,
            monasteries={TOWN_NAMES[x] for x in range(T) if s["monastery"][x]},
            vikings={TOWN_NAMES[x] for x in range(T) if s["viking"][x]},
            claims_on_board={D.region_ids[r] for r in range(len(D.region_ids))
                             if s["claim_up"][r] and s["claim_owner"][r] < 0},
        )

    def notation(self) -> str:
        return format_position(self.position())

    def view(self, seat: int | None = None) -> BrianBoruView:
        return self._view(seat, False)

    def live_view(self, seat: int | None = None) -> BrianBoruView:
        """:meth:`view` for the players' own simulations (issue 30): the same content (tests compare
        the two at every step), but its towns and claims are shared lists
        (:class:`~engine.core.SharedList`), the same objects in every live view while what they
        show is unchanged, so a player may remember what it derived from them. Read it, never
        change it."""
        return self._view(seat, True)

    def _live_part(self, name: str, key: Any, build: Callable[[], list[Any]]) -> list[Any]:
        known = self._live.get(name)
        if known is not None and known[0] == key:
            return known[1]
        part = SharedList(build())
        self._live[name] = (key, part)
        return part

    def _view(self, seat: int | None, live: bool) -> BrianBoruView:
        if self._final_due:
            self._final()
        s = self.s
        n = s["n"]
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            # -1 would index the last seat's hand: a clear error, never another seat's cards
            raise ValueError(f"no seat {seat!r} at this table (seats are 0–{n - 1}, None for a spectator)")
        p = s["pending"]
        pend: PendingView | None = None
        if p is not None:
            pend = {"kind": p["kind"], "rule": p.get("rule")}
            if p["kind"] == "keep":
                pend["seats"] = sorted(p["seats"])
            else:
                pend["seat"] = p["seat"]
            if "why" in p:
                pend["why"] = p["why"]
            if "victim" in p:
                pend["victim"] = p["victim"]
            if "sym" in p:
                pend["sym"] = p["sym"]
            if "base" in p:
                pend["base"] = p["base"]
            if "card" in p:
                pend["card"] = p["card"]
            if "region" in p:
                pend["region"] = D.region_ids[p["region"]]
            if p.get("hold"):
                pend["hold"] = True
        princess = s["princess"]
        mr = s["marriage_revealed"]
        out: BrianBoruView = {
            "game": self.GAME_ID,
            "seat": seat,
            "round": s["round"],
            "rounds": s["rounds"],
            "phase": s["phase"],
            "acting": self.acting_seats(),
            "start_player": s["start"],
            "leader": s["leader"],
            "marker": s["marker"] if s["marker"] >= 0 else None,
            "active_town": TOWN_NAMES[s["active"]] if s["active"] >= 0 else None,
            "battle": s["battle"],
            "viking_cards_left": len(s["viking_deck"]),
            "viking_cards_revealed": list(s["viking_revealed"]),
            "marriage": {
                "revealed": None if mr is None else {"id": mr, "title": D.marriage[mr].title,
                                                     "reward": D.marriage[mr].reward_text},
                "stack_left": len(s["marriage_stack"]),
            },
            "towns": (self._live_part("towns", (tuple(s["owner"]), tuple(s["viking"]), tuple(s["monastery"])),
                                      self._towns_view)
                      if live else self._towns_view()),
            "claims": (self._live_part("claims", (tuple(s["claim_up"]), tuple(s["claim_owner"])), self._claims_view)
                       if live else self._claims_view()),
            "trick": {
                "number": s["trick_no"] + 1,
                "of": D.deal[n] - 1,
                "cards": [{"seat": q, "card": v, "colour": CARD_COLOURS[CARD_COLOUR[v]]} for q, v in s["trick"]],
                "winner": s["winner"] if s["winner"] >= 0 else None,
            },
            "players": [
                {"seat": q, "name": s["names"][q], "coins": s["coins"][q], "vp": s["vp"][q],
                 "renown": s["renown"][q], "invaders": s["invaders"][q], "church": s["church"][q],
                 "track": s["track"][q], "marriages": list(s["marriages"][q]),
                 "princess": princess[1] if princess and princess[0] == q else None,
                 "hand_size": len(s["hand"][q]), "draft_size": len(s["pile"][q]),
                 "chosen": s["choice"][q] is not None}
                for q in range(n)
            ],
            "pending": pend,
            "final": s["final"],
            # the engine's queued steps, next last (issue 30): public, as they follow from the public play,
            # so that a search can rebuild the game at any decision
            "tasks": [list(t) for t in s["tasks"]],
        }
        memory = s.get("memory")
        if memory is not None:
            out["played"] = [{"seat": q, "card": v} for q, v in memory["played"]]
        if seat is not None:
            out["you"] = {
                "hand": sorted(s["hand"][seat]),
                "draft": sorted(s["pile"][seat]),
                "choice": s["choice"][seat],
                "legal": [a.text for a in self.legal_actions(seat)] if seat in self.acting_seats() else [],
            }
            if memory is not None:  # the seat's own draft: only it knows what it passed (B-14)
                out["you"]["drafted"] = [{"kept": list(kept), "passed": list(passed), "to": (seat + 1) % n}
                                         for kept, passed in memory["draft"][seat]]
        return out

    def _towns_view(self) -> list[TownView]:
        s = self.s
        return [
            {"name": name, "region": region, "colour": colour, "owner": o if o >= 0 else None, "viking": vik,
             "monastery": mon}
            for (name, region, colour), o, vik, mon in zip(_TOWN_FIXED, s["owner"], s["viking"], s["monastery"])
        ]

    def _claims_view(self) -> list[ClaimView]:
        s = self.s
        return [
            {"region": rid, "name": name, "threshold": threshold, "points": points, "face_up": up,
             "owner": o if o >= 0 else None}
            for (rid, name, threshold, points), up, o in zip(_CLAIM_FIXED, s["claim_up"], s["claim_owner"])
        ]


# what never changes in a view's towns and claims (issue 30: built once)
_TOWN_FIXED = [(TOWN_NAMES[x], D.region_ids[TOWN_REGION[x]], COLOURS[TOWN_COLOUR[x]]) for x in range(T)]
_CLAIM_FIXED = [(rid, D.region_names[r], D.thresholds[r], D.points[r]) for r, rid in enumerate(D.region_ids)]


def _town_name(x: int) -> str:
    return "no" if x < 0 else TOWN_NAMES[x]


_CARD = itemgetter(1)  # a trick entry's card, [seat, card]
_TABLES: dict[str, dict[Any, BrianBoruAction]] = {}
_RANKS: dict[str, dict[Any, int]] = {}
for _verb in TOWN_VERBS:
    _TABLES[_verb] = {x: act(_verb, TOWN_NAMES[x]) for x in range(T)}
for _verb in ("lead", "play"):
    _TABLES[_verb] = {v: act(_verb, v) for v in D.card_values}
_TABLES["option"] = {i: act("option", i) for i in (1, 2)}
_TABLES["princess"] = {w: act("princess", w) for w in PRINCESS_CHOICES}
_TABLES["expand"] = {x: act("expand", _town_name(x)) for x in range(-1, T)}  # -1: "expand no"
for _verb, _table in _TABLES.items():
    _order = [k for k, _a in sorted(_table.items(), key=lambda item: item[1].text)]
    _RANKS[_verb] = {k: i for i, k in enumerate(_order)}


class _ExtraActions(dict[int, BrianBoruAction]):
    """``extra N`` by N, made when first asked for (the number has no fixed bound)."""

    def __missing__(self, k: int) -> BrianBoruAction:
        a = self[k] = act("extra", k)
        return a


# a kind's (option -> action, option -> rank) lookups, bound once (issue 30); "extra N" sorts by N's text
_LOOKUPS: dict[str, tuple[Callable[[Any], BrianBoruAction], Callable[[Any], Any]]] = {
    _verb: (_table.__getitem__, _RANKS[_verb].__getitem__) for _verb, _table in _TABLES.items()}
_LOOKUPS["extra"] = (_ExtraActions().__getitem__, str)

_KEEP = {(a, b): act("keep", a, b) for a, b in combinations(sorted(D.card_values), 2)}
_KEEP_RANK = {k: i for i, k in enumerate(sorted(_KEEP, key=lambda k: _KEEP[k].text))}
_KEEP_BY: dict[int, dict[int, BrianBoruAction]] = {}  # _KEEP[(a, b)] as _KEEP_BY[a][b]
for (_a, _b), _keep in _KEEP.items():
    _KEEP_BY.setdefault(_a, {})[_b] = _keep
_CARD_TEXT_RANK = {v: i for i, v in enumerate(sorted(D.card_values, key=str))}


def _keep_actions(pile: Sequence[int]) -> list[BrianBoruAction]:
    """The keep actions of a draft pile sorted by their text, the plain way (the reference for
    ``legal_actions``' shortcut, tests/engine/test_fast_paths.py)."""
    return [_KEEP[pair] for pair in sorted(combinations(sorted(pile), 2), key=_KEEP_RANK.__getitem__)]

_HANDLERS = {name[3:]: fn for name, fn in vars(BrianBoruGame).items() if name.startswith("_t_")}
_RESOLVERS = {name[3:]: fn for name, fn in vars(BrianBoruGame).items() if name.startswith("_r_")}
