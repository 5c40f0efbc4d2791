"""A player's homeland: the grid of tiles, the base, special tiles held beside it.

Cells hold notation tokens (``"L"``, ``"Ma*"``, ``"^g"``, ``"."`` for empty) so that the grid is
JSON as it stands and prints straight into the table notation. Rows are indexed 0 (ships) to
5 (fishers); columns are 1-based as in the rules, stored at list index ``col - 1``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .data import (
    ISLAND_ROWS,
    KIND_ROW,
    KINDS,
    ROW_KIND,
    SAILOR,
    SHIP_DEPTH,
    SHIP_ROW,
    START_TILE,
    left_edge,
    right_edge,
)

EMPTY = "."

Cells = set[tuple[int, int]]
"""A set of ``(row, col)`` cells (named out here: inside ``Homeland`` ``set`` is its method)."""


class Homeland:
    __slots__ = ("rows", "base", "specials", "start_pending", "_fits", "_frontier")

    def __init__(
        self,
        rows: list[list[str]] | None = None,
        base: dict[str, int] | None = None,
        specials: list[str] | None = None,
        start_pending: bool = False,
    ) -> None:
        self.rows: list[list[str]] = rows if rows is not None else [[] for _ in range(6)]
        self.base: dict[str, int] = {k: 0 for k in KINDS}
        if base:
            self.base.update(base)
        self.specials: list[str] = specials if specials is not None else []
        self.start_pending = start_pending
        self._fits: dict[str, list[tuple[int, int]]] = {}  # island cells by edge class; reset by set()
        # empty island cells next to the base or an island tile (V-21), kept up to date by set();
        # None = not computed yet (rows assigned directly, e.g. by the notation parser)
        self._frontier: Cells | None = None

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": [list(r) for r in self.rows],
            "base": dict(self.base),
            "specials": list(self.specials),
            "start_pending": self.start_pending,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Homeland:
        return cls([list(r) for r in d["rows"]], dict(d["base"]), list(d["specials"]), d["start_pending"])

    def copy(self) -> Homeland:
        """An independent copy (no cache carried over)."""
        h = Homeland.__new__(Homeland)  # the same fields as __init__ builds, without rebuilding the base
        h.rows = [list(r) for r in self.rows]
        h.base = dict(self.base)
        h.specials = list(self.specials)
        h.start_pending = self.start_pending
        h._fits = {}
        h._frontier = None
        return h

    def variant(self, row: int, col: int, token: str, base: dict[str, int] | None = None) -> Homeland:
        """A homeland like this one with ``token`` put at an empty cell (and ``base`` instead of
        this base), for reading only: it shares the unchanged rows, the base (unless given) and
        the specials with this one, so neither may be changed afterwards (the players' valuations
        look at many placements of one tile, issue 30). ``row`` 0 or ``col`` 0: no cell changes."""
        rows = self.rows
        if col:
            rows = list(rows)
            r = list(rows[row])
            while len(r) < col:
                r.append(EMPTY)
            r[col - 1] = token
            rows[row] = r
        return Homeland.over(rows, self.base if base is None else base, self.specials, self.start_pending)

    @staticmethod
    def over(rows: list[list[str]], base: dict[str, int], specials: list[str], start_pending: bool) -> Homeland:
        """A homeland over these very lists (``base`` holding every kind, as a view's does), for
        reading only: nothing is copied, so none of them may be changed through it (the players'
        valuations read a view's homeland this way, issue 30)."""
        h = Homeland.__new__(Homeland)
        h.rows = rows
        h.base = base
        h.specials = specials
        h.start_pending = start_pending
        h._fits = {}
        h._frontier = None
        return h

    # ------------------------------------------------------------------ cells

    def get(self, row: int, col: int) -> str:
        r = self.rows[row]
        return r[col - 1] if 0 < col <= len(r) else EMPTY

    def set(self, row: int, col: int, token: str) -> None:
        self._fits.clear()
        rows = self.rows
        r = rows[row]
        f = self._frontier
        if f is not None and row != SHIP_ROW and token != EMPTY:
            # the empty neighbours join the frontier (``get`` written out: once per placement)
            f.discard((row, col))
            if col > 1 and (col - 1 > len(r) or r[col - 2] == EMPTY):
                f.add((row, col - 1))
            if col >= len(r) or r[col] == EMPTY:
                f.add((row, col + 1))
            if row > 1:
                up = rows[row - 1]
                if col > len(up) or up[col - 1] == EMPTY:
                    f.add((row - 1, col))
            if row < 5:
                down = rows[row + 1]
                if col > len(down) or down[col - 1] == EMPTY:
                    f.add((row + 1, col))
        elif token == EMPTY:
            self._frontier = None
        while len(r) < col:
            r.append(EMPTY)
        r[col - 1] = token
        while r and r[-1] == EMPTY:
            r.pop()

    def add_viking(self, row: int, col: int) -> None:
        """Stand a viking on the island tile at the cell (a sailor's trip, V-34). The tiles stay
        as they are, so what :meth:`island_cells_for` remembers holds (it reads no vikings)."""
        self.rows[row][col - 1] += "*"

    def width(self) -> int:
        return max(len(r) for r in self.rows)

    def has_viking(self, row: int, col: int) -> bool:
        return self.get(row, col).endswith("*")

    def island_cells(self) -> Iterator[tuple[int, int, str]]:
        """Yield ``(row, col, token)`` for every island tile."""
        for row in ISLAND_ROWS:
            for i, tok in enumerate(self.rows[row]):
                if tok != EMPTY:
                    yield row, i + 1, tok

    def ship_count(self) -> int:
        return sum(1 for t in self.rows[SHIP_ROW] if t != EMPTY)

    # ------------------------------------------------------------------ placing (V-20 … V-24)

    def ship_cells(self, any_order: bool = True) -> list[int]:
        """V-20 [D-6]: columns where the next ship may go.

        ``any_order`` (the default, 003): the first three ships fill columns 1–3 in any order,
        each further ship goes right of the last. Strict (option ``strict-ships``, 000/001): the
        first ship into any of columns 1–3, each later ship into an empty cell next to a ship
        already placed, column 4 or beyond only once columns 1–3 are full.
        """
        ships = self.rows[SHIP_ROW]
        first_three = [c for c in (1, 2, 3) if self.get(SHIP_ROW, c) == EMPTY]
        if any_order:
            return first_three if self.ship_count() < 3 else [len(ships) + 1]
        occupied = {i + 1 for i, t in enumerate(ships) if t != EMPTY}
        if first_three:
            if not occupied & {1, 2, 3}:
                return first_three  # the first ship (V-20 strict)
            return [c for c in first_three if c - 1 in occupied or c + 1 in occupied]
        return [c for c in range(4, len(ships) + 2) if c not in occupied and (c - 1 in occupied or c + 1 in occupied)]

    def island_fits(self, tile: str, row: int, col: int) -> bool:
        """V-21, V-22: empty, reachable from the base or an island tile, edges match sideways."""
        r = self.rows[row]
        if col <= len(r) and r[col - 1] != EMPTY:
            return False
        if col == 1:
            if left_edge(tile) != "sea":  # V-22: the base's edge counts as sea
                return False
            reachable = True
        else:
            reachable = False
            left = r[col - 2] if col - 1 <= len(r) else EMPTY
            if left != EMPTY:
                if right_edge(left) != left_edge(tile):
                    return False
                reachable = True
        right = r[col] if col < len(r) else EMPTY
        if right != EMPTY:
            if right_edge(tile) != left_edge(right):
                return False
            reachable = True
        if not reachable:  # V-21: above or below (ships do not count [D-7])
            if row > 1 and self.get(row - 1, col) != EMPTY:
                reachable = True
            elif row < 5 and self.get(row + 1, col) != EMPTY:
                reachable = True
        return reachable

    def _compute_frontier(self) -> Cells:
        """Empty island cells in column 1 or beside an island tile (V-21; ships do not count [D-7])."""
        rows = self.rows
        out: Cells = set()
        for row in ISLAND_ROWS:
            r = rows[row]
            n = len(r)
            up = rows[row - 1] if row > 1 else ()
            down = rows[row + 1] if row < 5 else ()
            for i in range(max(n, len(up), len(down)) + 1):  # i = column - 1
                if i < n and r[i] != EMPTY:
                    continue
                if (
                    i == 0
                    or (i - 1 < n and r[i - 1] != EMPTY)
                    or (i + 1 < n and r[i + 1] != EMPTY)
                    or (i < len(up) and up[i] != EMPTY)
                    or (i < len(down) and down[i] != EMPTY)
                ):
                    out.add((row, i + 1))
        return out

    def island_cells_for(self, tile: str) -> list[tuple[int, int]]:
        """Every cell where an island tile may go now (V-21, V-22), top row first, then by column.

        Only reachable empty cells are tried (the frontier, kept up to date as tiles are placed),
        and only the edges matter (L, R, or land on both sides), so results are cached by that
        class until the grid changes; this runs once per purchase.
        """
        cls = tile[0] if tile[0] in "LR" else "M"
        cells = self._fits.get(cls)
        if cells is not None:
            return cells
        if self._frontier is None:
            self._frontier = self._compute_frontier()
        left_sea = cls == "L"
        right_sea = cls == "R"
        rows = self.rows
        cells = []
        for cell in self._frontier:
            row, col = cell
            r = rows[row]
            n = len(r)
            if col == 1:
                if not left_sea:  # the base's edge is sea (V-22)
                    continue
            elif col - 2 < n:
                left = r[col - 2]
                if left != EMPTY and (left[0] == "R") != left_sea:
                    continue
            if col < n:
                right = r[col]
                if right != EMPTY and (right[0] == "L") != right_sea:
                    continue
            cells.append(cell)
        cells.sort()
        self._fits[cls] = cells
        return cells

    def island_fits_somewhere(self, tile: str) -> bool:
        return bool(self.island_cells_for(tile))

    def start_cells(self) -> list[tuple[int, int]]:
        """V-24: the start tile goes in column 1 of an island row (and must fit there)."""
        return [(row, 1) for row in ISLAND_ROWS if self.island_fits(START_TILE, row, 1)]

    def cells_for(self, tile: str, ships_any_order: bool = True) -> list[tuple[int, int]]:
        if tile[0] == "^":
            return [(SHIP_ROW, c) for c in self.ship_cells(ships_any_order)]
        return self.island_cells_for(tile)

    # ------------------------------------------------------------------ threat (V-30, V-31)

    def ships(self):
        """Yield ``(col, sail, defended)`` for every ship (V-30: a warrior in the W row defends)."""
        ships, warriors = self.rows[SHIP_ROW], self.rows[1]
        n = len(warriors)
        for i, tok in enumerate(ships):
            if tok != EMPTY:
                yield i + 1, tok[1], i < n and warriors[i][-1] == "*"  # has_viking(1, col) written out

    def defended_ships(self) -> list[str]:
        """``^col`` of every defended ship, left to right (V-30: a warrior below it in the W row)."""
        ships, warriors = self.rows[SHIP_ROW], self.rows[1]
        n = len(warriors)
        return [f"^{i + 1}" for i, tok in enumerate(ships) if tok != EMPTY and i < n and warriors[i][-1] == "*"]

    def threat_zone(self) -> Cells:
        """V-31: cells reached by an undefended ship: its column, row W down to its sail's depth."""
        ships, warriors = self.rows[SHIP_ROW], self.rows[1]
        n = len(warriors)
        zone: Cells = set()
        for i, tok in enumerate(ships):  # as ships(), written out (every scoring asks)
            if tok == EMPTY or (i < n and warriors[i][-1] == "*"):  # no ship, or defended (V-30)
                continue
            col = i + 1
            for row in range(1, SHIP_DEPTH[tok[1]] + 1):
                zone.add((row, col))
        return zone

    def vikings_on_islands(self, kind: str, zone: Cells | None = None) -> tuple[int, int]:
        """``(unthreatened, threatened)`` vikings of ``kind`` standing on island tiles."""
        if zone is None:
            zone = self.threat_zone()
        row = KIND_ROW[kind]
        safe = hit = 0
        for i, tok in enumerate(self.rows[row]):
            if tok.endswith("*"):
                if (row, i + 1) in zone:
                    hit += 1
                else:
                    safe += 1
        return safe, hit

    def threatened_cells(self) -> list[tuple[int, int]]:
        """Cells of the threat zone (V-31) where a viking stands, sorted."""
        rows = self.rows
        ships, warriors = rows[SHIP_ROW], rows[1]
        out = []
        for i, tok in enumerate(ships):
            if tok == EMPTY or (i < len(warriors) and warriors[i][-1] == "*"):  # no ship, or defended (V-30)
                continue
            for row in range(1, SHIP_DEPTH[tok[1]] + 1):
                r = rows[row]
                if i < len(r) and r[i][-1] == "*":
                    out.append((row, i + 1))
        out.sort()
        return out

    # ------------------------------------------------------------------ islands (V-25)

    def completed_islands(self) -> list[int]:
        """Lengths of completed islands: L, any number of middles, R, side by side, per row."""
        return completed_islands(self.rows)

    # ------------------------------------------------------------------ counts

    def vikings_total(self) -> int:
        on_islands = sum(1 for _r, _c, t in self.island_cells() if t.endswith("*"))
        return on_islands + sum(self.base.values())

    def empty_tiles(self, kind: str) -> list[tuple[int, int]]:
        """Island tiles in ``kind``'s row that hold no viking (targets for sailors, V-34)."""
        row = KIND_ROW[kind]
        return [(row, i + 1) for i, t in enumerate(self.rows[row]) if t != EMPTY and not t.endswith("*")]

    def can_sail(self) -> bool:
        """V-35: has a sailor and some base viking has an empty tile in its row."""
        base = self.base
        if base[SAILOR] <= 0:
            return False
        rows = self.rows
        for row in ISLAND_ROWS:
            if base[ROW_KIND[row]] > 0:
                for t in rows[row]:
                    if t != EMPTY and t[-1] != "*":
                        return True
        return False


def row_islands(r: list[str]) -> list[int]:
    """Lengths of the completed islands of one island row: L, any number of middles, R, side by
    side (V-25). A new list each time (the players' valuation keeps them per row)."""
    if "R" not in r and "R*" not in r:  # no right end in the row: no completed island
        return []
    out = []
    start = -1
    i = 0
    for tok in r:
        t = tok[0]
        if t == "L":
            start = i
        elif t == "R":
            if start >= 0:
                out.append(i - start + 1)
            start = -1
        elif t != "M" and t != "X":  # an empty cell breaks the island; middles continue it
            start = -1
        i += 1
    return out


def completed_islands(rows: list[list[str]]) -> list[int]:
    """Lengths of the completed islands of a homeland's ``rows`` (:meth:`Homeland.completed_islands`),
    row by row (:func:`row_islands`, V-25)."""
    out: list[int] = []
    for row in ISLAND_ROWS:
        out += row_islands(rows[row])
    return out


__all__ = ["Homeland", "EMPTY", "ROW_KIND", "completed_islands", "row_islands"]
