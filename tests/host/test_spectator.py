"""What a non-player can obtain reveals nothing hidden (issue 11).

For each game, two tables in two databases play the same public history while their hidden state
differs (Vikings: the stacks' tiles, the bag's order, the specials' stacks, seed and RNG; Brian
Boru: the cards dealt for the draft, the cards set aside, the kept pairs, the Viking and marriage
stacks, seed and RNG). The second table is made from the first by changing only hidden parts of
its stored snapshot, and the test first checks that the public view really is equal. Then, step
by step while the public history stays the same, everything a spectator can get must be equal:
every command's reply (status, board, rules, help, export, a stranger's moves and typed lines),
every public message (narration, prompts, mentions), the image and its source view, the
components of the public message and the autocomplete a stranger is offered, and reminders.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.discord.cog import MeadhallCog
from bot.host.service import HostService, Reply
from tests.host_helpers import CH, Clock, live, open_service, play_first_legal, start_game

STRANGER = "777"  # a member of the channel who does not play


def public_reply(r: Reply) -> tuple:
    """Everything of a reply that a transport shows the channel (or a spectator who asked)."""
    return (r.ok, r.code, r.public, r.private, [(p.user, p.seat, p.name, p.text) for p in r.prompts],
            r.mentions, r.match_id, r.game, r.status, r.version, r.names,
            None if r.file is None else (r.file.filename, r.file.data),
            None if r.image is None else (r.image.filename, r.image.data),
            [(e.kind, e.seat, json.dumps(e.data, sort_keys=True)) for e in r.events])


class Side:
    """One of the two tables."""

    def __init__(self, svc: HostService, store, path: Path, clock: Clock) -> None:
        self.svc, self.store, self.path, self.clock = svc, store, path, clock
        self.cog = MeadhallCog(SimpleNamespace(service=svc))

    async def spectator_sees(self, game_verbs: list[str], legal_texts: list[str]) -> list:
        svc = self.svc
        seen: list = []
        for call in (svc.status(CH), svc.board(CH), svc.board(CH, STRANGER, private=True), svc.rules(CH),
                     svc.rules(CH, "B-14"), svc.rules(CH, "V-6"), svc.export(CH),
                     svc.command(CH, STRANGER, "help"), svc.command(CH, STRANGER, "status"),
                     svc.command(CH, STRANGER, "board private"), svc.abandon(CH, STRANGER),
                     svc.board(CH, STRANGER, player="Bob"), svc.board(CH, STRANGER, player="Nobody")):
            seen.append(public_reply(await call))
        for text in legal_texts:  # a stranger trying every move a player could make now
            seen.append(public_reply(await svc.act(CH, STRANGER, text)))
            seen.append(public_reply(await svc.command(CH, STRANGER, text)))
        table = await svc.table(CH)
        game = table.game
        seen.append(json.dumps(game.view(None), sort_keys=True))
        seen.append(table.adapter.text(game))
        seen.append(table.adapter.notation(game))
        seen.append([table.adapter.prompt(game, s) for s in game.acting_seats()])
        interaction = SimpleNamespace(channel_id=CH, user=SimpleNamespace(id=STRANGER), locale=None)
        for verb in game_verbs:
            choices = await self.cog.move_choices(interaction, verb, "")
            seen.append([(c.name, c.value) for c in choices])
        self.clock.t += 10_000  # every reminder is due: their text is posted in the channel
        seen.append([(r.user, r.seat, r.name, r.text, r.count, r.names) for r in await svc.due_reminders()])
        return seen

    async def components(self, reply: Reply) -> list:
        """The public message's buttons/selects, as labels and custom ids."""
        view, complete = await self.cog.components(CH, reply)
        if view is None:
            return [complete]
        out: list = [complete]
        for item in view.children:
            out.append((type(item).__name__, getattr(item, "label", None), getattr(item, "custom_id", None),
                        [(o.label, o.value) for o in getattr(item, "options", [])]))
        return out


def rewrite_hidden(path: Path, change) -> None:
    """Change the stored snapshot (and seed) of the open match with ``change(snapshot) -> seed``."""
    con = sqlite3.connect(path)
    try:
        mid, snap = con.execute("SELECT id, snapshot FROM matches WHERE status = 'active'").fetchone()
        snapshot = json.loads(snap)
        seed = change(snapshot)
        con.execute("UPDATE matches SET snapshot = ?, seed = ? WHERE id = ?",
                    (json.dumps(snapshot, sort_keys=True, separators=(",", ":")), seed, mid))
        con.commit()
    finally:
        con.close()


def shuffled(xs: list, rnd: random.Random) -> list:
    for _ in range(20):
        ys = list(xs)
        rnd.shuffle(ys)
        if ys != xs or len(set(map(json.dumps, xs))) < 2:
            return ys
    return ys


def hide_vikings(d: dict) -> int:
    """Other stacks' tiles (same sizes), another bag order, other specials' stacks, seed, RNG (V-6)."""
    rnd = random.Random(99)
    sizes = [len(s) for s in d["stacks"]]
    tiles = shuffled([t for s in d["stacks"] for t in s], rnd)
    d["stacks"], i = [], 0
    for n in sizes:
        d["stacks"].append(tiles[i:i + n])
        i += n
    d["bag"] = shuffled(d["bag"], rnd)
    d["special_stacks"] = [shuffled(s, rnd) for s in d["special_stacks"]]
    d["seed"] += 1
    d["rng"] = (d["rng"] * 3 + 12345) % 2**64
    return d["seed"]


def hide_brian_boru(d: dict) -> int:
    """Other cards in the draft piles and aside (same sizes), other Viking and marriage stacks, seed
    and RNG (B-13, B-14, B-8)."""
    s = d
    piles, aside = s["pile"], s["aside"]
    pool = shuffled([c for p in piles for c in p] + list(aside), random.Random(5))
    i = 0
    for q, p in enumerate(piles):
        piles[q] = sorted(pool[i:i + len(p)])
        i += len(p)
    s["aside"] = pool[i:]
    s["viking_deck"] = list(reversed(s["viking_deck"]))
    unseen = s["marriage_stack"] + s["marriage_out"]
    unseen = shuffled(unseen, random.Random(6))
    s["marriage_stack"], s["marriage_out"] = unseen[:len(s["marriage_stack"])], unseen[len(s["marriage_stack"]):]
    s["rng"] = (s["rng"] * 3 + 12345) % 2**64
    return 424242


@pytest.fixture
async def sides(tmp_path):
    """The two tables' services (closed at the end, whatever happens)."""
    out = []
    for name in ("a", "b"):
        clock = Clock()
        path = tmp_path / f"{name}.db"
        svc, store = await open_service(path, clock=clock, reminder_delay=60.0, images=True)
        out.append(Side(svc, store, path, clock))
    yield out
    for side in out:
        await side.store.close()


async def two_tables(sides: list[Side], game: str, seed: int, options: tuple[str, ...], ready, hide):
    for side in sides:
        await start_game(side.svc, game, seed=seed, options=options)
        await play_first_legal(side.svc, ready)
    a, b = sides
    before = (await live(b.svc)).to_json()
    rewrite_hidden(b.path, hide)
    b.svc._uncache(CH)  # as after a restart: the table is read from the database
    after = (await live(b.svc)).to_json()
    assert after != before, "the hidden state did not change"
    ga, gb = await live(a.svc), await live(b.svc)
    assert json.dumps(ga.view(None), sort_keys=True) == json.dumps(gb.view(None), sort_keys=True), \
        "the two tables' public views differ: the construction is wrong"
    return a, b


async def compare_while_public_is_equal(a: Side, b: Side, verbs: list[str], same_public, min_steps: int,
                                        max_steps: int = 200) -> int:
    """Each step: compare all a spectator gets; then each table's first acting seat takes its first
    legal action (which may differ when it is hidden: ``same_public`` says whether the step keeps
    the public history equal; the comparison stops before one that does not)."""
    steps = 0
    ra = rb = None
    for _ in range(max_steps):
        ga, gb = await live(a.svc), await live(b.svc)
        legal = [str(x) for x in ga.legal_actions(ga.acting_seats()[0])] if ga.acting_seats() else []
        assert await a.spectator_sees(verbs, legal[:6]) == await b.spectator_sees(verbs, legal[:6])
        if ra is not None:
            assert await a.components(ra) == await b.components(rb)
        seat = ga.acting_seats()[0]
        assert gb.acting_seats()[0] == seat
        xa, xb = str(ga.legal_actions(seat)[0]), str(gb.legal_actions(seat)[0])
        if not same_public(ga, xa, xb):
            break
        user = (await a.svc.table(CH)).record.seats[seat].user
        ra, rb = await a.svc.act(CH, user, xa), await b.svc.act(CH, user, xb)
        assert ra.ok and rb.ok, (ra, rb)
        ga, gb = await live(a.svc), await live(b.svc)
        if json.dumps(ga.view(None), sort_keys=True) != json.dumps(gb.view(None), sort_keys=True):
            break  # a random draw made new public information (a new round's tiles): equal so far
        assert public_reply(ra) == public_reply(rb), (xa, xb)
        steps += 1
    assert steps >= min_steps, steps
    adapter = (await a.svc.table(CH)).adapter
    ga, gb = await live(a.svc), await live(b.svc)
    if json.dumps(ga.view(None), sort_keys=True) == json.dumps(gb.view(None), sort_keys=True):
        assert adapter.render(ga) == adapter.render(gb)  # the image, at the end too
    return steps


async def test_a_spectator_learns_nothing_hidden_in_vikings_V6(sides):
    a, b = await two_tables(sides, "vikings", 31, ("specials",), lambda g: True, hide_vikings)
    ga, gb = await live(a.svc), await live(b.svc)
    adapter = (await a.svc.table(CH)).adapter
    assert adapter.render(ga) == adapter.render(gb)  # the image, from the same public view
    verbs = sorted(adapter.verbs)
    steps = await compare_while_public_is_equal(a, b, verbs, lambda g, xa, xb: xa == xb, min_steps=10)
    assert steps >= 10


def draft_keep(game, xa: str, xb: str) -> bool:
    """During the draft a seat's kept pair is hidden (B-14): different pairs keep the public equal."""
    return (game.s["pending"] or {}).get("kind") == "keep" or xa == xb


@pytest.mark.parametrize("seed", [3, 8])
async def test_a_spectator_learns_nothing_hidden_in_brian_boru_B13_B14(sides, seed):
    a, b = await two_tables(sides, "brian-boru", seed, (),
                            lambda g: (g.s["pending"] or {}).get("kind") == "keep", hide_brian_boru)
    ga, gb = await live(a.svc), await live(b.svc)
    assert ga.s["pile"] != gb.s["pile"]  # the players hold other cards
    adapter = (await a.svc.table(CH)).adapter
    assert adapter.render(ga) == adapter.render(gb)
    verbs = sorted(adapter.verbs)
    steps = await compare_while_public_is_equal(a, b, verbs, draft_keep, min_steps=8)
    assert steps >= 8
