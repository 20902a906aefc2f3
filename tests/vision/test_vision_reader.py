"""The dice reader is an object given its models: which classifier runs is the caller's
choice, made once, not an environment variable or a module global read on every frame."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from vision import DiceReader
from vision.cnn import Nets, load_nets
from vision.colour import load_namer
from vision.read import load_face_model
from vision.synthetic import Scene, SynthDie, render

VISION = Path(__file__).resolve().parents[2] / "vision"


def _three() -> np.ndarray:
    d = SynthDie(center=(100, 100), size=50, angle=10, value=3, colour="red",
                 body_bgr=(40, 35, 200), pip_bgr=(235, 235, 235))
    return render(Scene(220, 200, (d,), background_bgr=(200, 200, 200)))


def test_each_reader_reads_with_the_models_it_was_given(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two readers in one process, one with the CNNs and one without: each frame goes through
    the models of the reader that reads it, whatever the environment says."""
    looks: list[int] = []
    detect = Nets.detect_shrunk

    def counted(self: Nets, *args: Any, **kw: Any) -> Any:
        looks.append(1)
        return detect(self, *args, **kw)

    monkeypatch.setattr(Nets, "detect_shrunk", counted)
    frame = _three()
    learned = DiceReader(nets=load_nets(), faces=load_face_model(), colours=load_namer())
    classical = DiceReader(faces=load_face_model(), colours=load_namer())
    assert learned.read(frame).values() == (3,) and len(looks) == 1
    assert classical.read(frame).values() == (3,) and len(looks) == 1  # no CNN ran
    # the variables that once chose the models are nobody's business inside vision now
    monkeypatch.setenv("VISION_NO_CNN", "1")
    monkeypatch.setenv("VISION_NO_MODEL", "1")
    monkeypatch.setenv("VISION_NO_COLOUR_MODEL", "1")
    assert learned.read(frame).values() == (3,) and len(looks) == 2
    assert DiceReader.shipped().nets is not None
    assert DiceReader.shipped(cnn=False).nets is None
    assert repr(classical) == "DiceReader(faces, colours)"


def test_a_reader_without_a_colour_namer_names_by_the_palette() -> None:
    """No namer given: the default palette names the die (the reader's fallback)."""
    frame = _three()
    assert DiceReader(colours=None).read(frame).dice[0].colour == "red"
    assert DiceReader(colours=load_namer()).read(frame).dice[0].colour == "red"


def test_a_reader_refuses_models_of_the_wrong_kind() -> None:
    with pytest.raises(ValueError, match="DiceReader nets must be a Nets or None, got str"):
        DiceReader(nets="dice_det.onnx")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="DiceReader colours must be a ColourNamer"):
        DiceReader(colours=load_face_model())  # type: ignore[arg-type]


def test_missing_model_files_leave_that_model_out(tmp_path: Path) -> None:
    assert load_nets(tmp_path) is None
    assert load_face_model(tmp_path / "faces.npz") is None
    assert load_namer(tmp_path / "colour.npz") is None


def test_vision_reads_no_environment_variables() -> None:
    """Configuration enters vision as arguments; the edge (a command, the app) may read the
    environment and pass what it found."""
    found = [f"{p.name}:{n}" for p in sorted(VISION.glob("*.py"))
             for n, line in enumerate(p.read_text().splitlines(), 1)
             if re.search(r"\bos\.environ\b|\bgetenv\(", line)]
    assert found == []
