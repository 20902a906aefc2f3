"""The pure parts of the one-screen games' tables: Dice Forge's face pictures read from a face's
words (every face of the game has a picture, built from the engine's own face reader), and
long lists of choices shown a page at a time."""

from __future__ import annotations

import pytest

from companion.games.dice_forge.art import RESOURCES, FaceArt, Mark, face_art
from companion.games.pages import one_page
from rules.dice_forge import data as D
from rules.dice_forge.data import CELESTIAL_FACES


def every_face() -> list[str]:
    faces = D.load("faces")
    out = [f for _pool, (_cost, _level, fs) in D.sanctuary().items() for f in fs]
    for group in ("garden", "forest"):
        out += [f for pool in faces[group].values() for f in pool]
    for start in faces["starting"].values():
        out += [f for die in ("die1", "die2") for f in start[die]]
    return sorted(set(out) | set(CELESTIAL_FACES))


@pytest.mark.parametrize("face", every_face())
def test_every_face_of_the_game_has_a_picture(face: str) -> None:
    art = face_art(face)
    assert art is not None, face
    assert art.marks or art.word, face  # something is drawn
    assert len(art.marks) <= 4, face
    assert all(m.resource in RESOURCES and m.amount >= 0 for m in art.marks), art


def test_pictures_say_what_the_words_say() -> None:
    assert face_art("3 gold") == FaceArt((Mark("gold", 3),))
    both = face_art("1 glory + 1 sun")
    assert both is not None and both.marks == (Mark("glory", 1), Mark("sun", 1))
    assert not both.choice  # both are gained
    choice = face_art("2 gold or 2 sun or 2 moon")
    assert choice is not None and choice.choice and len(choice.marks) == 3
    shield = face_art("blue shield")  # its colour in words too: never colour alone
    assert shield is not None and shield.colour == "blue" and "blue" in shield.word
    assert shield.marks == (Mark("moon", 0),)  # the resource the other die must give
    boar = face_art("green boar")
    assert boar is not None and boar.word == "green\nboar"
    assert face_art("triple") == FaceArt(word="x3")
    assert face_art("not a face") is None


def test_one_page_at_a_time() -> None:
    items = [f"c{i}" for i in range(10)]
    shown, page, pages = one_page(items, room=4, page=0)
    assert (shown, page, pages) == (["c0", "c1", "c2"], 0, 4)
    shown, page, pages = one_page(items, room=4, page=3)
    assert shown == ["c9", None, None] and (page, pages) == (3, 4)  # padded: "More" stays last
    assert one_page(items, room=4, page=4)[1] == 0  # round again
    assert one_page(items[:4], room=4, page=2) == (items[:4], 0, 1)  # all fit: no paging
    seen = [c for p in range(4) for c in one_page(items, 4, p)[0] if c]
    assert seen == items  # every choice on exactly one page
