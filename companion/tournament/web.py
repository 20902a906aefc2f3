"""The standings page: read-only, served by the director on the local network.

One page for a projector and for players' phones: the current round's tables, the standings
with their tie-breaks, the elimination groups and the final, and the final ranking. It needs
nothing from the internet (its style sheet and its few lines of script are served from here).
The page is rendered on the server (Jinja2, escaped); a server-sent event stream (``/events``)
pushes the new page body the moment anything changes, and the page swaps it in without a
reload. Only GET routes exist: nothing on this server can change the tournament.

Built on Starlette (routes, the event stream, static files) run by uvicorn in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import jinja2
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

HERE = Path(__file__).parent / "web"
KEEPALIVE_SECONDS = 15.0
STAGE_NAMES = {"qualifying": "qualifying round", "group": "group round",
               "elimination-1": "elimination round 1", "elimination-2": "elimination round 2",
               "final": "the final", "tie-break": "tie-break round", "waiting": "waiting"}


#: Pages are sent a new body at most this often, however often the tournament changes
#: (tables flipping on and off line thousands of times a second cost a page 4 bodies a second).
PAGE_GAP_SECONDS = 0.25


class StandingsFeed:
    """What the page shows and when it changed. :meth:`bump` may be called from any thread;
    changes are coalesced: :attr:`version` (what pages are sent) goes up at most every
    ``min_gap`` seconds, and always once after the last change."""

    def __init__(self, snapshot: Callable[[], dict[str, Any]],
                 min_gap: float = PAGE_GAP_SECONDS) -> None:
        self.snapshot = snapshot
        self.min_gap = min_gap
        self.version = 1
        self.closing = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None
        self._cache: tuple[int, dict[str, Any], str] | None = None
        self._lock = threading.Lock()
        self._dirty = False  # changed since the version last sent
        self._scheduled = False  # a new version is due on the loop
        self._last = -math.inf  # the loop's time when the version last went up

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._event = asyncio.Event()

    def bump(self) -> None:
        """Something changed: every open page is sent the new body (soon: once for all the
        changes of the next ``min_gap`` seconds)."""
        with self._lock:
            self._dirty = True
            if self._scheduled:
                return
            self._scheduled = True
        loop = self._loop
        if loop is None or loop.is_closed():  # no page served: nobody to spare
            self._publish()
            return
        loop.call_soon_threadsafe(self._schedule)

    def _schedule(self) -> None:
        """The loop's thread: the new version now, or ``min_gap`` after the last one."""
        assert self._loop is not None
        wait = self._last + self.min_gap - self._loop.time()
        if wait <= 0:
            self._publish()
        else:
            self._loop.call_later(wait, self._publish)

    def _publish(self) -> None:
        with self._lock:
            self._scheduled = False
            dirty, self._dirty = self._dirty, False
            if dirty:
                self.version += 1
        if dirty:
            if self._loop is not None and not self._loop.is_closed():
                self._last = self._loop.time()
            self._wake()

    def close(self) -> None:
        self.closing = True
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        if self._event is not None:
            self._event.set()
            self._event = asyncio.Event()

    async def changed(self, after: int, timeout: float) -> int:
        """Wait until the version is past ``after`` (or ``timeout``); returns the version."""
        deadline = time.monotonic() + timeout
        while self.version <= after and not self.closing:
            event = self._event
            left = deadline - time.monotonic()
            if event is None or left <= 0:
                break
            try:
                await asyncio.wait_for(event.wait(), left)
            except TimeoutError:
                break
        return self.version

    def render(self, env: jinja2.Environment) -> tuple[int, dict[str, Any], str]:
        """(version, snapshot, page body), rendered once per version for every client."""
        version = self.version
        cached = self._cache
        if cached is not None and cached[0] == version:
            return cached
        snap = self.snapshot()
        html = env.get_template("board.html").render(s=snap, stage_name=_stage_name)
        self._cache = (version, snap, html)
        return self._cache


def _stage_name(stage: str | None) -> str:
    return STAGE_NAMES.get(stage or "", stage or "")


def standings_app(feed: StandingsFeed) -> Starlette:
    """The page's ASGI app: ``/`` the page, ``/events`` its updates, ``/api/standings`` the
    same data as JSON, ``/static/`` its style sheet and script."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE)),
                             autoescape=jinja2.select_autoescape(["html"]),
                             undefined=jinja2.StrictUndefined)

    async def page(request: Request) -> Response:
        version, snap, body = feed.render(env)
        html = env.get_template("page.html").render(s=snap, board=body, version=version)
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    async def api(request: Request) -> Response:
        version, snap, _ = feed.render(env)
        return JSONResponse({"version": version, "standings": snap},
                            headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        try:
            seen = int(request.headers.get("last-event-id")
                       or request.query_params.get("after", "0"))
        except ValueError:
            seen = 0

        async def stream() -> AsyncIterator[str]:
            nonlocal seen
            yield "retry: 1000\n\n"
            while not feed.closing:
                if feed.version > seen:
                    version, snap, body = feed.render(env)
                    data = json.dumps({"version": version, "html": body, "standings": snap})
                    seen = version
                    yield f"id: {version}\nevent: standings\ndata: {data}\n\n"
                    continue
                before = feed.version
                await feed.changed(seen, KEEPALIVE_SECONDS)
                if feed.version == before:
                    yield ": still here\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store",
                                          "X-Accel-Buffering": "no"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        feed.attach(asyncio.get_running_loop())
        yield

    return Starlette(routes=[
        Route("/", page, methods=["GET"]),
        Route("/api/standings", api, methods=["GET"]),
        Route("/events", events, methods=["GET"]),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ], lifespan=lifespan)


class StandingsServer:
    """The page served by uvicorn in a thread. A context manager; :meth:`stop` is idempotent."""

    def __init__(self, feed: StandingsFeed, host: str = "0.0.0.0", port: int = 8080) -> None:
        self.feed = feed
        self.host = host
        config = uvicorn.Config(standings_app(feed), host=host, port=port, log_level="warning",
                                access_log=False, lifespan="on", timeout_graceful_shutdown=2)
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    def start(self, timeout: float = 10.0) -> None:
        """Start serving; returns once the port is open. Raised when it does not open in
        ``timeout`` seconds (the port is taken?): :class:`OSError`."""
        self._thread = threading.Thread(target=self._server.run, name="standings-page",
                                        daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise OSError(f"the standings page could not listen on {self.host}:"
                              f"{self._server.config.port} (is the port taken?)")
            time.sleep(0.02)

    @property
    def port(self) -> int:
        for server in self._server.servers:
            for sock in server.sockets:
                port: int = sock.getsockname()[1]
                return port
        return int(self._server.config.port)

    def url(self, host: str | None = None) -> str:
        shown = host or ("127.0.0.1" if self.host in ("0.0.0.0", "") else self.host)
        return f"http://{shown}:{self.port}/"

    def stop(self) -> None:
        if self._thread is None:
            return
        self.feed.close()
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._thread = None

    def __enter__(self) -> StandingsServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
