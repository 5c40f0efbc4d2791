"""Issue 25 at the offline table: a game's end writes its animated recap and prints the path;
``/recap`` (and ``/recap ID``) writes it again with the result line and the final picture."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from tests.host_helpers import say
from tests.offline.test_offline_records import CH, finished  # noqa: F401  (the fixture)


def _animated(path: str) -> Image.Image:
    img = Image.open(Path(path))
    assert img.format == "WEBP" and img.is_animated and img.n_frames > 40, (img.format, img.n_frames)
    assert Path(path).stat().st_size <= 8 * 1024 * 1024
    return img


async def test_offline_game_end_writes_the_animated_recap_and_prints_its_path(finished):  # noqa: F811
    t, out = finished
    match = (await t.service.storage.history(channel=CH))[0].id
    over = next(i for i, line in enumerate(out) if line.startswith("Game over."))
    said = [line for line in out[over:] if line.startswith("The whole game")]
    files = [line.removeprefix("file: ") for line in out[over:] if line.startswith("file: ")]
    assert said == [said[0]] and f"game {match} in " in said[0], out
    [path] = files
    assert path.endswith(f"meadhall-vikings-{match}-recap.webp")
    _animated(path)


async def test_offline_recap_command_writes_the_animated_recap_again(finished, tmp_path):  # noqa: F811
    t, _out = finished
    match = (await t.service.storage.history(channel=CH))[0].id
    out = await say(t, f"ann: /recap {match}")
    assert any(line.startswith("image: ") and line.endswith("-recap.png") for line in out), out
    [path] = [line.removeprefix("file: ") for line in out if line.startswith("file: ")]
    assert Path(path).parent == tmp_path / "out" and _animated(path).n_frames > 40
    out = await say(t, "ann: /recap 999")  # refused as before: nothing written
    assert out[0].endswith("There is no finished game 999.") and not [x for x in out if x.startswith("file: ")]
