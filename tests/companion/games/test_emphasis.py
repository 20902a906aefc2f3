"""Text with emphasis as plain data (companion/games/emphasis.py), and the one place that turns
it into Kivy markup (companion/games/markup.py): stressed words bold, every word escaped."""

from __future__ import annotations

import pytest

from companion.games.emphasis import Span, Text, joined, plain, strong


def test_a_text_is_runs_of_words_some_stressed() -> None:
    said = strong("Ana") + ": take one die from the pool."
    assert said.spans == (Span("Ana", True), Span(": take one die from the pool."))
    assert said.plain == "Ana: take one die from the pool."
    assert not Text() and not plain("") and not strong("")
    assert strong("3") + "" == strong("3")


def test_joined_leaves_out_empty_texts() -> None:
    lines = joined(["", strong("1"), "yellow", Text(), plain("Floris")])
    assert lines.plain == "1\nyellow\nFloris"
    assert lines.spans[0] == Span("1", True)
    assert joined([]) == Text()


def test_stressed_words_never_run_over_a_line_break() -> None:
    with pytest.raises(ValueError, match=r"stressed words run over a line break: 'Ana\\nBen'"):
        strong("Ana\nBen")


def test_the_screen_writes_bold_and_escapes_every_word() -> None:
    from companion.games.markup import markup

    assert markup(strong("Ana") + " won card 1") == "[b]Ana[/b] won card 1"
    # a name or a note holding markup's own characters shows as written, never as a tag
    assert markup(strong("[i]Bo") + " & [b]") == "[b]&bl;i&br;Bo[/b] &amp; &bl;b&br;"
    assert markup(Text()) == ""
