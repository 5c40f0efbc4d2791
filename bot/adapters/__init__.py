"""The games the host offers, each behind its adapter (see ``bot.games``)."""

from __future__ import annotations

from bot.games import GameRegistry


def default_registry() -> GameRegistry:
    """Every game meadhall hosts; the first is what a table gets when nobody names a game."""
    from bot.adapters.brianboru import BrianBoruAdapter
    from bot.adapters.vikings import VikingsAdapter

    return GameRegistry([VikingsAdapter(), BrianBoruAdapter()])


def vp_history(game_cls: type, names: list[str], seed: int, options: dict | None, start_seat: int | None,
               moves: list[tuple[int, str]]) -> list[list[int]]:
    """Every player's VP at the start and at the end of each round, by replaying the action log
    (issue 14: the final scoring picture's chart comes from the log, not from extra game state).

    A round ends where the engine announces the next ``round`` and at ``game_over``.
    """
    game = game_cls.new(names, seed=seed, options=options, start_seat=start_seat)

    def vps() -> list[int]:
        view = game.view(None)
        final = view.get("final")
        if isinstance(final, dict) and isinstance(final.get("players"), list):  # Brian Boru: B-33 totals
            return [int(p.get("vp", 0)) for p in final["players"]]
        return [int(p.get("vp", 0)) for p in view["players"]]

    history = [vps()]
    for seat, action in moves:
        events = game.apply(seat, action)
        kinds = [e.kind for e in events]
        if "game_over" in kinds or ("round" in kinds and _new_round(events)):
            history.append(vps())
    return history


def _new_round(events: list) -> bool:
    """A ``round`` event after the first round (the first one comes with the game's set-up)."""
    return any(e.kind == "round" and int((e.data or {}).get("round", 1)) > 1 for e in events)
