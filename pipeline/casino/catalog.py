"""The casino game catalog: games found by slug, common name or alias, from the built-in folder
``pipeline/data/casino/`` and user config folders (:mod:`pipeline.registry`, kind ``casino``).

What a user types is resolved once, here: a path (``.toml`` or holding ``/``) is a game file; a
text whose slug is a game's slug is that game; otherwise the words are matched against every
game's name, slug and aliases ("3cp", "uth", "ultimate texas hold'em", "pair plus"): an alias or
name said exactly wins, else the games having every word (a word may be the start of one) and
the fewest other words; several equally good games are an error listing them.

>>> resolve_game("3cp").name
'three-card-poker.toml'
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from pipeline.casino.edit import edit_game
from pipeline.casino.families import FAMILIES
from pipeline.casino.game import Game, load_game_file
from pipeline.errors import InputError, clip
from pipeline.registry import CASINO, entries, slugify

#: candidates an ambiguous name lists
MAX_LISTED = 8


def game_files() -> dict[str, Path]:
    """Every known game file by slug (user folders override built-ins of the same slug)."""
    return entries(CASINO)


def _words(text: str) -> list[str]:
    """A name as words: lower case, apostrophes dropped (hold'em = holdem), other marks split."""
    return re.findall(r"[a-z0-9]+", text.lower().replace("'", "").replace("\u2019", ""))


def _names_of(path: Path) -> tuple[list[str], list[list[str]]]:
    """(name words, alias word lists) of a game file, read without a full parse."""
    from pipeline.core.files import read_toml_file

    try:
        data = read_toml_file(path, "game file")
    except InputError:
        return _words(path.stem), []
    name = data.get("name") if isinstance(data.get("name"), str) else path.stem
    aliases = [a for a in data.get("aliases", []) if isinstance(a, str)] \
        if isinstance(data.get("aliases"), list) else []
    return _words(str(name)), [_words(a) for a in aliases]


def resolve_game(name: str | os.PathLike[str]) -> Path:
    """The game file a slug, common name, alias or path names; :class:`InputError` otherwise."""
    text = os.fspath(name)
    if isinstance(name, os.PathLike) or text.endswith(".toml") or "/" in text or os.sep in text:
        p = Path(text)
        if not p.is_file():
            raise InputError(f"game file {p} does not exist")
        return p
    files = game_files()
    if not text.strip():
        raise InputError(f"no game named; known: {', '.join(files)}")
    if slugify(text) in files:
        return files[slugify(text)]
    query = _words(text)
    exact, partial = [], []
    for slug, path in files.items():
        words, aliases = _names_of(path)
        if query in [words, *aliases]:
            exact.append(slug)
            continue
        pool = set(words) | set(_words(slug)) | {w for a in aliases for w in a}
        if query and all(any(w == q or (len(q) > 1 and w.startswith(q)) for w in pool) for q in query):
            partial.append((len(words) - len(query), slug))
    best = exact
    if not best and partial:
        fewest = min(n for n, _ in partial)
        best = [s for n, s in partial if n == fewest]
    if len(best) == 1:
        return files[best[0]]
    if best:
        listed = ", ".join(best[:MAX_LISTED])
        raise InputError(f"game {clip(text)} fits {len(best)} games: {listed}; name one (slug or more words)")
    raise InputError(f"unknown game {clip(text)}; known: {', '.join(files)} (or a path to a .toml file)")


def load_game(name: str | os.PathLike[str], pay: Sequence[str] = ()) -> Game:
    """The parsed game a name or path gives, with ``pay`` edits applied (``"straight=2"``)."""
    game = load_game_file(resolve_game(name), FAMILIES)
    return edit_game(game, pay) if pay else game


def all_games() -> list[Game]:
    """Every known game, parsed, by slug (a broken file raises its ``ConfigError``)."""
    return [load_game_file(p, FAMILIES) for p in game_files().values()]


__all__ = ["game_files", "resolve_game", "load_game", "all_games"]
