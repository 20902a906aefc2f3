"""What a game lets players say, and what was heard: the types between a game and the ears.

No Kivy and no speech library here. A game's voice module (e.g.
``companion/games/eye_for_an_eye/voice.py``) builds a :class:`Vocabulary` for the game as it
stands: every :class:`Phrase` players may say, each with the calls it can mean and whether one
of them is legal now (the recogniser weighs the legal ones up). The recogniser hears
:class:`Heard` words; :func:`read_heard` turns them into a :class:`HeardCall`, which the table
takes like a tapped call: shown at once as heard, then kept through the same path as a tap
(checked, journaled, undoable), or cancelled.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from rules import Call, Game, RulesError

#: The counts as they are said.
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten")


class TableWord(Enum):
    """Words for the table, not for a game's engine: what a button or a tap would do."""

    UNDO = "undo"
    YARRA_MARK = "yarra mark"  # the clock button: start the round (or go on after a pause)


@dataclass(frozen=True)
class Phrase:
    """Words a player may say (lower case, as in the pronouncing dictionary), the calls they
    can mean (several when more than one player could say them: "Attack 2 on Grubic"), or a
    :class:`TableWord`; ``legal`` when one of the calls is legal now (or always, for a table
    word); ``said`` how the call log writes what was said ("Attack 2 on Grubic")."""

    words: tuple[str, ...]
    said: str
    calls: tuple[Call, ...] = ()
    table: TableWord | None = None
    legal: bool = True

    def __post_init__(self) -> None:
        if not self.words or any(not w or w != w.lower() or " " in w for w in self.words):
            raise ValueError(f"Phrase words must be lower-case single words, got {self.words}")
        if bool(self.calls) == (self.table is not None):
            raise ValueError(f"Phrase {self.said!r}: give calls or a table word, not both")


@dataclass(frozen=True)
class Vocabulary:
    """Everything players may say now. ``game`` names the game it is for, ``version`` changes
    with the game (the recogniser builds its grammar again then); ``words`` gives
    pronunciations of the game's own words that the dictionary lacks (word -> phones)."""

    game: str
    phrases: tuple[Phrase, ...]
    version: int = 0
    words: Mapping[str, str] = field(default_factory=dict)

    def lookup(self) -> dict[tuple[str, ...], Phrase]:
        """The phrase of each sequence of words."""
        return {p.words: p for p in self.phrases}

    @classmethod
    def none(cls, game: str) -> Vocabulary:
        """A game that listens to no call."""
        return cls(game, ())


@dataclass(frozen=True)
class Heard:
    """Words the recogniser heard as one phrase: ``start`` and ``end`` on the listener's
    clock (seconds), ``confidence`` 0..1 (how far above the acceptance line)."""

    words: tuple[str, ...]
    start: float
    end: float
    confidence: float

    @property
    def text(self) -> str:
        return " ".join(self.words)


@dataclass(frozen=True)
class HeardCall:
    """A call heard at the table, taken like a tapped one.

    ``said``: the words in the call log's spelling; ``calls``: the legal calls it can be, in
    seat order (one: who called it follows from the call; several: the table asks who, with
    one tap; ``speakers`` names each one's player); ``table``: a table word instead;
    ``refused``: why nothing said is legal now (the engine's words), when so. ``end`` is when
    the speech ended (monotonic seconds), ``confidence`` 0..1.
    """

    said: str
    calls: tuple[Call, ...] = ()
    speakers: tuple[str, ...] = ()
    table: TableWord | None = None
    refused: str = ""
    confidence: float = 0.0
    end: float = 0.0

    @property
    def ambiguous(self) -> bool:
        return len(self.calls) > 1


class GameVoice(Protocol):
    """What a game gives the listener: its vocabulary now, and whose a call is."""

    def vocabulary(self) -> Vocabulary: ...

    def speaker(self, call: Call) -> str:
        """The player who makes ``call`` (a parry: the attacked player)."""


def read_heard(heard: Heard, vocabulary: Vocabulary, game: Game[object] | None,
               voice: GameVoice, at: float | None = None, *,
               lookup: Mapping[tuple[str, ...], Phrase] | None = None) -> HeardCall | None:
    """What ``heard`` means now: its phrase's calls that are legal at round time ``at``
    (several: the table asks who said it), a table word, or the engine's reason when none is
    legal; None for words that are no phrase of the vocabulary."""
    phrase = (lookup if lookup is not None else vocabulary.lookup()).get(heard.words)
    if phrase is None:
        return None
    if phrase.table is not None:
        return HeardCall(phrase.said, table=phrase.table, confidence=heard.confidence,
                         end=heard.end)
    legal: list[Call] = []
    refusal = ""
    for call in phrase.calls:
        try:
            if game is not None:
                game.check(call, at)
            legal.append(call)
        except RulesError as e:
            refusal = refusal or str(e)
    chosen = tuple(legal)
    return HeardCall(phrase.said, chosen, tuple(voice.speaker(c) for c in chosen),
                     refused="" if chosen else refusal, confidence=heard.confidence,
                     end=heard.end)


def count_words(n: int) -> str:
    """A count as said ("three"); numbers past ten as digits (never in these games' calls).

    >>> count_words(3)
    'three'
    """
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def spoken(text: str, numerals: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Words as a player says them, lower case: punctuation dropped, digits and roman
    numerals of card bands ("Band II") said as numbers.

    >>> spoken("Watch Out!")
    ('watch', 'out')
    >>> spoken("Palaudis Band II")
    ('palaudis', 'band', 'two')
    """
    romans = {"i": "one", "ii": "two", "iii": "three", "iv": "four", "v": "five"}
    out: list[str] = []
    for raw in text.replace("-", " ").split():
        word = "".join(ch for ch in raw.lower() if ch.isalnum() or ch == "'").strip("'")
        if not word:
            continue
        if word.isdigit():
            out.append(count_words(int(word)))
        elif numerals is not None and word in numerals:
            out.append(numerals[word])
        elif word in romans and out and out[-1] == "band":
            out.append(romans[word])
        else:
            out.append(word)
    return tuple(out)


def merge(phrases: Iterable[tuple[tuple[str, ...], str, Call, bool]]) -> tuple[Phrase, ...]:
    """Phrases from (words, said, call, legal) tuples: the same words said for several calls
    become one phrase meaning all of them (legal when any is)."""
    by_words: dict[tuple[str, ...], tuple[str, list[Call], bool]] = {}
    for words, said, call, legal in phrases:
        old = by_words.get(words)
        if old is None:
            by_words[words] = (said, [call], legal)
        else:
            if call not in old[1]:
                old[1].append(call)
            by_words[words] = (old[0], old[1], old[2] or legal)
    return tuple(Phrase(w, said, tuple(calls), legal=legal)
                 for w, (said, calls, legal) in by_words.items())


#: Makes a game's voice for a game (a plugin's declaration: None when it listens to none).
MakeVoice = Callable[[Game[object]], GameVoice]


def table_phrases(words: Sequence[TableWord] = (TableWord.UNDO, TableWord.YARRA_MARK)
                  ) -> tuple[Phrase, ...]:
    """The table words as phrases ("undo", "yarra mark")."""
    said = {TableWord.UNDO: "Undo", TableWord.YARRA_MARK: "Yarra Mark!"}
    return tuple(Phrase(tuple(w.value.split()), said[w], table=w) for w in words)


__all__ = ["NUMBER_WORDS", "GameVoice", "Heard", "HeardCall", "MakeVoice", "Phrase",
           "TableWord", "Vocabulary", "count_words", "merge", "read_heard", "spoken",
           "table_phrases"]
