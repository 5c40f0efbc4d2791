"""Every turn notifies its player (issue 24), measured from the fake's records.

Discord notifies nobody of an edit (``Message.notified`` is whom a message pinged when it
appeared). A whole-game test calls :meth:`TurnWatch.observe` after every interaction (and once at
the end, computer players idle); each observation reads who is to act now from the live message (the
one message with usable controls: its ``<@id>: what to decide`` lines) and counts every person who
became a player to act since the last observation as *notified* when a message that appeared since
(the new live message, or a ping; deleted ones included) pinged them, else as *silent*::

    watch = TurnWatch(fd, thread)
    ...                        # each move
    watch.observe()
    assert watch.silent == [], watch.silent
    print(watch.figures())     # turns, notified, silent, messages posted, pings posted/remaining
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord import FakeDiscord, Message

PROMPT = re.compile(r"^<@(\d+)>: ", re.MULTILINE)


def usable(msg: Message) -> bool:
    """Whether a message still carries controls somebody could use (a link button is none)."""
    return any(not c.get("disabled") and "custom_id" in c for row in msg.components for c in row.get("components", []))


def to_act(msg: Message | None) -> set[int]:
    """The people a live message asks to decide (its prompt lines)."""
    return {int(u) for u in PROMPT.findall(msg.content)} if msg is not None else set()


def is_ping(msg: Message) -> bool:
    """A turn ping of issue 24: prompt lines and a link to the live message, no controls, no picture."""
    return bool(PROMPT.search(msg.content)) and "/channels/" in msg.content and not msg.components \
        and not msg.attachments


def turn_messages(fd: FakeDiscord, thread: Any) -> list[Message]:
    """The thread's messages (not deleted) but the turn pings: what the message policy posts."""
    return [m for m in fd.messages(thread) if not is_ping(m)]


@dataclass
class TurnWatch:
    fd: FakeDiscord
    thread: Any
    acting: set[int] = field(default_factory=set)
    seen: set[int] = field(default_factory=set)  # ids of the thread's messages already looked at
    turns: int = 0  # moments a person became a player to act
    notified: int = 0
    silent: list[tuple[int, str]] = field(default_factory=list)  # (user, the live message's tail)

    def __post_init__(self) -> None:
        self.observe()

    def observe(self) -> None:
        messages = self.fd.messages(self.thread, include_deleted=True)
        fresh = [m for m in messages if m.id not in self.seen]
        self.seen |= {m.id for m in fresh}
        pinged = {u for m in fresh for u in m.notified}
        live = [m for m in messages if usable(m) and not m.deleted]
        acting = to_act(live[-1]) if live else set()
        for user in sorted(acting - self.acting):
            self.turns += 1
            if user in pinged:
                self.notified += 1
            else:
                self.silent.append((user, live[-1].content[-200:]))
        self.acting = acting

    def figures(self) -> dict[str, int]:
        """The figures for the lead: person turns notified/silent, new visible messages (posted;
        still there at the end), pings posted and remaining."""
        every = self.fd.messages(self.thread, include_deleted=True)
        pings = [m for m in every if is_ping(m)]
        return {
            "person_turns": self.turns, "notified": self.notified, "silent": len(self.silent),
            "messages_posted": len(every), "messages_remaining": len([m for m in every if not m.deleted]),
            "pings_posted": len(pings), "pings_remaining": len([m for m in pings if not m.deleted]),
        }


def discord_figures(fd: FakeDiscord) -> dict[str, Any]:
    """Late answers (goal 0), 429s met and their total delay (seconds)."""
    return {"late_answers": len(fd.late_answers), "rate_limited": len(fd.rate_limited),
            "rate_limit_delay": round(sum(delay for _route, delay in fd.rate_limited), 3)}
