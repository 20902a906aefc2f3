"""The history's charts drawn with Kivy's own graphics, on the table's screen.

A :class:`ChartView` paints a :class:`~companion.history.chartdata.BarChart` or
:class:`~companion.history.chartdata.LineChart` with rectangles, lines and text textures into
whatever room its layout gives it, and redraws when that room changes (a new text size, a
wider pane). matplotlib draws the same data to PNG for the command line; in the app it would
cost ~50 MB of memory (measured: docs/history.md, "Charts on the screen"), these a few
hundred kilobytes of textures.

Everything it draws is inside its own box: each bar and each piece of text is recorded
(``bars``, ``texts``, window coordinates) so a test can check that nothing is cut.

Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.uix.widget import Widget

from companion import theme
from companion.history.chartdata import BarChart, Chart, LineChart, axis

#: Bars and lines on the dark screen: Okabe-Ito's sky blue and orange, vermillion to point at
#: one bar, a grey for the part of a bar that is not the other colour.
BAR = (0.34, 0.71, 0.91, 1.0)
INNER = (0.90, 0.62, 0.0, 1.0)
HIGHLIGHT = (0.84, 0.37, 0.0, 1.0)
PLAYED = (0.42, 0.44, 0.49, 1.0)
AXIS = (0.55, 0.57, 0.62, 1.0)
LINES = ((0.34, 0.71, 0.91, 1.0), (0.90, 0.62, 0.0, 1.0), (0.0, 0.62, 0.45, 1.0),
         (0.80, 0.47, 0.65, 1.0), (0.94, 0.89, 0.26, 1.0), (0.84, 0.37, 0.0, 1.0),
         (0.96, 0.96, 0.96, 1.0), (0.0, 0.45, 0.70, 1.0))

Box = tuple[float, float, float, float]  # x, y, width, height


class ChartView(Widget):
    """A chart of the history, drawn into the widget's box. ``fs`` scales a font size by the
    players' text-size setting."""

    def __init__(self, fs: Callable[[float], float], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fs = fs
        self.chart: Chart | None = None
        self.message = ""
        #: What was drawn last, in window coordinates: (label, box) of each bar and each text.
        self.bars: list[tuple[str, Box]] = []
        self.texts: list[tuple[str, Box]] = []
        # Texts laid out for the last drawing, by text and options: drawn again as they are
        # when the chart is redrawn (a new size, the same chart shown again).
        self._laid: dict[tuple[Any, ...], Any] = {}
        self._laying: dict[tuple[Any, ...], Any] = {}
        # A move and a resize in the same frame are drawn once, before the frame.
        self._redraw_soon = Clock.create_trigger(self._redraw, -1)
        self.bind(pos=self._redraw_soon, size=self._redraw_soon)

    def show(self, chart: Chart | None, message: str = "") -> None:
        """Draw ``chart``; with None, show ``message`` instead ("Working out...")."""
        self.chart = chart
        self.message = message
        self._redraw()

    # -- painting ------------------------------------------------------------------------------

    def _text(self, text: str, x: float, y: float, size: float, *, bold: bool = False,
              colour: tuple[float, ...] = theme.TEXT, width: float | None = None,
              anchor: str = "left-bottom", wrap: bool = False) -> Box:
        """Text with its ``anchor`` point ("left"/"center"/"right" - "bottom"/"middle"/"top")
        at (x, y), cut short with "..." past ``width`` (or, ``wrap``, cut into lines).
        Returns the box drawn."""
        if not text:
            return (x, y, 0.0, 0.0)
        options: dict[str, Any] = {"font_size": size, "bold": bold, "color": colour}
        if width is not None:
            options.update(text_size=(max(1.0, width), None), shorten=not wrap,
                           shorten_from="right", halign=anchor.split("-")[0])
        texture = self._core(text, options).texture
        if texture is None:
            return (x, y, 0.0, 0.0)
        w, h = texture.size
        horizontal, vertical = anchor.split("-")
        left = x - (w if horizontal == "right" else w / 2 if horizontal == "center" else 0)
        bottom = y - (h if vertical == "top" else h / 2 if vertical == "middle" else 0)
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, pos=(left, bottom), size=(w, h))
        box = (left, bottom, float(w), float(h))
        self.texts.append((text, box))
        return box

    def _core(self, text: str, options: dict[str, Any]) -> Any:
        """Kivy's CoreLabel of ``text`` laid out with ``options`` (the one of the last drawing
        when it had the same)."""
        key = (text, *sorted(options.items()))
        label = self._laying.get(key) or self._laid.get(key)
        if label is None:
            label = CoreLabel(text=text, **options)
            label.refresh()
        self._laying[key] = label
        return label

    def _measure(self, text: str, size: float, bold: bool = False) -> tuple[float, float]:
        texture = self._core(text, {"font_size": size, "bold": bold}).texture
        if texture is None:
            return 0.0, 0.0
        w, h = texture.size
        return float(w), float(h)

    def _rect(self, colour: tuple[float, ...], box: Box, name: str = "") -> None:
        Color(*colour)
        Rectangle(pos=(box[0], box[1]), size=(max(0.0, box[2]), max(0.0, box[3])))
        if name:
            self.bars.append((name, box))

    def _redraw(self, *_: Any) -> None:
        self._redraw_soon.cancel()
        self.canvas.clear()
        self.bars, self.texts = [], []
        if self.width < 10 or self.height < 10:
            return
        self._laying = {}
        try:
            with self.canvas:
                self._paint()
        finally:
            self._laid = self._laying

    def _paint(self) -> None:
        """Draw the chart (or the message) into the widget's box."""
        chart = self.chart
        x, y, w, h = float(self.x), float(self.y), float(self.width), float(self.height)
        if chart is None:
            self._text(self.message, x + w / 2, y + h / 2, self.fs(16), colour=theme.MUTED,
                       width=w - 8, anchor="center-middle", wrap=True)  # whole, in lines
            return
        title = self._text(chart.title, x + 4, y + h - 2, self.fs(17), bold=True,
                           width=w - 8, anchor="left-top", wrap=True)
        top = title[1] - 6
        empty = not (chart.bars if isinstance(chart, BarChart) else chart.lines)
        if empty:
            self._text(chart.empty, x + w / 2, y + (top - y) / 2, self.fs(16),
                       colour=theme.MUTED, width=w - 8, anchor="center-middle")
            return
        if isinstance(chart, BarChart):
            self._bars(chart, (x, y, w, top - y))
        else:
            self._lines(chart, (x, y, w, top - y))

    def _legend(self, items: list[tuple[tuple[float, ...], str]], right: float, top: float,
                size: float) -> float:
        """Colour swatches and their names in a row ending at ``right``; returns its height."""
        height = 0.0
        for colour, name in reversed(items):
            _, th = self._measure(name, size)
            box = self._text(name, right, top, size, anchor="right-top")
            swatch = th * 0.6
            self._rect(colour, (box[0] - swatch - 4, top - th / 2 - swatch / 2, swatch, swatch))
            right = box[0] - swatch - 14
            height = max(height, th)
        return height

    def _bars(self, chart: BarChart, box: Box) -> None:
        x, y, w, h = box
        small = self.fs(14)
        _, line = self._measure("0", small)
        if chart.legend:
            colours = [PLAYED, INNER] if any(b.inner is not None for b in chart.bars) else [BAR]
            h -= self._legend(list(zip(colours, chart.legend, strict=False)), x + w - 4, y + h,
                              small) + 4
        if chart.reference is not None and chart.reference_label:
            h -= self._legend([((0.9, 0.9, 0.9, 1.0), chart.reference_label)], x + w - 4,
                              y + h, small) + 4
        if chart.note:
            note = self._core(chart.note, {"font_size": self.fs(14), "color": theme.TEXT,
                                           "text_size": (w - 8, None), "halign": "left"})
            if note.texture is not None:
                nw, nh = note.texture.size
                Color(1, 1, 1, 1)
                Rectangle(texture=note.texture, pos=(x + 4, y), size=(nw, nh))
                self.texts.append((chart.note, (x + 4, y, float(nw), float(nh))))
                y += nh + 6
                h -= nh + 6
        n = len(chart.bars)
        scale_top = chart.top if chart.top > 0 else 1.0
        if chart.horizontal:
            label_w = min(w * 0.38, max(self._measure(b.label, small)[0] for b in chart.bars)
                          + 14)
            text_w = max(self._measure(b.text, small)[0] for b in chart.bars) + 8
            left = x + label_w
            plot_w = max(10.0, w - label_w - text_w - 4)
            axis_h = line + 4
            bottom = y + axis_h
            row = (h - axis_h) / n
            thick = min(row * 0.7, self.fs(34))
            Color(*AXIS)
            Line(points=[left, bottom, left, y + h], width=1)
            for value, text in chart.ticks:
                tx = left + plot_w * value / scale_top
                Line(points=[tx, bottom - 3, tx, bottom], width=1)
                self._text(text, tx, y, small, colour=theme.MUTED, anchor="center-bottom")
                Color(*AXIS)
            for i, bar in enumerate(chart.bars):
                middle = y + h - row * (i + 0.5)
                length = plot_w * min(bar.value, scale_top) / scale_top
                colour = HIGHLIGHT if bar.highlight else (PLAYED if bar.inner is not None
                                                          else BAR)
                self._rect(colour, (left, middle - thick / 2, length, thick), bar.label)
                if bar.inner is not None:
                    inner = plot_w * min(bar.inner, scale_top) / scale_top
                    self._rect(INNER, (left, middle - thick / 2, inner, thick))
                self._text(bar.label, left - 6, middle, small, width=label_w - 6,
                           anchor="right-middle")
                self._text(bar.text, left + length + 6, middle, small, anchor="left-middle")
            return
        axis_w = max(self._measure(t, small)[0] for _, t in chart.ticks) + 8 \
            if chart.ticks else 0.0
        left = x + axis_w
        label_h = line + 4
        bottom = y + label_h
        plot_h = max(10.0, h - label_h - line - 4)
        column = (w - axis_w) / n
        thick = min(column * 0.6, self.fs(60))
        Color(*AXIS)
        Line(points=[left, bottom, x + w, bottom], width=1)
        for value, text in chart.ticks:
            ty = bottom + plot_h * value / scale_top
            Color(*AXIS)
            Line(points=[left - 3, ty, left, ty], width=1)
            self._text(text, left - 5, ty, small, colour=theme.MUTED, anchor="right-middle")
        for i, bar in enumerate(chart.bars):
            centre = left + column * (i + 0.5)
            height = plot_h * min(bar.value, scale_top) / scale_top
            colour = HIGHLIGHT if bar.highlight else BAR
            self._rect(colour, (centre - thick / 2, bottom, thick, height), bar.label)
            self._text(bar.label, centre, y, small, width=column - 4, anchor="center-bottom")
            if bar.low is not None and bar.high is not None:
                low = bottom + plot_h * min(bar.low, scale_top) / scale_top
                high = bottom + plot_h * min(bar.high, scale_top) / scale_top
                cap = thick * 0.25
                Color(*theme.TEXT)
                Line(points=[centre, low, centre, high], width=1.5)
                Line(points=[centre - cap, low, centre + cap, low], width=1.5)
                Line(points=[centre - cap, high, centre + cap, high], width=1.5)
            else:
                self._text(bar.text, centre, bottom + height + 2, small, anchor="center-bottom")
        if chart.reference is not None:
            ry = bottom + plot_h * min(chart.reference, scale_top) / scale_top
            Color(0.9, 0.9, 0.9, 1.0)
            Line(points=[left, ry, x + w, ry], width=1, dash_length=6, dash_offset=4)

    def _lines(self, chart: LineChart, box: Box) -> None:
        x, y, w, h = box
        small = self.fs(14)
        _, line = self._measure("0", small)
        names = [ln.label for ln in chart.lines]
        legend_w = min(w * 0.3, max(self._measure(n, small)[0] for n in names) + line + 12)
        low, top, ticks = _axis_range(chart.low, chart.high)
        axis_w = max(self._measure(t, small)[0] for _, t in ticks) + 8
        left = x + axis_w + 8  # points keep clear of the axis and of the legend
        right = x + w - legend_w - 18
        bottom = y + line + 4
        plot_h = h - line - 8
        span = max(1, chart.count - 1)
        Color(*AXIS)
        Line(points=[left - 8, bottom, right + 8, bottom], width=1)
        for value, text in ticks:
            ty = bottom + plot_h * (value - low) / (top - low)
            Color(*AXIS)
            Line(points=[left - 11, ty, left - 8, ty], width=1)
            self._text(text, left - 13, ty, small, colour=theme.MUTED, anchor="right-middle")
        shown = chart.x_ticks or ((1, "1"), (chart.count, str(chart.count)))
        step = max(1, len(shown) // 6)
        for n, text in shown[::step]:
            tx = left + (right - left) * (n - 1) / span if chart.count > 1 else (left + right) / 2
            self._text(text, tx, y, small, colour=theme.MUTED, anchor="center-bottom")
        for i, series in enumerate(chart.lines):
            colour = LINES[i % len(LINES)]
            points: list[float] = []
            for n, value in series.points:
                px = left + (right - left) * (n - 1) / span if chart.count > 1 \
                    else (left + right) / 2
                py = bottom + plot_h * (value - low) / (top - low)
                points += [px, py]
            Color(*colour)
            if len(points) > 2:
                Line(points=points, width=2)
            dot = 4.0
            for px, py in zip(points[::2], points[1::2], strict=True):
                Rectangle(pos=(px - dot, py - dot), size=(2 * dot, 2 * dot))
            self.bars.append((series.label, (min(points[::2]), min(points[1::2]),
                                             max(points[::2]) - min(points[::2]),
                                             max(points[1::2]) - min(points[1::2]))))
            ly = y + h - i * (line + 6)
            self._rect(colour, (right + 20, ly - line * 0.8, line * 0.6, line * 0.6))
            self._text(series.label, right + 20 + line * 0.6 + 4, ly, small,
                       width=legend_w - line * 0.6 - 8, anchor="left-top")


def _axis_range(low: float, high: float
                ) -> tuple[float, float, tuple[tuple[float, str], ...]]:
    """An axis from 0 (or a round number below a negative ``low``) to a round number past
    ``high``: (start, end, ticks)."""
    top, ticks = axis(max(high, 1.0))
    if low >= 0:
        return 0.0, top, ticks
    step = ticks[1][0] - ticks[0][0]
    start = -step * (int(-low / step) + 1)
    count = round((top - start) / step) + 1
    return start, top, tuple((start + i * step, f"{start + i * step:,.0f}")
                             for i in range(count))


__all__ = ["ChartView"]
