"""Player colours and sizes the screens share.

Okabe-Ito is the palette of Okabe and Ito (2008), chosen so its colours stay distinguishable
for the common colour-vision deficiencies; each panel also carries its seat number and name,
so colour is never the only cue.
"""

from __future__ import annotations

RGBA = tuple[float, float, float, float]


def _hex(code: str) -> RGBA:
    code = code.lstrip("#")
    r, g, b = (int(code[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b, 1.0)


PALETTES: dict[str, tuple[RGBA, ...]] = {
    # orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple
    "okabe-ito": tuple(_hex(c) for c in ("#E69F00", "#56B4E9", "#009E73", "#F0E442",
                                         "#0072B2", "#D55E00", "#CC79A7")),
    "classic": tuple(_hex(c) for c in ("#E53935", "#1E88E5", "#43A047", "#FDD835",
                                       "#8E24AA", "#FB8C00", "#00ACC1")),
}

BACKGROUND: RGBA = (0.08, 0.09, 0.11, 1)
PANEL: RGBA = (0.16, 0.17, 0.20, 1)
BUTTON: RGBA = (0.25, 0.27, 0.32, 1)
ACCENT: RGBA = (0.94, 0.89, 0.26, 1)
DANGER: RGBA = (0.84, 0.37, 0.0, 1)
TEXT: RGBA = (0.96, 0.96, 0.96, 1)
#: Background of a chosen action: white text stays readable on it, so choosing an action
#: changes no text colour (a text colour change costs a texture render in Kivy).
SELECT: RGBA = (0.0, 0.45, 0.70, 1)
#: Count buttons: dark text on light grey, or on the accent when a count is wanted.
COUNT: RGBA = (0.72, 0.73, 0.76, 1)
MUTED: RGBA = (0.65, 0.67, 0.72, 1)

#: Smallest touch target, in pixels at density 1 (the 7" display).
TOUCH = 48


def player_colour(palette: str, seat: int) -> RGBA:
    colours = PALETTES.get(palette, PALETTES["okabe-ito"])
    return colours[seat % len(colours)]


def text_on(colour: RGBA) -> RGBA:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b, _ = colour
    return (0, 0, 0, 1) if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else (1, 1, 1, 1)
