"""The History screen's own threads: :class:`Worker`."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from kivy.clock import Clock

from companion.history.index import History

T = TypeVar("T")


class Worker:
    """The history's own threads. Jobs on the first get the screen's :class:`History` (its own
    connection to the journal) one at a time, in order; jobs on the second (exports, the dice
    verdicts: seconds, not milliseconds) get the journal's path. Results and failures come back
    to the main thread through ``Clock.schedule_once``. ``busy`` counts jobs not yet back."""

    def __init__(self, path: Path, readonly: str = "") -> None:
        self.path = path
        self.readonly = readonly  # the app's journal takes no writes: nor does the index
        self._reads = ThreadPoolExecutor(1, thread_name_prefix="history")
        self._slow = ThreadPoolExecutor(1, thread_name_prefix="history-slow")
        self._history: History | None = None  # made and used on the first thread only
        self.busy = 0
        self.closed = False

    def read(self, job: Callable[[History], T], done: Callable[[T], None],
             failed: Callable[[str], None]) -> None:
        def task() -> T:
            if self._history is None:
                self._history = History(self.path, readonly=self.readonly)
            return job(self._history)

        self._submit(self._reads, task, done, failed)

    def apart(self, job: Callable[[Path], T], done: Callable[[T], None],
              failed: Callable[[str], None]) -> None:
        self._submit(self._slow, lambda: job(self.path), done, failed)

    def _submit(self, pool: ThreadPoolExecutor, task: Callable[[], T],
                done: Callable[[T], None], failed: Callable[[str], None]) -> None:
        self.busy += 1

        def back(ok: bool, result: Any) -> None:
            self.busy -= 1
            if ok:
                done(result)
            else:
                failed(result)

        def run() -> None:
            try:
                result: Any = task()
                ok = True
            except Exception as e:  # shown on the screen, never lost in a thread
                result, ok = f"{e}" or type(e).__name__, False
            Clock.schedule_once(lambda dt: back(ok, result))

        pool.submit(run)

    def close(self) -> None:
        """Let the threads finish what they have (idempotent); the history's connection is
        closed on its own thread."""
        if self.closed:
            return
        self.closed = True

        def shut() -> None:
            if self._history is not None:
                self._history.close()

        self._reads.submit(shut)
        self._reads.shutdown(wait=False)
        self._slow.shutdown(wait=False)
