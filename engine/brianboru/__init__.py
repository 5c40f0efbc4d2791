"""Brian Boru (Peer Sylvester), rules B-1 … B-34 of ``../shared/rules/brian-boru.md``, on house data."""

from engine.brianboru.data import DATA, BrianBoruData, DataError
from engine.brianboru.game import BrianBoruAction, BrianBoruGame, act, parse_action
from engine.brianboru.notation import format_position, parse_position
from engine.brianboru.scoring import PlayerPosition, Position, final_scoring

__all__ = [
    "DATA",
    "BrianBoruAction",
    "BrianBoruData",
    "BrianBoruGame",
    "DataError",
    "PlayerPosition",
    "Position",
    "act",
    "final_scoring",
    "format_position",
    "parse_action",
    "parse_position",
]
