"""The message policy of the Discord table (bot.discord.publishing.policy, issue 13), as plain data."""

from __future__ import annotations

import json

from bot.discord.publishing.policy import MAX_CONTENT, MessagePolicy, fit_lines
from bot.host.service import Prompt, Reply

KEY = "thread-1"


def reply(*actors: str, text: str = "decide", public: tuple[str, ...] = ("x moved",), status: str = "active",
          match: int = 1) -> Reply:
    return Reply(public=list(public), prompts=[Prompt(u, i, u, text) for i, u in enumerate(actors)],
                 match_id=match, status=status, version=1)


def play(policy: MessagePolicy, r: Reply, picture: str | None, message_id: int = 0):
    plan = policy.plan(KEY, r, picture=picture)
    policy.done(KEY, plan, r, message_id or (plan.edit.message_id if plan.edit else 0), 5, controls=True,
                picture=picture)
    return plan


def test_the_same_player_deciding_edits_and_a_new_player_gets_a_new_message():
    policy = MessagePolicy()
    first = play(policy, reply("1", text="buy"), "p0", message_id=10)
    assert first.edit is None and first.ping == ["1"] and first.attach
    place = play(policy, reply("1", text="place"), "p1")  # buy then place: the same player
    assert place.edit is not None and place.edit.message_id == 10 and place.ping == [] and place.attach
    assert place.lines == ["x moved", "x moved"]  # the turn's narration accumulates
    other = play(policy, reply("2", text="buy"), "p2", message_id=11)
    assert other.edit is None and other.strip is not None and other.strip.message_id == 10 and other.ping == ["2"]
    assert other.lines == ["x moved"]


def test_an_unchanged_picture_is_never_attached_again():
    policy = MessagePolicy()
    play(policy, reply("1"), "same", message_id=10)
    assert not play(policy, reply("1"), "same").attach
    assert not play(policy, reply("2"), "same", message_id=11).attach  # not even on a new message
    assert play(policy, reply("2"), "changed").attach
    assert not play(policy, reply("2"), None).attach  # no picture at all


def test_players_deciding_at_once_share_one_status_message_until_the_decision_changes():
    policy = MessagePolicy()
    draft = play(policy, reply("1", "2", "3", text="keep 2"), "map", message_id=20)
    assert draft.ping == ["1", "2", "3"]
    one = play(policy, reply("2", "3", text="keep 2"), "map")
    assert one.edit is not None and one.edit.message_id == 20 and not one.attach
    two = play(policy, reply("3", text="keep 2"), "map")
    assert two.edit is not None and two.edit.message_id == 20
    next_pass = play(policy, reply("1", "2", "3", text="keep 2"), "map")  # the draft's next pass
    assert next_pass.edit is not None and next_pass.edit.message_id == 20 and next_pass.ping == []
    lead = play(policy, reply("1", text="lead a card"), "map2", message_id=21)  # the draft is over
    assert lead.edit is None and lead.strip.message_id == 20 and lead.ping == ["1"]
    again = play(policy, reply("1", text="choose a town"), "map2")
    assert again.edit is not None and again.ping == []


def test_no_ping_for_the_player_who_already_was_the_one_to_act():
    policy = MessagePolicy()
    play(policy, reply("1", text="place"), "a", message_id=30)
    draft = play(policy, reply("1", "2", text="keep 2"), "a", message_id=31)
    assert draft.edit is None and draft.ping == ["2"]


def test_the_end_and_another_game_never_edit_an_old_message():
    policy = MessagePolicy()
    play(policy, reply("1"), "a", message_id=40)
    end = play(policy, reply(status="finished", public=("Final standings",)), "b")
    assert end.final and end.edit is None and end.strip.message_id == 40 and end.ping == []
    assert policy.live(KEY) is None
    play(policy, reply("1", match=1), "a", message_id=41)
    new_game = policy.plan(KEY, reply("1", match=2), picture="c")
    assert new_game.edit is None and new_game.strip is None


def test_long_narration_gives_way_to_the_prompt():
    lines = [f"line {i} " + "x" * 90 for i in range(60)]
    out = fit_lines(lines, ["<@1>: buy a combo"])
    text = "\n".join(out)
    assert len(text) <= MAX_CONTENT and out[0] == "…" and out[-1] == "<@1>: buy a combo" and out[-2] == lines[-1]
    assert fit_lines(["a"], ["b"]) == ["a", "b"]
    assert len("\n".join(fit_lines([], ["y" * 3000]))) == MAX_CONTENT


def test_a_group_of_decisions_stays_on_one_message_as_the_player_to_act_changes():
    """A Brian Boru trick: one message edited as cards are played; the next trick is a new one."""
    policy = MessagePolicy()

    def step(actor: str, group: str | None, message_id: int = 0):
        r = reply(actor)
        plan = policy.plan(KEY, r, picture=None, group=group)
        policy.done(KEY, plan, r, message_id or (plan.edit.message_id if plan.edit else 0), 5, controls=True,
                    picture=None, group=group)
        return plan

    assert step("1", "trick 1.0", message_id=50).edit is None
    second = step("2", "trick 1.0")
    assert second.edit is not None and second.edit.message_id == 50 and second.ping == []
    assert step("3", "trick 1.0").edit.message_id == 50
    nxt = step("2", "trick 1.1", message_id=51)
    assert nxt.edit is None and nxt.strip.message_id == 50 and nxt.ping == ["2"]
    assert step("3", None, message_id=52).edit is None  # outside a group: the usual rule


def test_people_who_become_to_act_in_an_edit_are_notified_and_their_ping_goes_when_they_acted():
    """Issue 24: an edit notifies nobody, so the plan names the people newly to act (never a computer
    player), and the pings whose people no longer act are deleted; a new message or the end deletes all."""
    policy = MessagePolicy()

    def step(r: Reply, message_id: int = 0, ping: int | None = None):
        plan = policy.plan(KEY, r, picture=None, group="trick 1.1")
        policy.done(KEY, plan, r, message_id or (plan.edit.message_id if plan.edit else 0), 5, controls=True,
                    picture=None, group="trick 1.1", ping=ping if plan.notify else None)
        return plan

    lead = step(reply("1", text="lead"), message_id=10)
    assert lead.edit is None and lead.ping == ["1"] and lead.notify == []
    second = step(reply("2", text="play"), ping=20)
    assert second.edit is not None and second.notify == ["2"] and second.unping == []
    bot = step(reply("bot:random:1", text="play"))
    assert bot.edit is not None and bot.notify == [] and bot.unping == [20]  # bob played: his ping goes
    third = step(reply("3", text="play"), ping=21)
    assert third.notify == ["3"] and policy.pings(KEY) == [21]
    same = step(reply("3", text="option"))
    assert same.notify == [] and same.unping == []  # carol still decides: no new ping, hers stays
    end = policy.plan(KEY, reply(status="finished"), picture=None)
    assert end.final and end.unping == [21]


def test_ping_setting_quiet_people_are_named_in_the_plan_not_pinged_on_a_new_message_or_an_edit():
    """Issue 25: people whose ping setting says not now (``quiet``) are left out of ``plan.ping``
    (a new message) and ``plan.notify`` (an edit, a Brian Boru trick's next card) and listed in
    ``plan.quiet``; the others are pinged as before."""
    policy = MessagePolicy()

    def step(r: Reply, message_id: int = 0, quiet=()):
        plan = policy.plan(KEY, r, picture=None, group="trick 1.1", quiet=quiet)
        policy.done(KEY, plan, r, message_id or (plan.edit.message_id if plan.edit else 0), 5, controls=True,
                    picture=None, group="trick 1.1", ping=30 if plan.notify else None)
        return plan

    lead = step(reply("1", "2", text="lead"), message_id=10, quiet={"2"})
    assert lead.edit is None and lead.ping == ["1"] and lead.quiet == ["2"]
    second = step(reply("3", text="play"), quiet={"3"})
    assert second.edit is not None and second.notify == [] and second.quiet == ["3"]
    fourth = step(reply("4", text="play"), quiet={"3"})
    assert fourth.notify == ["4"] and fourth.quiet == [] and policy.pings(KEY) == [30]


def test_the_policy_state_survives_a_restart_as_plain_data():
    """What a new process reads back (``state`` → JSON → ``restore``) plans exactly as the old one
    would: the trick's message is edited on, the outstanding ping goes when its person acted, and
    an unchanged picture is not attached again."""
    old = MessagePolicy()
    plan = old.plan(KEY, reply("1", text="lead"), picture="p0", group="trick 1.1")
    old.done(KEY, plan, reply("1", text="lead"), 10, 5, controls=True, picture="p0", group="trick 1.1")
    second = reply("2", text="play")
    plan = old.plan(KEY, second, picture="p0", group="trick 1.1")
    old.done(KEY, plan, second, 10, 5, controls=True, picture="p0", group="trick 1.1", ping=20)
    new = MessagePolicy()
    new.restore(KEY, json.loads(json.dumps(old.state(KEY))))
    assert new.state(KEY) == old.state(KEY) and new.pings(KEY) == [20]
    third = reply("3", text="play")
    after, before = new.plan(KEY, third, picture="p0", group="trick 1.1"), old.plan(KEY, third, picture="p0",
                                                                                   group="trick 1.1")
    assert after == before
    assert after.edit is not None and after.edit.message_id == 10 and after.unping == [20] and not after.attach
    assert after.notify == ["3"]
    assert MessagePolicy().state(KEY) is None
    new.restore(KEY, None)
    assert new.state(KEY) is None and new.plan(KEY, third, picture="p0").edit is None
