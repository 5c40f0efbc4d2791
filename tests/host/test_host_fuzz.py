"""Property test (issue 11): real games of both games driven through ``HostService`` with random
legal moves mixed with adversarial input from players and strangers. Whatever comes in, the host
answers with a ``Reply`` (no exception), and on every refusal the engine's JSON and every row of
the database are byte-identical before and after.

Bounded for CI: a handful of examples per game, each a few dozen steps (well under a minute).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.brianboru import BrianBoruAdapter
from bot.games.vikings import VikingsAdapter
from bot.host.service import REFUSALS, HostService, Reply
from tests.host_helpers import CH, db_rows, open_service

NAMES = {"ann": "# Ann", "bob": "||Bob||", "cid": "<@123456789012345678>"}
STRANGER = "eve"
VERBS = sorted({*VikingsAdapter.verbs.values(), *BrianBoruAdapter.verbs.values()})

ADVERSARIAL = [
    "", " ", "buy ²", "buy ١", "play ²", "keep ١ ٢", "lead ³", "extra ²", "bid ٣", "exchange ¹",
    "buy " + "9" * 5000, "bid " + "9" * 40, "exchange -1", "bid -5", "buy 0", "buy 99", "lead 0", "lead 26",
    "keep 1 1", "keep 1", "keep 1 2 3", "town", "town Atlantis", "town \x00", "active ^1", "sail done",
    "sail end", "sail A1", "place ^1", "place Z9", "start ^2", "swap ^1", "remove dragon", "lay x",
    "special none", "special ???", "princess maybe", "raid", "expand no no", "option 3", "option ²",
    "\x00\x01\x02", "\u202e\u200b\u2066", "**bold** __under__", "<@123456789012345678>", "@everyone",
    "# Ann", "||Bob||", "Ann", "bob", "-# tiny", "> quote", "`code`", "x" * 6000, "buy 1\nbuy 2",
    "buy\tbuy", "ＢＵＹ　１", "🂡 🂢", "𝟙", "٣٣", "keep 𝟙 𝟚", "1e9", "0x10", "1_000", "+1", "٫",
]

fragments = st.one_of(
    st.sampled_from(ADVERSARIAL),
    st.text(max_size=40),
    st.text(alphabet=st.characters(categories=("Nd", "No", "Cc", "Cf", "Zs", "Sm")), max_size=12),
    st.integers(min_value=-10**30, max_value=10**30).map(str),
)
HOST_WORDS = ["join", "leave", "start", "status", "board", "rules", "export", "help", "/rules", "/board"]
junk_text = st.one_of(
    fragments,
    st.tuples(st.sampled_from(VERBS), fragments).map(" ".join),
    st.tuples(st.sampled_from(VERBS), fragments, fragments).map(" ".join),
    st.tuples(st.sampled_from(HOST_WORDS), fragments).map(" ".join),  # never abandon: that may end it
)
step = st.one_of(
    st.tuples(st.just("legal"), st.integers(min_value=0, max_value=10**6)),
    st.tuples(st.just("legal"), st.integers(min_value=0, max_value=10**6)),
    st.tuples(
        st.just("junk"),
        st.sampled_from([*NAMES, STRANGER]),
        junk_text,
        st.sampled_from(["act", "command"]),
        st.one_of(st.none(), st.integers(min_value=-2, max_value=200)),
        st.booleans(),
    ),
)


async def snapshot(svc: HostService, path: Path) -> tuple[str | None, list[tuple]]:
    table = await svc.table(CH)
    engine = None if table is None or table.game is None else json.dumps(table.game.to_json(), sort_keys=True)
    return engine, db_rows(path)


async def drive(game: str, users: list[str], options: list[str], seed: int, steps: list[tuple]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.db"
        svc, store = await open_service(path)
        try:
            for i, user in enumerate(users):
                assert (await svc.join(CH, user, NAMES[user], game=game if i == 0 else None)).ok
            assert (await svc.start(CH, users[0], game, options, seed=seed)).ok
            for s in steps:
                table = await svc.table(CH)
                if table is None or table.game is None:
                    break  # the game is over
                g = table.game
                if s[0] == "legal":
                    seat = g.acting_seats()[0]
                    legal = g.legal_actions(seat)
                    r = await svc.act(CH, users[seat], str(legal[s[1] % len(legal)]))
                    assert r.ok, r
                    continue
                _kind, user, text, how, version, scoped = s
                before = await snapshot(svc, path)
                if how == "act":
                    r = await svc.act(CH, user, text, version=version, scoped=scoped)
                else:
                    r = await svc.command(CH, user, text, name=NAMES.get(user, user))
                assert isinstance(r, Reply)
                if not r.ok:
                    assert r.code in REFUSALS and r.private and not r.public and r.image is None
                    assert len(r.private[0]) <= 500, r.private[0]  # quotes at most ~100 characters
                    assert await snapshot(svc, path) == before, (text, r.code)
        finally:
            await store.close()


FUZZ = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                derandomize=True)


@FUZZ
@given(options=st.sampled_from([[], ["advanced"], ["auction"], ["specials", "strict-ships"]]),
       seed=st.integers(min_value=0, max_value=2**32), steps=st.lists(step, min_size=30, max_size=60))
def test_vikings_host_survives_random_and_hostile_input(options, seed, steps):
    asyncio.run(drive("vikings", ["ann", "bob"], options, seed, steps))


@FUZZ
@given(seed=st.integers(min_value=0, max_value=2**32), steps=st.lists(step, min_size=30, max_size=60))
def test_brian_boru_host_survives_random_and_hostile_input(seed, steps):
    asyncio.run(drive("brian-boru", ["ann", "bob", "cid"], [], seed, steps))
