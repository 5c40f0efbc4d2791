"""Issue 25: the animated recap drawn in a worker process is the one drawn in a thread (the frames
cross as a log, the file comes back as bytes), in the caller's language."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.registry import default_registry
from bot.i18n import use_language
from bot.processes.cpu import CpuPool
from tests.renderer.test_recap import played


async def test_animated_recap_in_a_worker_process_equals_the_one_in_a_thread():
    adapter = default_registry()["brian-boru"]
    setup, moves = played("brian-boru", 3)
    with use_language("de"):
        with CpuPool(0) as threads:
            here = await threads.recap(adapter, setup, list(moves), name="r")
        with CpuPool(1) as workers:
            there = await workers.recap(adapter, setup, list(moves), name="r")
    assert there.data == here.data and there.durations == here.durations and there.filename == "r.webp"
    assert Image.open(io.BytesIO(there.data)).n_frames == there.frames > 10
    with CpuPool(0) as threads:
        english = await threads.recap(adapter, setup, list(moves), name="r")
    assert english.data != here.data  # the captions and pictures spoke German
