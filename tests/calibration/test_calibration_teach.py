"""Teaching a table its own dice (calibration.teach): examples from labelled photos and from
taps, the head fitted and chosen by leaving views out, the examples bounded, forgetting,
fitting again for other models, strict profiles, and a taught table reading its own dice
better than untaught (real photos of a source the models never saw)."""

from __future__ import annotations

import base64
import json
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from calibration import profiles, teach
from calibration.images import CalibrationError
from companion import paths, startfiles
from companion.cli import main
from vision import DiceReader, Profile
from vision.profile import TableHead
from vision.synthetic import Scene, SynthDie, render

PHOTOS = Path(__file__).parents[2].parent / "shared" / "data" / "dice-photos"
if not PHOTOS.exists():  # a worktree one level deeper than the main checkout
    PHOTOS = Path(__file__).parents[2].parent.parent / "shared" / "data" / "dice-photos"
LOSO = Path(__file__).parents[2] / "benchmarks" / "models" / "loso"


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader.shipped()


def _scene(values: list[int], unseen: int | None = None, seed: int = 0) -> tuple[
        np.ndarray, list[teach.LabelledDie]]:
    """White dice of ``values`` in a row on a grey table, with their labels; and, with
    ``unseen``, a label for a die the picture does not show at all (on the bare table)."""
    dice = [SynthDie(center=(80.0 + 95.0 * k, 200.0 + 30.0 * (k % 2)), size=56.0,
                     angle=7.0 * k + seed, value=v, colour="white") for k, v in enumerate(values)]
    scene = Scene(width=640, height=480, dice=tuple(dice))
    labels = [teach.LabelledDie(int(t.value or 0), t.center, t.size) for t in scene.truth()]
    if unseen is not None:
        labels.append(teach.LabelledDie(unseen, (320.0, 400.0), 56.0))
    return render(scene), labels


def test_a_labelled_view_gives_an_example_of_each_die_and_of_what_is_no_die(
        reader: DiceReader) -> None:
    image, labels = _scene([2, 5, 6, 1], unseen=4)
    # the players leave the last die out: it is no die, as far as they say (a "complete" view)
    said, unsaid = labels[:3] + labels[4:], labels[3]
    examples = teach.examples_from_view(reader, image, said, 7, "tap")
    dice = [e for e in examples if e.label > 0]
    assert sorted(e.label for e in dice) == [2, 4, 5, 6]
    assert all(e.group == 7 and e.origin == "tap" for e in examples)
    seen = [e for e in dice if e.heat > 0]
    assert sorted(e.label for e in seen) == [2, 5, 6]  # the unseen die: cut at its label
    assert [e.heat for e in dice if e.label == 4] == [0.0]
    not_dice = [e for e in examples if e.label == 0]
    assert len(not_dice) == 1 and not_dice[0].heat >= 0.45
    assert all(e.crop.shape == (teach.EXAMPLE_SIDE, teach.EXAMPLE_SIDE, 3) for e in examples)
    # the crop holds the die in its middle: the middle is the die's white, the corner table
    assert dice[0].crop[32, 32].mean() > dice[0].crop[2, 2].mean() + 20
    # a view not said to be complete keeps no "no die" example
    partial = teach.examples_from_view(reader, image, said, 8, "play", complete=False)
    assert [e.label for e in partial if e.label == 0] == []
    assert unsaid.value == 1


def test_the_examples_keep_the_newest_of_each_face_and_no_more(reader: DiceReader) -> None:
    image, labels = _scene([3, 3, 3, 5])
    many = teach.TaughtDice()
    for view in range(25):
        many = many.add(teach.examples_from_view(reader, image, labels, view, "tap"))
    counts = np.bincount([e.label for e in many.examples], minlength=7)
    assert counts[3] == teach.MAX_PER_LABEL and counts[5] == 25
    assert len(many.examples) <= teach.MAX_EXAMPLES
    assert min(e.group for e in many.examples if e.label == 3) == 25 - teach.MAX_PER_LABEL // 3
    assert many.views == 25 and many.dice == teach.MAX_PER_LABEL + 25


def test_a_table_read_right_already_keeps_the_untaught_reader(reader: DiceReader) -> None:
    examples: list[teach.Example] = []
    for view, values in enumerate(([1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1], [2, 4, 6, 1, 3, 5],
                                   [5, 3, 1, 6, 4, 2])):
        image, labels = _scene(values, seed=view)
        examples += teach.examples_from_view(reader, image, labels, view, "tap")
    assert reader.nets is not None
    lesson = teach.fit(reader.nets, examples)
    assert lesson.taught.share_right == lesson.untaught.share_right == 1.0
    assert lesson.setting == teach.Setting(None, teach.HEAT_MIN, teach.VALUE_MIN)
    assert lesson.head.weights is None and lesson.head.model == reader.nets.identity
    assert lesson.dice >= teach.MIN_DICE  # enough dice that any setting could have won
    assert "cross-validated accuracy 100.0% of 24 dice" in "\n".join(lesson.lines())


def test_a_table_that_showed_one_face_gets_no_head(reader: DiceReader) -> None:
    examples: list[teach.Example] = []
    for view in range(3):
        image, labels = _scene([1, 1, 1], seed=view)
        examples += teach.examples_from_view(reader, image, labels, view, "tap")
    assert reader.nets is not None
    lesson = teach.fit(reader.nets, examples)
    assert lesson.setting.pull is None and lesson.head.weights is None
    assert lesson.head.value_min == teach.VALUE_MIN  # nor a value probability of its own


def test_no_dice_no_lesson(reader: DiceReader) -> None:
    image, _labels = _scene([4])
    only_not_dice = [e for e in teach.examples_from_view(reader, image, [], 0, "tap")]
    assert reader.nets is not None
    with pytest.raises(CalibrationError, match="no dice to learn from"):
        teach.fit(reader.nets, only_not_dice)


def test_a_head_is_the_classifier_s_own_layer_when_nothing_moves_it(reader: DiceReader) -> None:
    """The contract of vision.cnn.CLS_FEATURES: the logits are a linear map of the features,
    so the classifier's own layer found from them reads exactly as the classifier."""
    nets = reader.nets
    assert nets is not None
    feats, logits = nets.features(teach.anchors()[0])  # rendered dice light every feature
    width = feats.shape[1]
    with pytest.raises(ValueError, match=f"needs more than {width + 1} crops"):
        teach.own_layer(nets, feats[:width + 1], logits[:width + 1])
    dark = feats.copy()
    dark[:, 5] = 0.0  # crops that never light one feature cannot tell its weights
    with pytest.raises(ValueError, match="leave 1 of its features unused"):
        teach.own_layer(nets, dark, logits)
    w, b = teach.own_layer(nets, feats, logits)
    image, _labels = _scene([1, 2, 3, 4, 5, 6])
    head = TableHead.build(nets.identity, 0.45, w, b, 6)
    same = reader.read(image, Profile(head=head))
    assert [(d.value, round(d.confidence, 3)) for d in same.dice] == \
        [(d.value, round(d.confidence, 3)) for d in reader.read(image).dice]


def test_a_head_for_other_models_is_not_read_with_and_is_fitted_again(
        reader: DiceReader) -> None:
    nets = reader.nets
    assert nets is not None
    image, labels = _scene([1, 2, 3, 4, 5, 6])
    # a head that would read every die as "not a die", fitted for other models
    w = np.zeros((7, nets.feature_width()))
    b = np.array([50.0, 0, 0, 0, 0, 0, 0])
    stale = TableHead.build("0123456789abcdef", 0.45, w, b, 6)
    assert len(reader.read(image, Profile(head=stale)).dice) == 6  # not read with
    mine = TableHead.build(nets.identity, 0.45, w, b, 6)
    assert len(reader.read(image, Profile(head=mine)).dice) == 0  # read with: its own
    # a head for these models whose shape does not fit them (a damaged file): not read with
    narrow = TableHead.build(nets.identity, 0.45, w[:, :5], b, 6)
    assert len(reader.read(image, Profile(head=narrow)).dice) == 6
    taught = teach.TaughtDice().add(teach.examples_from_view(reader, image, labels, 0, "tap"))
    again, lesson = teach.refit(nets, taught, stale)
    assert lesson is not None and again is not None and again.model == nets.identity
    assert teach.refit(nets, taught, again) == (again, None)  # fitted for these: kept
    assert teach.refit(nets, teach.TaughtDice(), stale) == (stale, None)  # nothing to fit


# -- the command line -------------------------------------------------------------------------


def _labelled_folder(folder: Path, views: list[list[int]]) -> Path:
    folder.mkdir(parents=True)
    for k, values in enumerate(views):
        image, labels = _scene(values, seed=k)
        cv2.imwrite(str(folder / f"roll-{k:02d}.jpg"), image)
        h, w = image.shape[:2]
        (folder / f"roll-{k:02d}.txt").write_text("".join(
            f"{d.value - 1} {d.center[0] / w:.5f} {d.center[1] / h:.5f} {d.size / w:.5f} "
            f"{d.size / h:.5f}\n" for d in labels), encoding="utf-8")
    return folder


def test_teaching_dice_from_labelled_photos_on_the_command_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    folder = _labelled_folder(tmp_path / "photos", [[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1],
                                                    [3, 3, 5, 1]])
    assert main(["calibrate", "dice", "--from", str(folder), "--profile", "den"]) == 0
    out = capsys.readouterr().out
    assert "learned 16 dice from 3 photos" in out
    assert "cross-validated accuracy 100.0% of 16 dice" in out
    saved = paths.profile_store().load("den")
    assert saved.dice.dice == 16 and saved.dice.views == 3 and saved.profile.head is not None
    assert {e.origin for e in saved.dice.examples} == {"photo"}
    assert main(["calibrate", "list"]) == 0
    assert "16 dice taught" in capsys.readouterr().out
    # the profile file is what `companion read --profile FILE` reads with
    image = str(folder / "roll-02.jpg")
    assert main(["read", image, "--json", "--profile",
                 str(paths.profile_store().profile_path("den"))]) == 0
    got = json.loads(capsys.readouterr().out)
    assert sorted(d["value"] for d in got["dice"]) == [1, 3, 3, 5]
    # a head fitted for other models (a release ago) is fitted again for these, and read with
    cp = paths.profile_store().load("den")
    old = TableHead.build("0123456789abcdef", 0.45, None, None, cp.dice.dice)
    paths.profile_store().save(cp.with_dice(cp.dice, old))
    assert main(["read", image, "--json", "--profile",
                 str(paths.profile_store().profile_path("den"))]) == 0
    out_err = capsys.readouterr()
    assert "fitted again for these models" in out_err.err
    assert sorted(d["value"] for d in json.loads(out_err.out)["dice"]) == [1, 3, 3, 5]
    # taught again: the examples add up; --forget first: only the new ones
    assert main(["calibrate", "dice", "--from", str(folder), "--profile", "den"]) == 0
    assert paths.profile_store().load("den").dice.dice == 32
    capsys.readouterr()
    assert main(["calibrate", "dice", "--forget", "--profile", "den"]) == 0
    assert "forgot 32 dice" in capsys.readouterr().out
    forgot = paths.profile_store().load("den")
    assert forgot.dice.examples == () and forgot.profile.head is None


@pytest.mark.parametrize(("text", "said"), [
    (None, "has no label file 'roll-00.txt'"),
    ("3 0.5 0.5 0.1\n", "roll-00.txt line 1: expected 'class cx cy w h'"),
    ("0 0.5 0.5 0.1 0.1\n6 0.5 0.5 0.1 0.1\n", "line 2: class 6 is not a die's face"),
    ("2 1.5 0.5 0.1 0.1\n", "line 1: the box must lie within 0..1"),
    ("two 0.5 0.5 0.1 0.1\n", "line 1: expected 'class cx cy w h' (a whole class"),
])
def test_label_files_are_read_strictly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str], text: str | None,
                                       said: str) -> None:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    folder = tmp_path / "photos"
    folder.mkdir()
    cv2.imwrite(str(folder / "roll-00.jpg"), _scene([2])[0])
    if text is not None:
        (folder / "roll-00.txt").write_text(text, encoding="utf-8")
    assert main(["calibrate", "dice", "--from", str(folder)]) == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "cfg" / "profiles").exists()  # nothing saved


# -- a profile on disk --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def taught_file(reader: DiceReader) -> dict[str, Any]:
    """A saved profile that learned a few dice (its JSON)."""
    examples: list[teach.Example] = []
    for view, values in enumerate(([1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1], [2, 4, 6, 1, 3, 5])):
        image, labels = _scene(values, seed=view)
        examples += teach.examples_from_view(reader, image, labels, view, "photo")
    taught = teach.TaughtDice().add(examples)
    assert reader.nets is not None
    nets = reader.nets
    w = np.ones((7, nets.feature_width())) * 0.01
    head = TableHead.build(nets.identity, 0.4, w, np.zeros(7), taught.dice, 0.6)
    cp = profiles.CalibrationProfile(name="den").with_dice(taught, head)
    data: dict[str, Any] = json.loads(cp.dumps())
    assert profiles.loads(cp.dumps()) == cp  # round trip, as saved
    return data


def _png_claiming(width: int, height: int) -> str:
    """A few bytes of PNG whose header says it is ``width`` x ``height`` (never decoded)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                            0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(b"\x00" * 1000)) + chunk(b"IEND", b"")
    return base64.b64encode(png).decode()


def _set(path: str, value: Any) -> Any:
    def mutate(d: dict[str, Any]) -> None:
        *ks, last = path.split(".")
        for k in ks:
            d = d[int(k)] if k.isdigit() else d[k]  # type: ignore[index]
        d[int(last) if last.isdigit() else last] = value  # type: ignore[index]
    return mutate


def _bmp_crop() -> str:
    _ok, buf = cv2.imencode(".bmp", np.zeros((64, 64, 3), np.uint8))
    return base64.b64encode(buf.tobytes()).decode()


HOSTILE = [
    (_set("dice.examples.0.crop", "@@@"), "dice.examples[0].crop: not base64"),
    (_set("dice.examples.0.crop", base64.b64encode(b"just text").decode()),
     "dice.examples[0].crop: not a JPEG or PNG image"),
    (_set("dice.examples.0.crop", _bmp_crop()), "dice.examples[0].crop: not a JPEG or PNG"),
    (_set("dice.examples.1.crop", _png_claiming(30000, 30000)),
     "dice.examples[1].crop: claims an image far larger than 64x64"),
    (_set("dice.examples.1.crop", _png_claiming(65, 64)),
     "dice.examples[1].crop: a 65x64 image, not 64x64"),
    (_set("dice.examples.0.crop", "A" * 40000), "not an example crop (at most 32000"),
    (_set("dice.examples.0.label", 7), "dice.examples[0].label"),
    (_set("dice.examples.0.label", True), "dice.examples[0].label: expected an integer"),
    (_set("dice.examples.0.heat", 1.5), "dice.examples[0].heat"),
    (_set("dice.examples.0.origin", "rumour"), "dice.examples[0].origin"),
    (_set("dice.examples.0.group", -1), "dice.examples[0].group"),
    (_set("dice.views", "many"), "dice.views: expected an integer"),
    (_set("dice.cv_accuracy", 1.7), "dice.cv_accuracy"),
    (lambda d: d["dice"].pop("examples"), "missing key 'dice.examples'"),
    (_set("dice.examples.0.pips", 3), "unknown key 'dice.examples[0].pips'"),
    (_set("profile.head.heat_min", 0.05), "TableHead.heat_min must be within 0.2..0.9"),
    (_set("profile.head.value_min", 1.0), "TableHead.value_min must be within 0.3..0.95"),
    (_set("profile.head.bias", [0.0] * 6), "needs 7 rows of weights and 7 biases"),
    (_set("profile.head.weights.2", [0.0, 1.0]), "the weight rows must all have the same"),
    (_set("profile.head.bias", None), "weights and bias come together"),
    (_set("profile.head.model", ""), "TableHead.model must name the models"),
    (lambda d: d["profile"].pop("head"), "missing key 'profile.head'"),
]


@pytest.mark.parametrize(("mutate", "said"), HOSTILE)
def test_a_damaged_or_hostile_profile_is_refused_in_words(
        taught_file: dict[str, Any], mutate: Any, said: str) -> None:
    data = json.loads(json.dumps(taught_file))
    mutate(data)
    with pytest.raises(profiles.ProfileError) as err:
        profiles.loads(json.dumps(data), "den.json")
    assert said in str(err.value) and str(err.value).startswith("den.json: ")


def test_a_hostile_profile_never_stops_the_start(taught_file: dict[str, Any], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    store = paths.profile_store()
    data = json.loads(json.dumps(taught_file))
    data["dice"]["examples"][2]["crop"] = _png_claiming(40000, 40000)
    store.profiles_dir.mkdir(parents=True)
    (store.profiles_dir / "den.json").write_text(json.dumps(data), encoding="utf-8")
    (store.folder / "current-profile").write_text("den\n", encoding="utf-8")
    profile, note = startfiles.read_start_file(store.folder, "current calibration profile",
                                               lambda _p: store.current(), None, owned=False)
    assert profile is None and "den.json" in note and "dice.examples[2].crop" in note


def test_a_version_3_profile_has_learned_nothing_yet(taught_file: dict[str, Any]) -> None:
    old = json.loads(json.dumps(taught_file))
    old["version"] = 3
    del old["dice"], old["profile"]["head"]
    cp = profiles.loads(json.dumps(old), "v3.json")
    assert cp.dice == teach.TaughtDice() and cp.profile.head is None
    assert json.loads(cp.dumps())["version"] == profiles.VERSION == 4


# -- a table the models never saw -----------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(not PHOTOS.exists(), reason=f"no shared photos at {PHOTOS}")
def test_a_taught_table_reads_its_own_dice_better_than_untaught() -> None:
    """byler's top-down photos of colour dice, read by the models trained without them: the
    first 10 photos taught, 30 of the rest (every 6th) read untaught and taught."""
    from vision.cnn import Nets

    folder = LOSO / "byler"
    reader = DiceReader(nets=Nets(det=folder / "dice_det.onnx", cls=folder / "dice_cls.onnx"))
    assert reader.nets is not None
    jpgs = sorted((PHOTOS / "byler-train").glob("*.jpg"))

    def labelled(jpg: Path) -> tuple[np.ndarray, list[teach.LabelledDie]]:
        image = cv2.imread(str(jpg))
        h, w = image.shape[:2]
        dice = []
        for line in jpg.with_suffix(".txt").read_text().splitlines():
            c, cx, cy, bw, bh = (float(v) for v in line.split())
            dice.append(teach.LabelledDie(int(c) + 1, (cx * w, cy * h), max(bw * w, bh * h)))
        return image, dice

    examples: list[teach.Example] = []
    for view, jpg in enumerate(jpgs[:10]):
        image, dice = labelled(jpg)
        examples += teach.examples_from_view(reader, image, dice, view, "photo")
    lesson = teach.fit(reader.nets, examples)
    taught = Profile(head=lesson.head)

    def score(profile: Profile | None) -> dict[str, int]:
        """Dice found and read right, read wrong (confidently), reported that are no die."""
        tally = {"right": 0, "found": 0, "wrong": 0, "extra": 0}
        for jpg in jpgs[10::6]:
            image, dice = labelled(jpg)
            reading = reader.read(image, profile)
            free = list(range(len(dice)))
            for d in reading.dice:
                near = [(math.dist(d.center, dice[i].center), i) for i in free
                        if math.dist(d.center, dice[i].center) < 0.75 * dice[i].size]
                if not near:
                    tally["extra"] += 1
                    continue
                i = min(near)[1]
                free.remove(i)
                tally["found"] += 1
                tally["right"] += d.value == dice[i].value
                tally["wrong"] += d.value is not None and d.value != dice[i].value
        return tally

    before, after = score(None), score(taught)
    # measured: found 202 -> 217, read right 160 -> 165, read wrong 7 -> 1, things taken for
    # dice 3 -> 1 (the head, the detector's cut at 0.3, a value said from 0.8); asserted with
    # about half that margin (and no fewer read right)
    assert after["found"] >= before["found"] + 6
    assert after["wrong"] + after["extra"] <= before["wrong"] + before["extra"] - 3
    assert after["right"] >= before["right"]
    assert lesson.setting.pull is not None  # the table's own head
