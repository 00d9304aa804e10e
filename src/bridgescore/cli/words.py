"""Arguments given as several words, some of which start with a minus sign.

Players write a result the way they say it: ``4DX +1``, ``3NT -1``. Unquoted,
that is two words, and ``-1`` looks like an option to the parser. A command
that reads such words is registered with :data:`WORD_SETTINGS`, so the parser
hands any word it does not know as an option to the command, in its place
among the others; :func:`joined_words` then takes ``-1`` (a minus sign and a
digit, which no option of ours is) as part of the text, and turns any other
unknown ``-x`` or ``--word`` back into the usual "No such option" usage error.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import get_close_matches
from typing import Any

import typer

__all__ = ["WORD_SETTINGS", "check_words", "joined_words", "nearest_options"]

WORD_SETTINGS: dict[str, Any] = {"ignore_unknown_options": True}
"""Click context settings for a command whose words may start with ``-``."""


def nearest_options(name: str, known: Sequence[str]) -> list[str]:
    """The real options nearest to a mistyped ``name``, for "did you mean".

    An option that the word starts with, or that starts with the word, is what
    was meant (``--vulnerable`` for ``--vul``, ``--seeds`` for ``--seed``); the
    longest such wins. Otherwise the closest spellings (difflib), which alone
    rank ``--table`` above ``--vul`` for ``--vulnerable``: they share more letters.

    >>> nearest_options("--vulnerable", ["--vul", "--nv", "--table", "--tricks"])
    ['--vul']
    """
    options = [option for option in known if option.startswith("-")]
    # Long with long, short with short: '-n' is a prefix of every '-nX'.
    same_kind = [option for option in options if option.startswith("--") == name.startswith("--")]
    stem = name.split("=", 1)[0]
    prefixed = [
        option
        for option in same_kind
        if len(option.lstrip("-")) >= 2 and (stem.startswith(option) or option.startswith(stem))
    ]
    if prefixed:
        longest = max(len(option) for option in prefixed)
        return [option for option in prefixed if len(option) == longest]
    return get_close_matches(stem, options)


def _is_option_like(word: str) -> bool:
    # '-' alone is standard input, '-1' and '-12' are undertricks; anything else
    # starting with '-' was meant as an option.
    return word.startswith("-") and len(word) > 1 and not word[1].isdigit()


def joined_words(words: Sequence[str] | None, context: typer.Context) -> str:
    """The words joined by single spaces (``''`` for none), after :func:`check_words`."""
    check_words(words, context)
    return " ".join(words or ())


def check_words(words: Sequence[str] | None, context: typer.Context) -> None:
    """A word that starts with ``-`` and is not a minus sign before a number is an
    option the command does not have: a usage error names it (exit 2), as the
    parser would have without :data:`WORD_SETTINGS`."""
    for word in words or ():
        if _is_option_like(word):
            name = word.split("=", 1)[0]
            known = [opt for param in context.command.params for opt in param.opts]
            close = nearest_options(name, known)
            hint = f" (did you mean {' or '.join(close)}?)" if close else ""
            context.fail(f"No such option: {name}{hint}")
