"""The director's inbox: what the tables sent, one queue per table, served in turn.

A table that floods the director slows only itself. Each table has a queue of its own,
bounded (:attr:`FairInbox.most` messages; more are dropped and counted), and a token bucket:
``rate`` messages a second on average, ``burst`` at once. :meth:`FairInbox.take` serves the
tables in turn, each one message at a time while it has a token, so a table's message waits
for at most one message of each other table, however many one table sent. An honest table
sends a report when its game ends and again every few seconds until it is acknowledged: far
below the rate.

Pure and thread-safe (network threads put, the director's reader takes); the clock is given,
so tests drive it.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass


def _nothing() -> None:
    return None


@dataclass(frozen=True)
class Delivery:
    """One message a table sent: its broker user, its bytes, when the network brought it
    (``time.monotonic()``) and how to acknowledge it to the broker once it is journaled."""

    user: str
    payload: bytes
    arrived: float
    done: Callable[[], None] = _nothing


class FairInbox:
    """Per-table queues and token buckets, served round robin. ``clock``: the time in
    seconds (``time.monotonic``)."""

    def __init__(self, rate: float, burst: float, most: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0 or burst < 1 or most < 1:
            raise ValueError(f"inbox: rate {rate} and burst {burst} must be positive, burst "
                             f"and most {most} at least 1")
        self.rate, self.burst, self.most = rate, float(burst), most
        self.clock = clock
        #: Messages dropped because a table's queue was full, by table user.
        self.dropped: Counter[str] = Counter()
        self._queues: dict[str, deque[Delivery]] = {}
        self._tokens: dict[str, tuple[float, float]] = {}  # user -> (tokens, when counted)
        self._order: list[str] = []
        self._next = 0
        self._closed = False
        self._cv = threading.Condition()

    def put(self, delivery: Delivery) -> bool:
        """Queue a message; False (and counted in :attr:`dropped`) when its table's queue is
        full: it is dropped unread."""
        with self._cv:
            queue = self._queues.get(delivery.user)
            if queue is None:
                queue = self._queues[delivery.user] = deque()
                self._tokens[delivery.user] = (self.burst, self.clock())
                self._order.append(delivery.user)
            if len(queue) >= self.most:
                self.dropped[delivery.user] += 1
                return False
            queue.append(delivery)
            self._cv.notify()
            return True

    def _tokens_now(self, user: str, now: float) -> float:
        tokens, when = self._tokens[user]
        return min(self.burst, tokens + max(0.0, now - when) * self.rate)

    def _ready(self) -> tuple[Delivery | None, float | None]:
        """The next table's message in turn that has a token (taken), else how long until a
        token comes for a table that waits (None: no table waits)."""
        now = self.clock()
        soonest: float | None = None
        count = len(self._order)
        for step in range(count):
            at = (self._next + step) % count
            user = self._order[at]
            queue = self._queues[user]
            if not queue:
                continue
            tokens = self._tokens_now(user, now)
            if tokens >= 1.0:
                self._tokens[user] = (tokens - 1.0, now)
                self._next = (at + 1) % count
                return queue.popleft(), None
            wait = (1.0 - tokens) / self.rate
            soonest = wait if soonest is None else min(soonest, wait)
        return None, soonest

    def take(self, timeout: float) -> Delivery | None:
        """The next message to read, waiting up to ``timeout`` seconds for one (None then, or
        once closed)."""
        deadline = self.clock() + timeout
        with self._cv:
            while not self._closed:
                found, soonest = self._ready()
                if found is not None:
                    return found
                left = deadline - self.clock()
                if left <= 0:
                    return None
                self._cv.wait(left if soonest is None else min(left, soonest))
            return None

    def forget(self, user: str, keep: Callable[[Delivery], bool]) -> list[Delivery]:
        """Take out ``user``'s queued messages that ``keep`` refuses (a session that dropped:
        the broker delivers them again); returns them."""
        with self._cv:
            queue = self._queues.get(user)
            if not queue:
                return []
            gone = [d for d in queue if not keep(d)]
            self._queues[user] = deque(d for d in queue if keep(d))
            return gone

    def waiting(self) -> dict[str, int]:
        """Messages queued, by table user (only those with any)."""
        with self._cv:
            return {u: len(q) for u, q in self._queues.items() if q}

    def close(self) -> None:
        """Wake every reader; :meth:`take` returns None from now on."""
        with self._cv:
            self._closed = True
            self._cv.notify_all()


__all__ = ["Delivery", "FairInbox"]
