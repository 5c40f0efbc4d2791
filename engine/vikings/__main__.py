"""Command line: score a written-down table, or list where a tile may go.

    python -m engine.vikings score small|major|final FILE
    python -m engine.vikings placements FILE --player NAME --tile TILE
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.core import NotationError

from .data import ISLAND_TILES, SHIP_TILES, cell_name
from .notation import parse_table
from .scoring import Purse, ScoreResult, final_scoring, major_scoring, small_scoring


def score(kind: str, text: str) -> dict:
    """V-32 / V-33 (no sailor moves) / V-37 (the table taken as after round 6's major scoring)."""
    table = parse_table(text)
    order = [(table.start_index + i) % len(table.players) for i in range(len(table.players))]
    purses = [Purse(p.gold, p.vp) for p in table.players]
    results: list[ScoreResult] = [ScoreResult() for _ in table.players]
    if kind == "final":
        results = final_scoring([p.homeland for p in table.players], purses)
    else:
        fn = small_scoring if kind == "small" else major_scoring
        for i in order:
            results[i] = fn(table.players[i].homeland, purses[i])
    # "lines": the English text; "messages": the same lines structured, as the game's events hold them
    return {
        "players": [
            {"name": p.name, "vp": purse.vp, "gold": purse.gold, "lines": r.lines,
             "messages": [m.to_json() for m in r.messages]}
            for p, purse, r in zip(table.players, purses, results)
        ]
    }


def placements(text: str, player: str, tile: str, ships_any_order: bool = True) -> list[str]:
    """Legal cells for TILE in PLAYER's homeland, top row first, then by column (V-20 … V-22)."""
    table = parse_table(text)
    h = table.players[table.find(player)].homeland
    return [cell_name(r, c) for r, c in h.cells_for(tile, ships_any_order)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.vikings", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("score", help="apply a scoring to the table in FILE and print JSON")
    sp.add_argument("kind", choices=["small", "major", "final"])
    sp.add_argument("file")
    pp = sub.add_parser("placements", help="print the JSON list of legal cells for a tile")
    pp.add_argument("file")
    pp.add_argument("--player", required=True)
    pp.add_argument("--tile", required=True, help="L, R, Ma…Md, ^r ^g ^y ^b")
    pp.add_argument("--strict-ships", action="store_true", help="V-20 [D-6] strict reading: first ship in columns 1-3, each later one next to a ship")
    args = ap.parse_args(argv)
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        if args.cmd == "score":
            print(json.dumps(score(args.kind, text), indent=2, ensure_ascii=False))
        else:
            if args.tile not in ISLAND_TILES and args.tile not in SHIP_TILES:
                print(f"error: unknown tile {args.tile!r} (L, R, Ma…Md, ^r ^g ^y ^b)", file=sys.stderr)
                return 2
            try:
                cells = placements(text, args.player, args.tile, not args.strict_ships)
            except KeyError:
                print(f"error: no player {args.player!r} in {args.file}", file=sys.stderr)
                return 2
            print(json.dumps(cells))
    except NotationError as e:
        print(f"error: {args.file}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
