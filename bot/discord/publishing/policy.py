"""Which message of a game's thread a reply goes to: the message policy of issue 13.

One *live message* per table: the message of the player (or the players deciding at once) to
act now, carrying the narration of their turn, the prompt, the picture and the controls. For
each successful reply to a move the policy decides (pure logic, no discord import)::

    policy = MessagePolicy()
    plan = policy.plan(key, reply, picture=sha)   # what to do with the reply
    ...                                           # the transport edits plan.edit / posts a new one
    policy.done(key, plan, reply, message_id, controls=bool)   # remember what is live now

* **edit** the live message while the same player keeps deciding (Vikings: buy then place, the
  start tile, a sailing phase), and while players who decide at once (a draft) are deciding the
  same thing, fewer of them with every choice ("waiting for: …");
* **post** a new message when the player to act changes, pinging only players who were not
  already the only one to act (``plan.ping``); the former live message loses its controls
  (``plan.strip``) so that no stale controls stay usable;
* **edit** it also while the decisions belong to one *group* the adapter names (a Brian Boru
  trick: one message edited as cards are played, ending with its resolution; nobody is pinged
  within it);
* **post** a closing message when the game ends (no controls; the live message is stripped).

Every turn notifies its player (issue 24): Discord notifies nobody of an edit, so when people
(digit ids, never computer players) become players to act in an *edit* (a trick's next card, a
draft's next pass, …) the plan names them (``plan.notify``) and the transport posts one short
ping message for them (``done(…, ping=id)``); the policy keeps the users to act per table and the
outstanding pings, and names those to delete (``plan.unping``) once none of their people is still
to act, and all of them when a new live message (which pings by itself) is posted or the game ends.

A picture is attached only when it differs from the last one attached for this table
(``plan.attach``; pictures are compared by a hash of their bytes, so an unchanged table is never
sent twice). Narration accumulates on the live message while it is edited; the oldest lines give
way (``…``) when the message would be longer than Discord allows.

A person's ping setting (issue 25, :mod:`bot.host.pings`) is honoured here: those the transport
names ``quiet`` (``reminders only``, or ``only after N hours`` until then) are left out of
``plan.ping`` and ``plan.notify`` — the message still names them, its mention pings nobody — and
listed in ``plan.quiet`` (the transport arms the later ping of the ``after`` ones).

The state of each table is plain data (:meth:`MessagePolicy.state`, :meth:`MessagePolicy.restore`):
the transport keeps it in the database after every reply, so after a restart the live message is
edited on, its outstanding pings are deleted in time and an unchanged picture is not sent again.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.host.service import Reply

MAX_CONTENT = 2000
ELLIPSIS = "…"


@dataclass(slots=True)
class Live:
    """The live message of a table: where it is, who was to act, what it says."""

    message_id: int
    channel_id: int
    match_id: int
    prompts: dict[str, str]  # user → what they were asked, when the message last changed
    lines: list[str] = field(default_factory=list)  # narration of this turn so far
    controls: bool = False
    group: str | None = None  # several players' decisions kept on one message (a Brian Boru trick)

    @property
    def actors(self) -> tuple[str, ...]:
        return tuple(self.prompts)


@dataclass(slots=True)
class Plan:
    edit: Live | None  # the live message to edit; None: post a new message
    strip: Live | None  # an older live message whose controls must go
    ping: list[str]  # users this message pings (only on a new message)
    lines: list[str]  # the narration it carries
    attach: bool  # the picture changed since the last one attached
    final: bool  # the game ended (or was abandoned): no controls, nothing stays live
    notify: list[str] = field(default_factory=list)  # people newly to act on an edit: one ping message
    # people newly to act whose ping setting (issue 25) says not now: named, not pinged
    quiet: list[str] = field(default_factory=list)
    unping: list[int] = field(default_factory=list)  # ping messages whose people no longer act: delete


def _prompts(reply: Reply) -> dict[str, str]:
    return {p.user: p.text for p in reply.prompts}


def fit_lines(lines: Sequence[str], tail: Sequence[str], limit: int = MAX_CONTENT) -> list[str]:
    """``lines`` then ``tail`` within ``limit`` characters: the oldest of ``lines`` give way
    (replaced by one ``…``); ``tail`` (the prompts) always stays, cut if it alone is too long."""
    tail = list(tail)
    size = len("\n".join(tail))
    if size > limit:
        return ["\n".join(tail)[:limit]]
    kept: list[str] = []
    for line in reversed(lines):
        extra = len(line) + 1
        if size + extra + len(ELLIPSIS) + 1 > limit:
            kept.append(ELLIPSIS)
            break
        kept.append(line)
        size += extra
    return [*reversed(kept), *tail]


class MessagePolicy:
    def __init__(self) -> None:
        self._live: dict[str, Live] = {}
        self._picture: dict[str, str] = {}  # table key → hash of the last picture attached
        self._acting: dict[str, tuple[int | None, frozenset[str]]] = {}  # key → (match, users to act)
        self._pings: dict[str, list[tuple[int, frozenset[str]]]] = {}  # key → outstanding pings, their users

    def acting(self, key: str, match_id: int | None) -> frozenset[str]:
        """The users to act after the table's last published reply (of this match)."""
        match, users = self._acting.get(key, (None, frozenset()))
        return users if match == match_id else frozenset()

    def pings(self, key: str) -> list[int]:
        return [m for m, _users in self._pings.get(key, [])]

    def live(self, key: str) -> Live | None:
        return self._live.get(key)

    def plan(self, key: str, reply: Reply, *, picture: str | None, group: str | None = None,
             quiet: Collection[str] = ()) -> Plan:
        """``group``: the adapter's name for a run of decisions that stays on one message even as
        the player to act changes (``message_group(game)``: a Brian Boru trick, edited as cards are
        played and ending with its resolution); None: the usual rule. ``quiet``: people whose ping
        setting (issue 25) says they are not pinged when their turn begins: the plan names them in
        ``plan.quiet`` instead of ``plan.ping``/``plan.notify``."""
        live = self._live.get(key)
        if live is not None and live.match_id != reply.match_id:
            live = None  # a message of an earlier game at this table: not ours to edit
        prompts = _prompts(reply)
        attach = picture is not None and picture != self._picture.get(key)
        every_ping = self.pings(key)
        if reply.status != "active":
            return Plan(None, live, [], list(reply.public), attach, final=True, unping=every_ping)
        if live is not None and prompts and (self._continues(live, prompts)
                                             or group is not None and live.group == group):
            before = self.acting(key, reply.match_id)
            notify = [u for u in prompts if u.isdigit() and u not in before]
            unping = [m for m, users in self._pings.get(key, []) if not users & set(prompts)]
            return Plan(live, None, [], [*live.lines, *reply.public], attach, final=False,
                        notify=[u for u in notify if u not in quiet], unping=unping,
                        quiet=[u for u in notify if u in quiet])
        sole = live.actors[0] if live is not None and len(live.actors) == 1 else None
        ping = [u for u in prompts if u != sole]
        return Plan(None, live, [u for u in ping if u not in quiet], list(reply.public), attach, final=False,
                    unping=every_ping, quiet=[u for u in ping if u in quiet])

    @staticmethod
    def _continues(live: Live, prompts: dict[str, str]) -> bool:
        """The same decision goes on: the one player to act still acts, or players deciding at
        once are still deciding the same thing (fewer of them, or all again: the draft's next pass)."""
        if len(live.prompts) == 1:
            return tuple(prompts) == live.actors
        return set(prompts) <= set(live.prompts) and all(live.prompts[u] == t for u, t in prompts.items())

    def done(self, key: str, plan: Plan, reply: Reply, message_id: int | None, channel_id: int, *,
             controls: bool, picture: str | None, group: str | None = None, ping: int | None = None) -> None:
        """What the transport did with ``plan``: ``message_id`` is the message edited or posted;
        ``ping`` the message that pinged ``plan.notify`` (the ``plan.unping`` ones are gone)."""
        if plan.attach and picture is not None:
            self._picture[key] = picture
        gone = set(plan.unping)
        pings = [(m, users) for m, users in self._pings.get(key, []) if m not in gone]
        if ping is not None:
            pings.append((ping, frozenset(plan.notify)))
        if pings:
            self._pings[key] = pings
        else:
            self._pings.pop(key, None)
        if plan.final:
            self._acting.pop(key, None)
        else:
            self._acting[key] = (reply.match_id, frozenset(_prompts(reply)))
        if plan.final or message_id is None:
            self._live.pop(key, None)
            return
        if plan.edit is not None:
            live = plan.edit
            live.lines, live.controls = list(plan.lines), controls
            if len(live.prompts) == 1 or live.group is not None and live.group == group:
                live.prompts = _prompts(reply)
            # players deciding at once keep the status message for the whole decision (every pass
            # of a draft): its prompts stay those it was posted with
            return
        if reply.match_id is None:
            return
        self._live[key] = Live(message_id, channel_id, reply.match_id, _prompts(reply), list(plan.lines), controls,
                               group)

    def state(self, key: str) -> dict[str, Any] | None:
        """What the policy knows of table ``key``, as JSON-able data; None when nothing is live
        there (no game going on: a last picture's hash alone is not worth keeping)."""
        live, picture = self._live.get(key), self._picture.get(key)
        acting, pings = self._acting.get(key), self._pings.get(key, [])
        if live is None and acting is None and not pings:
            return None
        return {
            "live": None if live is None else {
                "message": live.message_id, "channel": live.channel_id, "match": live.match_id,
                "prompts": dict(live.prompts), "lines": list(live.lines), "controls": live.controls,
                "group": live.group},
            "picture": picture,
            "acting": None if acting is None else [acting[0], sorted(acting[1])],
            "pings": [[message, sorted(users)] for message, users in pings],
        }

    def restore(self, key: str, state: dict[str, Any] | None) -> None:
        """Take back what :meth:`state` gave for ``key`` (e.g. read from the database after a restart)."""
        self.forget(key)
        if not state:
            return
        if (live := state.get("live")) is not None:
            self._live[key] = Live(int(live["message"]), int(live["channel"]), int(live["match"]),
                                   {str(u): str(t) for u, t in live["prompts"].items()}, list(live["lines"]),
                                   bool(live["controls"]), live.get("group"))
        if state.get("picture") is not None:
            self._picture[key] = str(state["picture"])
        if (acting := state.get("acting")) is not None:
            self._acting[key] = (None if acting[0] is None else int(acting[0]), frozenset(acting[1]))
        if pings := state.get("pings"):
            self._pings[key] = [(int(message), frozenset(users)) for message, users in pings]

    def renotify(self, key: str) -> None:
        """Issue 29: the next reply notifies whoever must act, even those already to act before (a
        table that was paused, e.g. while the bot was removed from its server, goes on)."""
        self._acting.pop(key, None)

    def forget(self, key: str) -> None:
        self._live.pop(key, None)
        self._picture.pop(key, None)
        self._acting.pop(key, None)
        self._pings.pop(key, None)
