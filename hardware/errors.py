"""Errors raised by the hardware layer, each naming the device or setting at fault."""

from __future__ import annotations


class HardwareError(Exception):
    """Base of every error the hardware layer raises on purpose."""


class ConfigError(HardwareError, ValueError):
    """Raised when a hardware setting in the config file is missing, mistyped or contradictory."""


class UnknownSource(ConfigError):
    """Raised when a camera source name is none of picamera2, opencv:N, replay:PATH, synthetic."""


class SourceClosed(HardwareError):
    """Raised when a frame is asked of a camera source after ``close()``."""


class CameraUnavailable(HardwareError):
    """Raised when the camera is missing or stopped answering; the source retries on later reads."""


class EndOfStream(HardwareError):
    """Raised when a replay or video file has no more frames and looping is off."""


class ButtonConfigError(ConfigError):
    """Raised when the button map uses a pin twice, names an unknown action, or mistypes a value."""


class SoundMissing(HardwareError, FileNotFoundError):
    """Raised when a sound or soundtrack file does not exist or cannot be decoded."""


class UnknownMicrophone(ConfigError):
    """Raised when a microphone name is none of auto, alsa[:DEVICE], pipewire, replay:PATH,
    stand-in or none."""


class MicrophoneUnavailable(HardwareError):
    """Raised when the chosen microphone cannot be opened (unplugged, busy, no sound library)."""


class MicrophoneClosed(HardwareError):
    """Raised when sound is asked of a microphone after ``close()``."""
