"""Sound through the desktop's sound server where one runs, ALSA only without one
(hardware.audio.route), against stand-ins: a runtime folder with or without PipeWire's socket,
/proc/asound/cards of a Pi 4 with a USB speaker, and what PipeWire's `pw-dump` says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hardware.audio.route import OUTPUT_VAR, card_for, route_audio, sink_for
from hardware.diagnose import check_audio

CARDS = """\
 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
 1 [Headphones     ]: bcm2835_headphonbcm2835 Headphones - bcm2835 Headphones
                      bcm2835 Headphones
 2 [Device         ]: USB-Audio - USB Audio Device
                      C-Media USB Audio Device at usb-xhci-hcd.0-1, full speed
"""


def node(name: str, card: int | None, media_class: str = "Audio/Sink") -> dict[str, object]:
    props: dict[str, object] = {"media.class": media_class, "node.name": name}
    if card is not None:
        props["api.alsa.pcm.card"] = str(card)
    return {"id": 40 + (card or 0), "type": "PipeWire:Interface:Node", "info": {"props": props}}


PW_DUMP = json.dumps([
    {"id": 0, "type": "PipeWire:Interface:Core", "info": {"props": {}}},
    node("alsa_output.platform-fef00700.hdmi.hdmi-stereo", 0),
    node("alsa_output.platform-bcm2835_audio.stereo-fallback", 1),
    node("alsa_input.usb-C-Media_USB_Audio_Device-00.mono-fallback", 2, "Audio/Source"),
    node("alsa_output.usb-C-Media_USB_Audio_Device-00.analog-stereo", 2),
])


@pytest.fixture
def desktop(tmp_path: Path) -> Path:
    """$XDG_RUNTIME_DIR of a desktop session with PipeWire running."""
    (tmp_path / "pipewire-0").touch()
    return tmp_path


def test_on_the_desktop_the_chosen_output_is_pipewires_sink(desktop: Path) -> None:
    env = {"XDG_RUNTIME_DIR": str(desktop), OUTPUT_VAR: "usb"}
    way = route_audio(env, cards_text=CARDS, pw_dump=lambda: PW_DUMP, has_libpulse=True)
    assert env["SDL_AUDIODRIVER"] == "pulseaudio" and "AUDIODEV" not in env
    assert env["PULSE_SINK"] == "alsa_output.usb-C-Media_USB_Audio_Device-00.analog-stereo"
    assert way.startswith("through PipeWire, to its sink alsa_output.usb-C-Media")


def test_on_the_desktop_default_follows_the_volume_menu(desktop: Path) -> None:
    env = {"XDG_RUNTIME_DIR": str(desktop)}
    way = route_audio(env, cards_text=CARDS, pw_dump=lambda: PW_DUMP, has_libpulse=True)
    assert env["SDL_AUDIODRIVER"] == "pulseaudio" and "PULSE_SINK" not in env
    assert "desktop's default output" in way


def test_an_output_pipewire_does_not_have_falls_back_to_its_default(desktop: Path) -> None:
    env = {"XDG_RUNTIME_DIR": str(desktop), OUTPUT_VAR: "hdmi2"}
    way = route_audio(env, cards_text=CARDS, pw_dump=lambda: PW_DUMP, has_libpulse=True)
    assert "PULSE_SINK" not in env and env["SDL_AUDIODRIVER"] == "pulseaudio"
    assert "the hdmi2 output was not found among its sinks" in way


def test_without_libpulse_the_desktop_is_still_not_bypassed(desktop: Path) -> None:
    env = {"XDG_RUNTIME_DIR": str(desktop), OUTPUT_VAR: "hdmi"}
    way = route_audio(env, cards_text=CARDS, pw_dump=lambda: PW_DUMP, has_libpulse=False)
    assert "SDL_AUDIODRIVER" not in env and "AUDIODEV" not in env  # ALSA's default: PipeWire
    assert "sudo apt install libpulse0" in way


def test_without_a_sound_server_alsa_goes_to_the_card(tmp_path: Path) -> None:
    env = {"XDG_RUNTIME_DIR": str(tmp_path), OUTPUT_VAR: "headphones"}
    way = route_audio(env, cards_text=CARDS, pw_dump=lambda: "not called", has_libpulse=True)
    assert env["SDL_AUDIODRIVER"] == "alsa" and env["AUDIODEV"] == "sysdefault:CARD=Headphones"
    assert way.startswith("straight to ALSA (no sound server running)")


def test_a_driver_set_in_the_environment_is_kept(desktop: Path) -> None:
    env = {"XDG_RUNTIME_DIR": str(desktop), "SDL_AUDIODRIVER": "dummy"}
    assert route_audio(env, cards_text=CARDS) == "SDL_AUDIODRIVER=dummy as set in the environment"
    assert env == {"XDG_RUNTIME_DIR": str(desktop), "SDL_AUDIODRIVER": "dummy"}


def test_cards_and_sinks_are_matched_by_card_number() -> None:
    assert card_for("hdmi", CARDS) == (0, "vc4hdmi0")
    assert card_for("usb", CARDS) == (2, "Device")
    assert card_for("hdmi2", CARDS) is None
    assert sink_for(1, PW_DUMP) == "alsa_output.platform-bcm2835_audio.stereo-fallback"
    assert sink_for(2, "not json") is None


def test_doctor_names_the_way_sound_goes(desktop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SDL_AUDIODRIVER", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(desktop))
    monkeypatch.setenv("COMPANION_AUDIO", "silent")
    findings = [c.finding for c in check_audio({})]
    [way] = [f for f in findings if f.startswith("sound goes ")]
    assert "through PipeWire" in way
