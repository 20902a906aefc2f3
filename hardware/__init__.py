"""The physical world behind interfaces, each with a faithful stand-in.

- :mod:`hardware.camera`: frame sources (picamera2, opencv, replay, synthetic) and ``open_source``;
- :mod:`hardware.buttons`: GPIO call buttons (counts, holds, debounce) and seat LEDs;
- :mod:`hardware.audio`: round clock, soundtrack, announcer cues and effects;
- :mod:`hardware.config`: where the config file lives and reading it.

Devices, not games: this package reports seats, buttons, frames and cues; the app gives them
meaning. Submodules are imported on demand so ``import hardware`` stays light.
"""
