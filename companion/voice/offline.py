"""Hearing a recording as the table would: a game set up, the listener fed the file on its
own clock, each call heard made at once (so the next is heard against the game as it then
stands). What ``companion hear`` prints, and what the tests check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion.voice.listener import Listener, Skipped
from companion.voice.phrases import GameVoice, HeardCall, TableWord, read_heard
from companion.voice.recogniser import Recogniser
from hardware.audio.played import Played
from hardware.microphone import RATE, ReplayMicrophone
from rules import Game, RulesError


@dataclass(frozen=True)
class Playing:
    """A sound the companion's speaker played during a recording: a built-in sound's name
    ("drum_loop") or a file, from ``at`` seconds into the recording (the soundtrack loops)."""

    sound: str
    at: float = 0.0

    @classmethod
    def parse(cls, text: str) -> Playing:
        """``NAME`` or ``NAME@SECONDS``. Raised when ...: ValueError naming the text."""
        sound, sep, at = text.rpartition("@") if "@" in text else (text, "", "")
        if not sound.strip():
            raise ValueError(f"--playing {text!r}: name a sound (drum_loop, yarra_mark...) or "
                             "a file")
        try:
            seconds = float(at) if sep else 0.0
        except ValueError:
            raise ValueError(f"--playing {text!r}: after @ give the seconds into the "
                             "recording it began at, e.g. yarra_mark@12.5") from None
        if not seconds >= 0:
            raise ValueError(f"--playing {text!r}: the seconds must be 0 or more")
        return cls(sound.strip(), seconds)

    def path(self) -> Path:
        """The sound's file. Raised when ...: SoundMissing naming it."""
        from hardware.audio.sounds import BUILTIN_SOUNDS, builtin_sound
        from hardware.errors import SoundMissing

        if self.sound in BUILTIN_SOUNDS:
            return builtin_sound(self.sound)
        path = Path(self.sound)
        if not path.is_file():
            raise SoundMissing(f"--playing {self.sound!r}: no built-in sound of that name "
                               f"({', '.join(BUILTIN_SOUNDS)}) and no such file")
        return path


@dataclass
class HeardLine:
    """One call heard in a recording: the file, its time there (the end of the speech), the
    call made (the call log's words), what was said, the confidence; ``ask`` the calls the
    table would ask between (who said it), ``refused`` why the rules took none."""

    file: str
    t: float
    call: str | None
    heard: str
    confidence: float
    ask: list[str] = field(default_factory=list)
    refused: str = ""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"file": self.file, "t": round(self.t, 2), "call": self.call,
                                  "confidence": self.confidence, "heard": self.heard}
        if self.ask:
            out["ask"] = self.ask
        if self.refused:
            out["refused"] = self.refused
        return out


SPEECH = ("yarra_mark", "yarra_bung", "one_minute", "ten_seconds")


def hear_file(path: Path, game: Game[object], voice: GameVoice, *,
              playing: Sequence[Playing] = (), sensitivity: float = 0.5,
              recogniser: Recogniser | None = None,
              skipped: list[Skipped] | None = None) -> list[HeardLine]:
    """The calls heard in the recording at ``path``, made in ``game`` as they are heard (a
    table word too: "undo" takes back the last call). ``playing``: what the companion's
    speaker played meanwhile (subtracted, and the announcer's words never taken). Raised
    when ...: MicrophoneUnavailable (the file cannot be read), SoundMissing (a sound
    played is not there)."""
    played = None
    if playing:
        played = Played(RATE, clock=lambda: 0.0)
        for p in playing:
            name = Path(p.sound).stem
            effect = name in SPEECH or name in ("hit", "knockout")
            played.started(p.path(), level=0.8, loop=not effect, speech=name in SPEECH,
                           at=p.at)
    listener = Listener(recogniser or Recogniser(sensitivity), played=played,
                        sensitivity=sensitivity, on_skip=skipped.append if skipped is not None
                        else None)
    listener.use(voice.vocabulary())
    out: list[HeardLine] = []
    with ReplayMicrophone([path], realtime=False) as mic:
        while (block := mic.read()) is not None:
            for h in listener.hear(block):
                heard = read_heard(h, voice.vocabulary(), game, voice, h.end)
                if heard is None:
                    continue
                out.append(_make(path, h.end, heard, game))
                listener.use(voice.vocabulary())
    return out


def _make(path: Path, t: float, heard: HeardCall, game: Game[object]) -> HeardLine:
    line = HeardLine(str(path), t, None, heard.said, heard.confidence)
    if heard.table is TableWord.UNDO:
        if game.can_undo:
            line.call = f"Undo ({game.undo().call})"
        return line
    if heard.table is not None:
        line.call = heard.said
        return line
    if not heard.calls:
        line.refused = heard.refused
        return line
    if heard.ambiguous:
        line.ask = [str(c) for c in heard.calls]
        return line
    try:
        game.apply(heard.calls[0], t)
        line.call = str(heard.calls[0])
    except RulesError as e:
        line.refused = str(e)
    return line


__all__ = ["HeardLine", "Playing", "hear_file"]
