"""The Tournament screen's network pages (Kivy): the director's Network page (serving,
each table's join code) and a table's Join and This table pages.
"""

from __future__ import annotations

import time
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

import rules
from companion import theme
from companion.tournament.page import (
    KEYS,
    ROW,
    Page,
    PageHost,
    column,
    para,
    scroller,
)
from companion.tournament.protocol import JoinCode, ProtocolError
from companion.tournament.wording import (
    stage_words,
)
from companion.widgets import show_picture, w
from rules.tournament import TournamentError


class NetworkPage(Page):
    title = "Network"

    def __init__(self, screen: PageHost) -> None:
        super().__init__(screen)
        top = BoxLayout(size_hint_y=None, height=ROW, spacing=6)
        self.state = w("TLabel", text="", halign="left")
        top.add_widget(self.state)
        self.serve = w("TBigButton", text="Serve", size_hint_x=None, width=170,
                       on_release=lambda *_: self.toggle())
        top.add_widget(self.serve)
        self.root.add_widget(top)
        self.area = BoxLayout()
        self.root.add_widget(self.area)
        # not serving: what serving does
        self.off = column(6)
        self.explain = para(self.app, "", size=17, color=theme.MUTED)
        self.off.add_widget(self.explain)
        self.off_view = scroller(self.off)
        # serving: each table's code, as a QR code and as text; the page's address
        self.on = BoxLayout(spacing=10)
        self.qr = Image(fit_mode="contain", size_hint_x=None, width=300)
        self.qr_text = ""
        self.on.add_widget(self.qr)
        right = BoxLayout(orientation="vertical", spacing=6)
        pick = BoxLayout(size_hint_y=None, height=ROW, spacing=4)
        self.table_spin = w("TSpinner", text="", values=[])
        self.table_spin.bind(text=lambda *_: self.show_code())
        pick.add_widget(self.table_spin)
        self.more = w("TButton", text="+ table", size_hint_x=None, width=120,
                      on_release=lambda *_: self.hub.add_table())
        pick.add_widget(self.more)
        right.add_widget(pick)
        info = column(6)
        self.code = para(self.app, "", size=18)
        self.info = para(self.app, "", size=15, color=theme.MUTED)
        info.add_widget(self.code)
        info.add_widget(self.info)
        right.add_widget(scroller(info))
        self.on.add_widget(right)
        self.codes: dict[str, JoinCode] = {}
        self.serving: bool | None = None

    def toggle(self) -> None:
        hub = self.hub
        if hub.service is not None:
            hub.stop_serving()
        else:
            try:
                hub.serve()
            except TournamentError as e:
                hub.serve_error = str(e)
        self.refresh()

    def refresh(self) -> None:
        hub = self.hub
        state = hub.serve_state
        self.serve.text = {"serving": "Stop", "starting": "Starting",
                           "stopping": "Stopping"}.get(state, "Serve")
        self.serve.disabled = state in ("starting", "stopping") or hub.desk is None
        codes = hub.join_codes()
        online = hub.online()
        if state == "serving":
            up = sum(1 for c in codes if online.get(c.user))
            self.state.text = f"Serving: {up} of {len(codes)} tables online" + (
                "" if hub.receiving else ": director not receiving")
        else:
            self.state.text = {"starting": "Starting the broker...",
                               "stopping": "Stopping..."}.get(state, "Not serving")
        serving = bool(codes)
        if serving != self.serving:
            self.serving = serving
            self.area.clear_widgets()
            self.area.add_widget(self.on if serving else self.off_view)
        if not serving:
            why = f"\n\n[color=#d65f00]{hub.serve_error}[/color]" if hub.serve_error else ""
            self.explain.text = (
                "Serving opens the tournament to the table companions: its own broker "
                "(MQTT) for their seatings and reports, and the standings page for a "
                "projector and players' phones. No port is open until then, and none after "
                "Stop.\n\nOne box with no network needs none of it: type the results in, or "
                "play the games here (Round)." + why)
            self.codes = {}
            return
        self.codes = {f"Table {c.table}" + (" (online)" if online.get(c.user) else ""): c
                      for c in codes}
        self.table_spin.values = list(self.codes)
        by_table = {c.table: k for k, c in self.codes.items()}
        now = next((c for k, c in self.codes.items() if k.split(" (")[0] ==
                    self.table_spin.text.split(" (")[0]), None)
        self.table_spin.text = by_table[now.table if now else codes[0].table]
        self.show_code()

    def show_code(self) -> None:
        hub = self.hub
        code = self.codes.get(self.table_spin.text)
        if code is None:
            return
        if code.text() != self.qr_text:
            from companion.tournament.join import qr_rgb

            show_picture(self.qr, qr_rgb(code.text()))
            self.qr.texture.mag_filter = "nearest"  # crisp modules, scaled to fit
            self.qr_text = code.text()
        tid_table, _, where = code.text().partition("@")
        self.code.text = f"Table {code.table}'s join code:\n[b]{tid_table}\n@{where}[/b]"
        url = hub.page_url()
        lines = [f"Standings page: [b][color=#f5f5f5]{url}[/color][/b]" if url else
                 "No standings page."]
        lines.append("At each table: Tournament, Join as a table, then show it this QR "
                     "code or type the code. Keep the codes to yourself: a code lets a table "
                     "report.")
        if hub.serve_error:
            lines.append(f"[color=#d65f00]{hub.serve_error}[/color]")
        refused = hub.refused()
        if refused:
            lines.append(f"[color=#d65f00]{escape_markup(refused)}[/color]")
        lines += [escape_markup(line) for line in hub.log(3)]
        self.info.text = "\n".join(lines)


# -- the table's pages ----------------------------------------------------------------------


class JoinPage(Page):
    title = "Join"

    def __init__(self, screen: PageHost) -> None:
        super().__init__(screen)
        app = self.app
        top = BoxLayout(size_hint_y=None, height=ROW, spacing=6)
        self.code = w("TInput", hint_text="the table's join code",
                      on_text_validate=lambda *_: self.join())
        top.add_widget(self.code)
        self.join_button = w("TBigButton", text="Join", size_hint_x=None, width=120,
                             on_release=lambda *_: self.join())
        top.add_widget(self.join_button)
        self.scan_button = w("TButton", text="Scan", size_hint_x=None, width=120,
                             on_release=lambda *_: self.toggle_scan())
        top.add_widget(self.scan_button)
        self.root.add_widget(top)
        self.message = para(app, "Type the code the director's screen shows for this table "
                            "(letters, digits, '-', '@', '.'), or tap Scan and hold its QR "
                            "code under the camera.", size=16, color=theme.MUTED)
        self.root.add_widget(self.message)
        self.area = BoxLayout()
        self.keypad = GridLayout(cols=10, spacing=4)
        self.keys: dict[str, Any] = {}
        for key in (*KEYS, "Del", "Clear"):
            button = w("TButton", text=key, font_size=app.fs(20),
                       on_release=lambda *_, k=key: self.key(k))
            self.keys[key] = button
            self.keypad.add_widget(button)
        self.area.add_widget(self.keypad)
        self.picture = Image(fit_mode="contain")
        self.root.add_widget(self.area)
        self.scanning = False
        self._poll: Any = None
        self._shown = -1

    def key(self, key: str) -> None:
        if key == "Del":
            self.code.text = self.code.text[:-1]
        elif key == "Clear":
            self.code.text = ""
        else:
            self.code.text += key

    def join(self, text: str = "") -> None:
        try:
            code = self.hub.join(text or self.code.text)
        except (ProtocolError, ValueError) as e:
            self.say(self.message, str(e))
            return
        self.stop_scan()
        self.screen.show_page("seat")
        self.screen.flash(f"Joined tournament {code.tournament} as table {code.table}.")

    def toggle_scan(self) -> None:
        if self.scanning:
            self.stop_scan()
            return
        why = self.hub.scan(lambda code: self.join(code.text()))
        if why:
            self.say(self.message, why)
            return
        self.scanning = True
        self.scan_button.text = "Keypad"
        self.area.clear_widgets()
        self.area.add_widget(self.picture)
        self.picture.opacity = 0
        camera = self.app.camera
        label = camera.label if camera is not None else ""
        self.say(self.message, f"Hold the QR code under the camera ({label}).", ok=True)
        self._poll = Clock.schedule_interval(lambda dt: self.show_camera(), 1 / 8)

    def show_camera(self) -> None:
        camera = self.app.camera
        snap = camera.latest() if camera is not None else None
        if camera is not None and camera.error:
            self.say(self.message, f"Camera error: {camera.error}")
        if snap is None or snap.index == self._shown:
            return
        self._shown = snap.index
        show_picture(self.picture, snap.rgb)

    def stop_scan(self) -> None:
        self.hub.stop_scan()
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        if self.scanning:
            self.scanning = False
            self.scan_button.text = "Scan"
            self.area.clear_widgets()
            self.area.add_widget(self.keypad)

    def refresh(self) -> None:
        table = self.hub.table
        self.join_button.disabled = False
        if table is not None:
            self.say(self.message, f"This table is in tournament {table.code.tournament} "
                     f"(table {table.code.table}). Leave it (This table) to join another.")

    def leave(self) -> None:
        self.stop_scan()


class SeatPage(Page):
    title = "This table"

    def __init__(self, screen: PageHost) -> None:
        super().__init__(screen)
        app = self.app
        self.head = para(app, "", size=20)
        self.root.add_widget(self.head)
        self.seats = GridLayout(cols=2, spacing=4, size_hint_y=None, row_default_height=ROW,
                                row_force_default=True)
        self.seats.bind(minimum_height=self.seats.setter("height"))
        self.root.add_widget(self.seats)
        self.start = w("TBigButton", text="Start this game", size_hint_y=None, height=58,
                       on_release=lambda *_: self.play())
        self.root.add_widget(self.start)
        self.report = para(app, "", size=17)
        self.root.add_widget(self.report)
        self.root.add_widget(Widget())
        bottom = BoxLayout(size_hint_y=None, height=ROW, spacing=6)
        self.link = para(app, "", size=15, color=theme.MUTED)
        bottom.add_widget(self.link)
        self.leave_button = w("TButton", text="Leave", size_hint_x=None, width=130,
                              on_release=lambda *_: self.leave_tournament())
        bottom.add_widget(self.leave_button)
        self.link.bind(height=lambda wid, h: setattr(bottom, "height", max(ROW, h)))
        self.root.add_widget(bottom)
        self.sure = 0.0  # when Leave was tapped once with reports still in the outbox
        self.report_word = ""

    def refresh(self) -> None:
        hub = self.hub
        table = hub.table
        self.seats.clear_widgets()
        if table is None:
            self.head.text = "This table is in no tournament."
            self.start.disabled = True
            self.report.text = self.link.text = ""
            return
        seating = hub.seating
        state = table.state
        code = table.code
        self.link.text = (f"Tournament {code.tournament}, table {code.table}: " + (
            f"connected to {code.host}:{code.port}." if hub.connected else
            f"[color=#d65f00]{table.refused}[/color]." if table.refused else
            f"not connected to {code.host}:{code.port}: trying again. Results wait in this "
            "table's outbox, nothing is lost.")) + (
            f" {len(table.pending())} report(s) waiting." if table.pending() else "")
        if state.get("over"):
            self.head.text = f"[b]{state.get('name', '')}[/b] is over. Winner: " \
                             f"{state.get('winner')}."
        if seating is None:
            if not state.get("over"):
                self.head.text = "Waiting for the director: no seating yet."
            self.start.disabled = True
            self.start.text = "Start this game"
            self.report.text = ""
            self.report_word = ""
            return
        if seating.table is None:
            self.head.text = (f"[b]{seating.name}[/b], round {seating.round}: no game at "
                              "this table this round.") if seating.round else \
                f"[b]{seating.name}[/b]: waiting for round 1 to be drawn."
            self.start.disabled = True
            self.report.text = ""
            self.report_word = ""
            return
        group = f", group {seating.group}" if seating.group and seating.group != "final" \
            else ""
        if not state.get("over"):
            self.head.text = (f"[b]{seating.name}[/b], round {seating.round} "
                              f"({stage_words(seating.stage)}{group}): table {seating.table}")
        palette = self.app.settings.palette
        self.seats.cols = 3 if len(seating.seats) > 4 else 2
        for i, name in enumerate(seating.seats):
            colour = theme.player_colour(palette, i)
            cell = w("Panel", bg=colour)
            members = f" ({', '.join(seating.teams[i])})" if i < len(seating.teams) else ""
            cell.add_widget(w("TLabel", text=f"Seat {i + 1}: {name}{members}",
                              color=theme.text_on(colour), shorten=False,
                              font_size=self.app.fs(17 if self.seats.cols == 2 else 15)))
            self.seats.add_widget(cell)
        report = hub.report_state(seating)
        self.report_word = report.word
        hexa = {"acknowledged": "f0e342", "conflict": "d65f00",
                "rejected": "d65f00"}.get(report.word, "f5f5f5")
        self.report.text = f"[b]Report: [color=#{hexa}]{report.word}[/color][/b]. " \
                           f"{report.text}" if report.word != "none" else report.text
        on = hub.game_on(seating.setup)
        done = report.word != "none"
        self.start.disabled = done or seating.setup is None
        self.start.text = "Reported" if done else "Back to the game" if on == "on" else \
            "Resume this game" if on == "unfinished" else "Start this game"

    def play(self) -> None:
        seating = self.hub.seating
        if seating is None or seating.setup is None:
            return
        try:
            self.hub.play(seating.setup)
        except rules.RulesError as e:
            self.screen.flash(str(e))

    def leave_tournament(self) -> None:
        table = self.hub.table
        if table is None:
            return
        waiting = len(table.pending())
        if waiting and time.monotonic() - self.sure > 10:
            self.sure = time.monotonic()
            self.screen.flash(f"{waiting} report(s) not yet acknowledged: tap Leave again to "
                              "leave anyway (they stay in the outbox)")
            return
        self.hub.leave()
        self.screen.show_page("home")
