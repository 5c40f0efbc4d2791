"""``meadhall demo --game vikings``: a seeded game played to the end through the host service.

Moves are chosen at random among the legal ones (seeded), exactly as players would send them;
one PNG is written per turn (whenever the player to act changes, and after each scoring) plus
the final scoring image.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from bot.games.registry import default_registry
from bot.host.service import HostService
from bot.storage import Storage
from engine.core import Rng

NAMES = ["Astrid", "Bjorn", "Cnut", "Dagny", "Eir"]


async def demo_vikings(out_dir: Path, *, seed: int = 1, players: int = 4,
                       options: Sequence[str] = ()) -> list[Path]:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(tmp) / "demo.db")
        try:
            svc = HostService(storage, default_registry(), images=False)
            channel = "demo"
            for name in NAMES[:players]:
                await svc.join(channel, name, name, game="vikings")
            reply = await svc.start(channel, NAMES[0], "vikings", list(options), seed=seed)
            if not reply.ok:
                raise RuntimeError(" ".join(reply.private))
            chooser = Rng(seed)
            turn = 0
            table = await svc.table(channel)
            if table is None or table.game is None:
                raise RuntimeError("the demo table did not start")
            game, adapter = table.game, table.adapter
            paths.append(_write(out_dir, f"turn-{turn:03d}.png", adapter.render(game)))
            while not game.is_over:
                seat = game.acting_seats()[0]
                actions = game.legal_actions(seat)
                action = actions[chooser.randbelow(len(actions))]
                reply = await svc.act(channel, NAMES[seat], str(action))
                if not reply.ok:
                    raise RuntimeError(f"{action}: {reply.private}")
                scored = any(e.kind == "score" for e in reply.events)
                if game.is_over:
                    break
                if scored or game.acting_seats()[0] != seat:
                    turn += 1
                    paths.append(_write(out_dir, f"turn-{turn:03d}.png", adapter.render(game)))
            paths.append(_write(out_dir, "final.png", adapter.render(game)))
            (out_dir / "final.txt").write_text(adapter.text(game) + "\n", encoding="utf-8")
        finally:
            await storage.close()
    return paths


def _write(out_dir: Path, name: str, data: bytes | None) -> Path:
    path = out_dir / name
    path.write_bytes(data or b"")
    return path
