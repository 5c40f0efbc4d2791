"""The Vikings view, declared (issue 18): what :meth:`VikingsGame.view` returns, key by key.

Everything here is public: Vikings has no hidden hands, only hidden stacks, bag order and special
stacks (V-1, V-6, V-45), which the view shows as counts. ``seat`` is the viewing seat (``None`` for
a spectator), the same key as in every game's view.
"""

from typing import Any, NotRequired, TypedDict


class WheelSlot(TypedDict):
    """One position of the offer (V-12): ``price`` is the position; ``viking`` is ``None`` while the
    auction's vikings are not laid out yet (V-42)."""

    tile: str
    viking: str | None
    price: int


class PendingTile(TypedDict):
    """The bought combo waiting to be placed (V-19 … V-29)."""

    seat: int
    tile: str
    viking: str
    placed: bool
    start_tile: bool


class PlayerView(TypedDict):
    """One player's homeland and purse (V-5, V-20 … V-31)."""

    seat: int
    name: str
    gold: int
    vp: int
    rows: list[list[str]]
    base: dict[str, int]
    threatened: list[str]
    defended: list[str]
    start_tile_pending: bool
    specials: list[str]


class Out(TypedDict):
    """Components out of the game, which are public (V-2, V-34, V-42)."""

    tiles: list[str]
    vikings: list[str]


class AuctionView(TypedDict):
    """The progress variant's auction (V-40 … V-42)."""

    drawn: list[str]
    bids: dict[str, Any] | None
    removed: list[str]


class VikingsView(TypedDict):
    """What a seat (or a spectator) sees of a Vikings table."""

    game: str
    seat: int | None
    options: dict[str, bool]
    round: int
    scorings: list[str]
    phase: str
    active: int | None
    start_player: int
    wheel: list[WheelSlot | None]
    pending: PendingTile | None
    players: list[PlayerView]
    stacks_left: int
    bag: int
    last: dict[str, Any] | None
    final: dict[str, Any] | None
    trip: dict[str, Any] | None
    out: Out
    specials_display: NotRequired[list[str | None]]  # with ``specials`` (V-45, V-46)
    specials_stacks: NotRequired[list[int]]
    auction: NotRequired[AuctionView]  # with ``auction`` (V-40 … V-42)
