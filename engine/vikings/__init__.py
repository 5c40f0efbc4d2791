"""Michael Kiesling's Vikings as a pure, deterministic engine (rules V-1 … V-49)."""

from .actions import parse_action
from .game import VikingsGame, normalise_options
from .homeland import Homeland
from .notation import parse_table, print_table

__all__ = ["VikingsGame", "Homeland", "parse_action", "parse_table", "print_table", "normalise_options"]
