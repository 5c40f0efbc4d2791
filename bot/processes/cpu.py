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
    png = await cpu.analysis_picture(review, title)                     # issue 31: the analysis's picture
    judged = await cpu.review(game_id, setup, moves, indices, options)   # issue 31, at low priority
    line = await cpu.review_curve(game_id, setup, moves)                # issue 31, at low priority
    cpu.close()

**Priorities.** Moves, hints and pictures go to the workers at once. A game's analysis (issue 31)
is background work, given in small pieces (a few decisions each) to a worker of its own, started at
the first piece with the operating system's lowest priority (``os.nice``, 19): a move's picture or
search, in this process or a worker, takes the core from it at once, even when several bot
processes analyse on every core (``bench/host.py --analyses 2``). A piece is handed over only while
no other work is in flight, and one piece at a time. With ``size`` 0 the pieces run in a thread
(a thread's priority is not portable).

Work crosses to a worker as plain data: the adapter's class (instantiated once per worker), the
game's JSON, the view and the legal actions (pickled), and comes back as PNG bytes or an action.
Workers are started with ``spawn`` (the parent runs threads and an event loop; fork would copy
them half-way) and warmed at the first use.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import sys
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


def _review_in_worker(game_id: str, setup: tuple[Any, ...], moves: list[tuple[int, str]], indices: list[int],
                      options: dict[str, Any]) -> list[dict[str, Any]]:
    from engine.players.review import judge_moves

    return [d.to_json() for d in judge_moves(game_id, _start(game_id, setup), moves, indices, options=options)]


def _curve_in_worker(game_id: str, setup: tuple[Any, ...], moves: list[tuple[int, str]]) -> dict[str, Any]:
    from engine.players.review import curve

    return curve(game_id, _start(game_id, setup), moves).to_json()


LOW_PRIORITY = 19  # os.nice increment of the background worker: the lowest priority there is


def lower_priority() -> None:
    """A background worker's initializer: the operating system runs it only when the cores have
    nothing else to do (POSIX; Windows has no ``os.nice``)."""
    if sys.platform != "win32":
        os.nice(LOW_PRIORITY)


def _start(game_id: str, setup: tuple[Any, ...]) -> Game:
    """A stored match's first position: ``setup`` is ``(names, seed, options, start_seat)``."""
    from bot.games import engine_options
    from engine.players.arena import game_class

    names, seed, options, start_seat = setup
    return game_class(game_id).new(list(names), seed=seed, options=None if options is None else engine_options(options),
                                   start_seat=start_seat)


def _analysis_picture_in_worker(review: dict[str, Any], title: str, lang: str | None = None) -> bytes:
    from bot.i18n import _, ngettext, use_language
    from engine.players.review import Review
    from renderer.analysis import render_analysis

    with use_language(lang):
        return render_analysis(Review.from_json(review), title=title, tr=_, ntr=ngettext)


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
        self._busy = 0  # foreground work in flight (moves, hints, pictures)
        self._idle: asyncio.Event | None = None  # set while nothing of the foreground is in flight
        self._background: asyncio.Lock | None = None  # one background piece at a time
        self._low: ProcessPoolExecutor | None = None  # the background worker, at the lowest priority
        if size:
            self._pool = ProcessPoolExecutor(max_workers=size, mp_context=multiprocessing.get_context("spawn"))

    async def _run(self, fn: Callable[..., R], *args: Any) -> R:
        self._busy += 1
        if self._idle is not None:
            self._idle.clear()
        try:
            if self._pool is None:
                return await asyncio.to_thread(fn, *args)
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        finally:
            self._busy -= 1
            if self._busy == 0 and self._idle is not None:
                self._idle.set()

    async def _run_background(self, fn: Callable[..., R], *args: Any) -> R:
        """``fn(*args)`` once no foreground work is in flight, one background piece at a time."""
        if self._idle is None:
            self._idle, self._background = asyncio.Event(), asyncio.Lock()
            if self._busy == 0:
                self._idle.set()
        assert self._background is not None
        async with self._background:
            while self._busy:
                await self._idle.wait()
            if self._pool is None:
                return await asyncio.to_thread(fn, *args)
            if self._low is None:
                self._low = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                                initializer=lower_priority)
            return await asyncio.get_running_loop().run_in_executor(self._low, fn, *args)

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

    async def review(self, game_id: str, setup: tuple[Any, ...], moves: list[tuple[int, str]], indices: list[int],
                     options: dict[str, Any]) -> list[dict[str, Any]]:
        """The judged decisions at ``indices`` of a finished match's log (issue 31), as JSON, at low
        priority (see the module)."""
        return await self._run_background(_review_in_worker, game_id, setup, moves, indices, options)

    async def review_curve(self, game_id: str, setup: tuple[Any, ...], moves: list[tuple[int, str]]) -> dict[str, Any]:
        """The margin curve of a finished match (issue 31), as JSON, at low priority."""
        return await self._run_background(_curve_in_worker, game_id, setup, moves)

    async def analysis_picture(self, review: Any, title: str) -> bytes:
        """The picture of a game's analysis (issue 31; ``review``: an
        :class:`engine.players.review.Review`), in the caller's language."""
        return await self._run(_analysis_picture_in_worker, review.to_json(), title, _language())

    def close(self) -> None:
        for pool in (self._pool, self._low):
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        self._pool = self._low = None

    def __enter__(self) -> CpuPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
