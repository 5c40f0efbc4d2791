"""CPU-heavy work off the event loop: table pictures and the searching computer levels (hard).

A thread (``asyncio.to_thread``) keeps the event loop's own code from waiting, but Python's GIL
still makes every other coroutine — gateway heartbeats, other tables' clicks — wait behind a
picture or a search. A :class:`CpuPool` of ``size`` worker processes runs them truly in parallel;
``size`` 0 keeps the old behaviour (a thread of this process), e.g. for tests and tiny hosts.

API::

    cpu = CpuPool(size=2)                                   # size 0: threads; also ``with``/close()
    png = await cpu.render(adapter, game, seat=None)        # adapter.render in a worker
    png = await cpu.picture(adapter, game, **kwargs)        # adapter.picture in a worker
    action = await cpu.choose(game_id, level, seed, options, view, legal)   # player.choose in a worker
    found = await cpu.analyse(game_id, seed, options, view, legal)        # the hard level's analysis (/hint)
    recap = await cpu.recap(adapter, setup, moves, name=...)  # the animated recap (issue 25) in a worker
    cpu.close()

Work crosses to a worker as plain data: the adapter's class (instantiated once per worker), the
game's JSON, the view and the legal actions (pickled), and comes back as PNG bytes or an action.
Workers are started with ``spawn`` (the parent runs threads and an event loop; fork would copy
them half-way) and warmed at the first use.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from bot.games import GameAdapter
    from engine.core import Action, Game
    from engine.players.analysis import Analysis
    from renderer.recap import Recap

R = TypeVar("R")

_ADAPTERS: dict[type[Any], Any] = {}  # per worker process: one adapter instance per adapter class


def _adapter(adapter_cls: type[GameAdapter[Any]]) -> GameAdapter[Any]:
    adapter = _ADAPTERS.get(adapter_cls)
    if adapter is None:
        adapter = _ADAPTERS[adapter_cls] = adapter_cls()
    return adapter


def _render_in_worker(adapter_cls: type[GameAdapter[Any]], game_cls: type[Game], snapshot: dict[str, Any],
                      seat: int | None, lang: str | None = None) -> bytes | None:
    from bot.i18n import use_language

    adapter = _adapter(adapter_cls)
    with use_language(lang):  # the caller's language: a worker has no task of the caller (issue 16)
        return adapter.render(game_cls.from_json(snapshot), seat=seat)


def _picture_in_worker(adapter_cls: type[GameAdapter[Any]], game_cls: type[Game], snapshot: dict[str, Any],
                       kwargs: dict[str, Any], lang: str | None = None) -> bytes | None:
    from bot.i18n import use_language

    adapter = _adapter(adapter_cls)
    with use_language(lang):
        return adapter.picture(game_cls.from_json(snapshot), **kwargs)


def _recap_in_worker(adapter_cls: type[GameAdapter[Any]], setup: tuple[Any, ...], moves: list[tuple[int, str]],
                     name: str, lang: str | None = None) -> Recap:
    from bot.games.replay import make_recap
    from bot.i18n import use_language

    with use_language(lang):
        return make_recap(_adapter(adapter_cls), setup, moves, name=name)


def _choose_in_worker(game_id: str, level: str, seed: int, options: dict[str, Any], view: Mapping[str, Any],
                      legal: Sequence[Action]) -> Action:
    from engine.players import make_player

    return make_player(game_id, level, seed=seed, **options).choose(view, legal)


def _analyse_in_worker(game_id: str, seed: int, options: dict[str, Any], view: Mapping[str, Any],
                       legal: Sequence[Action], level: str = "hard") -> Analysis:
    from engine.players import make_player

    player: Any = make_player(game_id, level, seed=seed, **options)  # a searching level: it has analyse()
    found: Analysis = player.analyse(view, legal)
    return found


def _language() -> str:
    """The language the caller's pictures are drawn in (a worker process draws in it too)."""
    from bot.i18n import current_language

    return current_language()


class CpuPool:
    def __init__(self, size: int = 0) -> None:
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise ValueError(f"the CPU pool size must be 0 (threads) or more worker processes, not {size!r}")
        self.size = size
        self._pool: ProcessPoolExecutor | None = None
        if size:
            self._pool = ProcessPoolExecutor(max_workers=size, mp_context=multiprocessing.get_context("spawn"))

    async def _run(self, fn: Callable[..., R], *args: Any) -> R:
        if self._pool is None:
            return await asyncio.to_thread(fn, *args)
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def render(self, adapter: GameAdapter[Any], game: Game, seat: int | None = None) -> bytes | None:
        if self._pool is None:
            return await asyncio.to_thread(adapter.render, game, seat=seat)
        return await self._run(_render_in_worker, type(adapter), type(game), game.to_json(), seat, _language())

    async def picture(self, adapter: GameAdapter[Any], game: Game, **kwargs: Any) -> bytes | None:
        """``adapter.picture(game, **kwargs)`` (issue 14's turn/scoring/board pictures)."""
        if self._pool is None:
            return await asyncio.to_thread(lambda: adapter.picture(game, **kwargs))
        return await self._run(_picture_in_worker, type(adapter), type(game), game.to_json(), kwargs, _language())

    async def recap(self, adapter: GameAdapter[Any], setup: tuple[Any, ...], moves: list[tuple[int, str]], *,
                    name: str) -> Recap:
        """The animated recap of a match (:func:`bot.games.recap.make_recap`): every frame drawn and
        encoded in a worker (seconds of work for a whole game)."""
        if self._pool is None:
            from bot.games.replay import make_recap

            return await asyncio.to_thread(functools.partial(make_recap, adapter, setup, moves, name=name))
        return await self._run(_recap_in_worker, type(adapter), setup, moves, name, _language())

    async def choose(self, game_id: str, level: str, seed: int, options: dict[str, Any], view: Mapping[str, Any],
                     legal: Sequence[Action]) -> Action:
        return await self._run(_choose_in_worker, game_id, level, seed, options, view, legal)

    async def analyse(self, game_id: str, seed: int, options: dict[str, Any], view: Mapping[str, Any],
                      legal: Sequence[Action], level: str = "hard") -> Analysis:
        """A searching level's analysis of a decision (issue 25, ``/hint``; issue 30: the ``hard``
        level's) in a worker."""
        return await self._run(_analyse_in_worker, game_id, seed, options, view, legal, level)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> CpuPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
