"""The house data file: its content (B-1 … B-4) and the validator that guards it."""

from __future__ import annotations

import copy
import json

import pytest

from engine.brianboru.data import DATA, DATA_PATH, BrianBoruData, DataError, load


def raw() -> dict:
    return json.loads(DATA_PATH.read_text(encoding="utf-8"))


def test_components_B1_to_B4():
    d = DATA
    assert len(d.town_names) == 38 and len(d.region_ids) == 8
    colours = [d.town_colour.count(i) for i in range(3)]
    assert colours == [13, 13, 12]
    assert d.card_values == list(range(1, 26))  # B-1 all different
    assert all(c.main[0][0] == "control" for c in d.cards.values())
    assert all(1 <= len(c.secondary) <= 2 for c in d.cards.values())
    assert len(d.marriage) == 9 and d.marriage[d.princess_id].princess  # B-2
    assert sorted(d.viking_cards) == [2, 3, 3, 4, 4, 5, 6]  # B-3
    assert d.track[1] is None and d.top_space == 9
    assert sum(len(n) for n in d.neighbours) == 2 * 48


def test_rulebook_example_cards_are_kept():
    c = DATA.cards
    assert c[2].secondary_text[0] == "coin coin coin expand"
    assert c[11].secondary_text == ("coin coin", "battle battle")
    assert c[13].colour == 3 and c[13].main_text == "control coin"
    assert c[17].secondary_text[0] == "marriage marriage marriage"


def test_load_from_path(tmp_path):
    p = tmp_path / "data.json"
    p.write_text(DATA_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    assert load(p).town_names == DATA.town_names


def _mut(path_fn):
    d = raw()
    path_fn(d)
    return d


BROKEN = [
    (lambda d: d["roads"].__setitem__(0, ["Tara", "Atlantis"]), "unknown town 'Atlantis'"),
    (lambda d: d["roads"].append(["Tara", "Cork"]), "expected 48 roads"),
    (lambda d: d["roads"].__setitem__(0, ["Tara", "Tara"]), "joins a town to itself"),
    (lambda d: d["roads"].__setitem__(0, list(reversed(d["roads"][1]))), "listed twice"),
    (lambda d: d["towns"][0].__setitem__("region", "ulaid"), "should have"),
    (lambda d: d["towns"][0].__setitem__("region", "mars"), "unknown region"),
    (lambda d: d["towns"][0].__setitem__("colour", "blue"), "red towns"),
    (lambda d: d["towns"][0].__setitem__("colour", "green"), "colour must be"),
    (lambda d: d["towns"][1].__setitem__("name", "aileach"), "town names must be distinct"),
    (lambda d: d["towns"][0].__setitem__("name", "Old Aileach"), "one word"),
    (lambda d: d["towns"].pop(), "expected 38 towns"),
    (lambda d: d["action_cards"][1].__setitem__("value", 1), "all be different"),
    (lambda d: d["action_cards"].pop(), "expected 25 action cards"),
    (lambda d: d["action_cards"][0].__setitem__("colour", "green"), "unknown colour"),
    (lambda d: d["action_cards"][0].__setitem__("main", "coin control"), "starts with control"),
    (lambda d: d["action_cards"][0]["secondary"].append("coin"), "one or two secondary"),
    (lambda d: d["action_cards"][0]["secondary"].__setitem__(0, "control coin"), "control only in main"),
    (lambda d: d["action_cards"][0]["secondary"].__setitem__(0, "dance"), "unknown symbol"),
    (lambda d: d["action_cards"][0]["secondary"].__setitem__(0, "town in mars"), "unknown region"),
    (lambda d: d["marriage_cards"][0].__setitem__("princess", True), "exactly one marriage card"),
    (lambda d: d["marriage_cards"][0].__setitem__("reward", ["expand"]), "reward 'expand'"),
    (lambda d: d["marriage_track"].__setitem__(3, "gold"), "unknown marriage track bonus"),
    (lambda d: d["marriage_track"].__setitem__(0, "coin"), "space 1"),
    (lambda d: d["viking_cards"].__setitem__(0, 0), "positive integers"),
    (lambda d: d["deal"].__setitem__("5", 6), "cannot deal"),
    (lambda d: d["deal"].pop("4"), "every player count"),
    (lambda d: d["ordinary_marriage_cards_used"].__setitem__("4", 9), "cannot use 9"),
    (lambda d: d["region_count_points"].pop(), "region_count_points"),
    (lambda d: d["regions"][0].__setitem__("threshold", 0), "threshold and points"),
    (lambda d: d["regions"][1].__setitem__("id", "ailech"), "region ids must be distinct"),
    (lambda d: d["players"].__setitem__("min", 2), "3..5"),
    (lambda d: d["start"].__setitem__("track", 12), "start.track"),
    (lambda d: d.pop("coastline"), "missing section 'coastline'"),
]


@pytest.mark.parametrize("breakage,message", BROKEN)
def test_validator_rejects_broken_data(breakage, message):
    d = _mut(breakage)
    with pytest.raises(DataError) as info:
        BrianBoruData(d)
    assert message in str(info.value)


def test_unbroken_copy_is_accepted():
    assert BrianBoruData(copy.deepcopy(raw())).town_names == DATA.town_names
