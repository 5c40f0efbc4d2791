"""``meadhall demo --game brian-boru``: a seeded game played to the end through the host service.

Moves are chosen at random among the legal ones (seeded) and sent as the players would send them
(``svc.act``; the draft's simultaneous choices in a shuffled order). Written to ``out_dir``:

* ``NNN-rR-start.png``, ``NNN-rR-tT.png``, ``NNN-rR-upkeep-STEPS.png``: the public map after the
  start towns, after every trick and after every upkeep decision, named by the upkeep steps
  (marriage, battle, spoils, church, regions) it settled; the engine runs the steps that need no
  decision together, so one picture may cover several; the towns that changed are ringed;
* ``rR-hand-NAME.png``: each player's hand once the draft of round R is over (private pictures);
* ``final.png`` and ``final.txt``: the end of the game and its scoring.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from bot.games.registry import default_registry
from bot.host.service import HostService
from bot.storage import Storage
from engine.core import Event, Rng

NAMES = ["Aoife", "Brian", "Cormac", "Deirdre", "Eithne"]
# events that mark one upkeep step (B-25 … B-31), named in the picture's file name
UPKEEP_STEPS = {"married": "marriage", "marriage_lost": "marriage", "raid": "battle", "repelled": "battle",
                "spoils": "spoils", "church_top": "church", "church_most": "church", "monastery": "church",
                "claim_revealed": "regions", "claim": "regions"}
STEP_ORDER = ("marriage", "battle", "spoils", "church", "regions")
TOWN_EVENTS = ("placed", "main", "expand", "freed", "lost_town", "monastery")


async def demo_brianboru(out_dir: Path, seed: int = 1, players: int = 4) -> list[Path]:
    """Play a seeded ``players``-seat game to its end; return the images written, in order."""
    from renderer.brianboru import render_brianboru, render_hand

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    names = NAMES[:players]
    paths: list[Path] = []
    counter = 0

    def write(name: str, data: bytes) -> None:
        path = out_dir / name
        path.write_bytes(data)
        paths.append(path)

    def snapshot(game: Any, rnd: int, label: str, events: list[Event]) -> None:
        nonlocal counter
        counter += 1
        view = game.view(None)
        view["last"] = {"towns": [e.data["town"] for e in events if e.kind in TOWN_EVENTS and e.data.get("town")]}
        write(f"{counter:03d}-r{rnd}-{label}.png", render_brianboru(view))

    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(tmp) / "demo.db")
        try:
            svc = HostService(storage, default_registry(), images=False)
            channel = "demo"
            for name in names:
                await svc.join(channel, name, name, game="brian-boru")
            reply = await svc.start(channel, names[0], "brian-boru", seed=seed)
            if not reply.ok:
                raise RuntimeError(" ".join(reply.private))
            table = await svc.table(channel)
            if table is None or table.game is None:
                raise RuntimeError("the demo table did not start")
            game, adapter = table.game, table.adapter
            chooser = Rng(seed)
            pending: list[Event] = []  # events since the last picture
            tricks = 0
            while not game.is_over:
                acting = game.acting_seats()
                if len(acting) > 1:
                    chooser.shuffle(acting)  # the draft: everybody at once, in any order
                seat = acting[0]
                actions = game.legal_actions(seat)
                action = actions[chooser.randbelow(len(actions))]
                before = game.view(None)
                rnd, phase = before["round"], before["phase"]
                reply = await svc.act(channel, names[seat], str(action))
                if not reply.ok:
                    raise RuntimeError(f"{names[seat]}: {action}: {reply.private}")
                pending += reply.events
                kinds = [e.kind for e in reply.events]
                parts = []
                now = game.view(None)
                if phase == "setup" and (game.is_over or now["phase"] != "setup"):
                    parts.append("start")
                trick_done = any(e.kind == "trick_won" for e in pending) and not now["trick"]["cards"]
                if trick_done:
                    tricks += 1
                    parts.append(f"t{tricks}")
                steps = [st for st in STEP_ORDER if any(UPKEEP_STEPS.get(k) == st for k in kinds)]
                if steps:
                    parts.append("upkeep-" + "-".join(steps))
                if parts:
                    snapshot(game, max(rnd, 1), "-".join(parts), pending)
                    pending = []
                if "round" in kinds:
                    tricks = 0
                if "draft_done" in kinds:
                    for s, name in enumerate(names):
                        write(f"r{now['round']}-hand-{name}.png", render_hand(game.view(s), s))
            write("final.png", adapter.render(game) or b"")
            (out_dir / "final.txt").write_text(adapter.text(game) + "\n", encoding="utf-8")
        finally:
            await storage.close()
    return paths
