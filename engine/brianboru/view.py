"""The Brian Boru view, declared (issue 18): what :meth:`BrianBoruGame.view` returns, key by key.

``seat`` is the viewing seat (``None`` for a spectator), the same key as in every game's view.
Only a seat's own view has ``you`` (its hand, draft pile, kept choice and legal actions): the
hands are hidden information (B-14, B-17), so a spectator's view lacks the key altogether.
"""

from typing import Any, NotRequired, TypedDict


class MarriageCardView(TypedDict):
    id: str
    title: str
    reward: str


class MarriageView(TypedDict):
    """The marriage stack (B-7, B-25): the face-up card, and how many are left."""

    revealed: MarriageCardView | None
    stack_left: int


class TownView(TypedDict):
    name: str
    region: str
    colour: str
    owner: int | None
    viking: bool
    monastery: bool


class ClaimView(TypedDict):
    """A region's claim token (B-6, B-31)."""

    region: str
    name: str
    threshold: int
    points: int
    face_up: bool
    owner: int | None


class TrickCard(TypedDict):
    seat: int
    card: int
    colour: str


class TrickView(TypedDict):
    """The trick under way (B-17 … B-21): ``number`` of ``of``."""

    number: int
    of: int
    cards: list[TrickCard]
    winner: int | None


class PlayerView(TypedDict):
    """One player's public tracks; the hand and draft pile only as sizes."""

    seat: int
    name: str
    coins: int
    vp: int
    renown: int
    invaders: int
    church: int
    track: int
    marriages: list[str]
    princess: str | None
    hand_size: int
    draft_size: int
    chosen: bool


class PendingView(TypedDict):
    """The decision owed now: ``kind`` is the action verb; ``seat`` (or ``seats`` for the
    simultaneous draft, B-14) who owes it; the rest describes it when it applies."""

    kind: str
    rule: str | None
    seat: NotRequired[int]
    seats: NotRequired[list[int]]
    why: NotRequired[str]
    victim: NotRequired[int]
    sym: NotRequired[str]
    base: NotRequired[int]
    card: NotRequired[int]
    region: NotRequired[str]
    hold: NotRequired[bool]  # an extra marriage step whose drop waits for the action's last marriage symbol


class DraftStepView(TypedDict):
    """One step of the seat's own draft this round (B-14): the two cards it kept, the cards it passed
    on, and the seat it passed them to."""

    kept: list[int]
    passed: list[int]
    to: int


class PlayedView(TypedDict):
    seat: int
    card: int


class YouView(TypedDict):
    """The viewing seat's hidden cards (only in its own view). ``drafted``: its draft steps this round
    (from the deal to the upkeep; what it passed is known to it alone)."""

    hand: list[int]
    draft: list[int]
    choice: list[int] | None
    legal: list[str]
    drafted: NotRequired[list[DraftStepView]]


class BrianBoruView(TypedDict):
    """What a seat (or a spectator) sees of a Brian Boru table."""

    game: str
    seat: int | None
    round: int
    rounds: int
    phase: str
    acting: list[int]
    start_player: int
    leader: int
    marker: int | None
    active_town: str | None
    battle: int
    viking_cards_left: int
    viking_cards_revealed: list[Any]
    marriage: MarriageView
    towns: list[TownView]
    claims: list[ClaimView]
    trick: TrickView
    players: list[PlayerView]
    pending: PendingView | None
    final: dict[str, Any] | None
    # the engine's queued steps, next last (public: they follow from the public play; issue 30)
    tasks: list[list[Any]]
    # every card played this round with its seat (public; from the deal to the upkeep; issue 30)
    played: NotRequired[list[PlayedView]]
    you: NotRequired[YouView]
