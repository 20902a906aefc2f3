"""Stand-in for Raspberry Pi OS's picamera2 (../README.md): loads what it loads, finds no camera."""

from __future__ import annotations

from typing import Any

import numpy  # the real package imports numpy at load time
import simplejpeg  # ... and simplejpeg, through picamera2.encoders.jpeg_encoder

__all__ = ["Picamera2"]
_LOADED = (numpy.__name__, simplejpeg.__name__)


class Picamera2:
    """Like picamera2's class on a Pi with no camera attached."""

    @staticmethod
    def global_camera_info() -> list[dict[str, Any]]:
        return []

    def __init__(self, camera_num: int = 0) -> None:
        cameras = self.global_camera_info()
        self.info = cameras[camera_num]  # IndexError, as the real one raises with no camera
