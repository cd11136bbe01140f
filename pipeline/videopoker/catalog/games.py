"""The game catalog: paytables by name (slug) or path, and the one-line figures of every game.

``resolve_paytable`` is the single place that turns what a user typed into a TOML file: an
existing path is taken as is, anything else is a slug of a built-in paytable
(built in under ``pipeline/data/paytables/``, or in a config folder). :func:`catalog` lists the built-in games with the
figures of their built artifact (``artifacts/paytables/<slug>.h5`` attributes and
``/final_counts``), read, never recomputed: a game whose artifact is missing or was made from
another file or solver is listed as not built, without figures.

Fast path (``vp list`` in well under a second): the ``vp_summary`` stage also writes
``paytables/catalog.json``, every game's row with what identifies it (the TOML's sha256, the
solver digest, the sha256 of its ``.h5``). A game whose TOML bytes, solver digest and ``.h5``
(as the manifest records it) all still match is listed from that file, without importing
numpy or h5py; any other game goes the slow way above.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import hashlib
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.core.constants import MAX_MANIFEST_BYTES
from pipeline.core.files import read_small_file, read_toml_file
from pipeline.errors import ArtifactError, ConfigError, InputError, clip
from pipeline.registry import PAYTABLES, entries, paytable_path, slugify
from pipeline.registry import paytable_slugs as paytable_slugs_known
from pipeline.videopoker.solver.digest import built_by_this_solver, solver_digest

if TYPE_CHECKING:  # numpy comes with these; vp list's fast path needs neither
    from pipeline.videopoker.paytables.paytable import Paytable

#: the vp_summary stage's JSON of every built game's ``vp list`` row (relative to artifacts/)
CATALOG_FILE = "paytables/catalog.json"
MANIFEST_FILE = "manifest.json"


def paytable_slugs() -> list[str]:
    """Slugs of every known paytable (built-in and config folders), sorted."""
    return sorted(paytable_slugs_known())


def resolve_paytable(name: str | Path) -> Path:
    """The TOML file of a slug (``jacks-or-better-9-6``), a path, or a game's common name
    (``"9/6 jacks"``, ``"deuces wild nsud"``, ``"nsud"``: see :func:`search_games`);
    ``InputError`` if none, or listing the candidates when a name fits several games.

    Slugs and paths resolve through :func:`pipeline.registry.paytable_path`; this adds the
    common names and close-match suggestions.
    """
    try:
        return paytable_path(name)
    except InputError as exc:
        text = str(name).strip()
        if isinstance(name, Path) or text.lower().endswith(".toml"):
            raise
        error = exc
    matches = [m for m in search_games(text) if m.complete]
    most = max((m.found for m in matches), default=0)
    best = [m for m in matches if m.exact] or [m for m in matches if m.found == most]
    if len(best) == 1:
        return entries(PAYTABLES)[best[0].slug]
    if best:
        listed = "; ".join(f"{m.slug} ({m.name})" for m in best[:MAX_LISTED])
        more = f"; and {len(best) - MAX_LISTED} more" if len(best) > MAX_LISTED else ""
        raise InputError(f"game {clip(text)} fits {len(best)} games: {listed}{more}; "
                         "name one (slug or more words)")
    close = difflib.get_close_matches(slugify(text), paytable_slugs(), n=3, cutoff=0.5)
    if not close:
        raise error
    raise InputError(f"unknown paytable {clip(text)}: not a file and not a known game; "
                     f"did you mean {', '.join(close)}?") from None


@dataclass(frozen=True)
class GameMatch:
    """A game found by :func:`search_games`: how well the query's words fit it."""

    slug: str
    name: str
    #: query words found among the game's words (after spelling fixes), of ``words`` asked
    found: int
    words: int
    #: the game's words not in the query (fewer: a closer fit)
    extra: int
    #: every query word was found (a soft word such as "poker" may be missing)
    complete: bool
    #: the query is the game's name or slug, or all of its name's words
    exact: bool

    def as_json(self) -> dict[str, object]:
        """JSON object of the match."""
        return dataclasses.asdict(self)


#: a pay pair as written in names and slugs: "9/6", "9-6", "15/8"
_PAY = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*[/-]\s*(\d+(?:\.\d+)?)(?![\d.])", re.ASCII)
#: words that say nothing about which game (dropped from queries and names)
_FILLER = {"the", "a", "video", "game", "of"}
#: words a game's name may or may not say ("jacks or better video poker"): they rank the games
#: having them first but a game without them still fits
_SOFT = {"poker"}
#: nicknames players use that the names do not spell out (word -> the words it means)
NICKNAMES = {"fpdw": "deuces wild full pay", "fp": "full pay", "dbl": "double", "jks": "jacks",
             "jokers": "joker", "deuce": "deuces", "job": "jacks or better"}
#: spelling fixes: a query word this close to a known word is read as it (difflib ratio)
FUZZY_CUTOFF = 0.8
#: shortest start of a word that matches it (``"ja"`` finds jacks)
MIN_PREFIX = 2
#: candidates an ambiguous name lists
MAX_LISTED = 8


def _words(text: str) -> list[str]:
    """A name or query as words: lower case, pay pairs as ``9/6``, punctuation dropped."""
    text = _PAY.sub(lambda m: f" {m.group(1)}/{m.group(2)} ", text.lower())
    words = re.findall(r"\d+(?:\.\d+)?/\d+(?:\.\d+)?|[a-z0-9]+", text, re.ASCII)
    return [w for w in words if w not in _FILLER]


def _acronyms(name: str) -> set[str]:
    """Initials of each part of a name (split at quotes and brackets, pays left out):
    'Deuces Wild "Not So Ugly Deuces"' -> dw, nsud; "Double Double Bonus 9/6" -> ddb."""
    out = set()
    for part in re.split(r"[\"()\[\]]", name):
        ws = [w for w in _words(part) if "/" not in w and not w.isdigit()]
        if len(ws) >= 2:
            out.add("".join(w[0] for w in ws))
    return out


@functools.cache
def _game_words(slug: str, path: Path, _resolved: str, _mtime_ns: int
                ) -> tuple[str, frozenset[str], frozenset[str]]:
    """(name, words of the name, every word that finds the game: the name's, the slug's, the
    acronyms and the wild cards' family) of one paytable, read from its TOML text (kept per
    file and file version: the file's resolved path, as a relative config folder names another
    file after a change of directory, and its mtime, as a long-lived server sees an edited
    config folder)."""
    data = read_toml_file(path, "paytable")
    name = str(data.get("name", slug)).strip()
    own = frozenset(_words(name))
    family = {"deuces": {"deuces", "wild"}, "joker": {"joker", "wild"}}.get(str(data.get("wild")), set())
    return name, own, frozenset(own | set(_words(slug)) | _acronyms(name) | family)


def _is_prefix(word: str, known: Iterable[str]) -> bool:
    """``word`` starts a known word (``"jac"``, or ``"9"`` of a pay ``9/6``: typed so far in a
    search box)."""
    if word[0].isdigit():
        return "/" not in word and any("/" in k and k.startswith(word + "/") for k in known)
    return len(word) >= MIN_PREFIX and any(k.startswith(word) for k in known)


def search_games(query: str) -> list[GameMatch]:
    """Known games ranked by how well ``query`` (a slug, a name, or words of one in any order:
    ``"9/6 jacks"``, ``"deuces wild nsud"``, ``"ddb 9/6"``) fits them; games fitting no word
    are left out. Words are matched whole or as the start of a word (``"jac"``), after
    nicknames (:data:`NICKNAMES`) and close spellings (``"jaks"``) are read as the words they
    stand for. Best first: every word found, then the fewest words of the game left unsaid,
    then by slug."""
    games = {slug: _game_words(slug, path, os.path.realpath(path), path.stat().st_mtime_ns)
             for slug, path in sorted(entries(PAYTABLES).items())}
    vocabulary = sorted(set().union(*(g[2] for g in games.values()))) if games else []
    asked: list[str] = []
    for w in _words(query):
        for x in _words(NICKNAMES.get(w, w)):
            if x not in vocabulary and not x[0].isdigit() and not _is_prefix(x, vocabulary):
                x = next(iter(difflib.get_close_matches(x, vocabulary, n=1, cutoff=FUZZY_CUTOFF)), x)
            if x not in asked:
                asked.append(x)
    if not asked:
        return []
    key = slugify(query)
    short = {w for w in asked if len(w) < MIN_PREFIX and w not in vocabulary and not w[0].isdigit()}
    out = []
    for slug, (name, own, known) in games.items():
        hit = [w in known or _is_prefix(w, known) for w in asked]
        found = sum(hit)
        if not found:
            continue
        exact = key in (slug, slugify(name)) or set(asked) == set(own)
        # a soft word, or one letter typed so far, may be missing
        complete = all(h for w, h in zip(asked, hit) if w not in _SOFT and w not in short)
        out.append(GameMatch(slug, name, found, len(asked), len(own - set(asked)), complete, exact))
    out.sort(key=lambda m: (not m.exact, not m.complete, -m.found, m.extra, m.slug))
    return out


def load_named(name: str | Path) -> Paytable:
    """:func:`load_paytable` of :func:`resolve_paytable`."""
    from pipeline.videopoker.paytables.paytable import load_paytable

    return load_paytable(resolve_paytable(name))


@dataclass(frozen=True)
class GameRow:
    """One line of ``vp list``."""

    slug: str
    name: str
    deck: int
    wild: str               # "none", "deuces", or "1 joker" / "2 jokers"
    built: bool
    return_exact: Fraction | None
    variance: float | None
    hit_frequency: Fraction | None
    source: str

    def as_json(self) -> dict[str, object]:
        """JSON object of the row (exact figures as ``num/den`` strings)."""
        def exact(x: Fraction | None) -> str | None:
            return None if x is None else f"{x.numerator}/{x.denominator}"
        return {"slug": self.slug, "name": self.name, "deck": self.deck, "wild": self.wild,
                "built": self.built,
                "return": None if self.return_exact is None else float(self.return_exact),
                "return_exact": exact(self.return_exact), "variance": self.variance,
                "hit_frequency": None if self.hit_frequency is None else float(self.hit_frequency),
                "hit_frequency_exact": exact(self.hit_frequency), "source": self.source}


def wild_text(pt: Paytable) -> str:
    """Short description of the wild cards of a paytable."""
    if pt.wild == "joker":
        return "1 joker" if pt.jokers == 1 else f"{pt.jokers} jokers"
    return pt.wild


def _built_figures(pt: Paytable, h5: Path, digest: str
                   ) -> tuple[Fraction, float, Fraction] | None:
    """(return, variance, hit frequency) from a current artifact, None if stale, missing or not
    proven against its folder's manifest (the one checked open every reader uses)."""
    if not h5.is_file():
        return None

    from pipeline.query.artifacts import open_checked, read_manifest
    from pipeline.videopoker.catalog.paytable_file import paytable_digest_of, read_summary

    artifacts, rel = h5.parent.parent, f"{h5.parent.name}/{h5.name}"
    try:
        manifest = read_manifest(artifacts)
        open_checked(artifacts, rel, manifest)
    except ArtifactError:
        return None
    if not built_by_this_solver(manifest, rel, digest):
        return None
    if paytable_digest_of(h5) != pt.digest:
        return None
    try:
        ret, var, counts, den = read_summary(h5)
    except (OSError, KeyError):
        return None
    hits = sum(c for c, p in zip(counts, pt.pays) if p > 0)
    return ret, var, Fraction(hits, den)


def catalog_entry(row: GameRow, paytable_sha256: str, h5_sha256: str) -> dict[str, Any]:
    """One game of ``paytables/catalog.json``: its ``vp list`` row and what it was made from
    (which code made it is the manifest's to say)."""
    return {**row.as_json(), "paytable_sha256": paytable_sha256, "h5_sha256": h5_sha256}


def _fast_rows(artifacts: Path, digest: str) -> dict[str, dict[str, Any]]:
    """The games of ``catalog.json`` whose file is the one the manifest lists and whose ``.h5``
    is still the one they describe (by the manifest's sha256 and size); {} if none."""
    try:
        # regular files of bounded size only (a FIFO or /dev/zero here must not hang `vp list`)
        manifest = json.loads(read_small_file(artifacts / MANIFEST_FILE, "manifest", MAX_MANIFEST_BYTES))
        files = manifest["files"]
        raw = read_small_file(artifacts / CATALOG_FILE, "catalog", MAX_MANIFEST_BYTES)
        if hashlib.sha256(raw).hexdigest() != files[CATALOG_FILE]["sha256"]:
            return {}
        games = json.loads(raw)["games"]
        out = {}
        for slug, entry in games.items():
            rel = f"paytables/{slug}.h5"
            info = files.get(rel)
            if (built_by_this_solver(manifest, rel, digest) and info is not None
                    and info.get("sha256") == entry.get("h5_sha256")
                    and (artifacts / rel).stat().st_size == info.get("bytes")):
                out[slug] = entry
        return out
    except (OSError, ValueError, KeyError, TypeError, AttributeError, ConfigError, RecursionError):
        return {}


def _fast_row(slug: str, path: Path, entry: dict[str, Any] | None) -> GameRow | None:
    """The row of a game from its catalog.json entry when the TOML is byte for byte the one
    it was built from."""
    if entry is None or hashlib.sha256(read_small_file(path, "paytable")).hexdigest() != entry["paytable_sha256"]:
        return None
    hit = entry["hit_frequency_exact"]
    return GameRow(slug, entry["name"], entry["deck"], entry["wild"], True,
                   Fraction(entry["return_exact"]), entry["variance"],
                   None if hit is None else Fraction(hit), entry["source"])


def catalog(artifacts: Path) -> list[GameRow]:
    """Every known game with its built figures (none for games not built), by name."""
    artifacts = Path(artifacts)
    digest = solver_digest()
    fast = _fast_rows(artifacts, digest)
    rows = []
    for slug, path in sorted(entries(PAYTABLES).items()):
        row = _fast_row(slug, path, fast.get(slug))
        if row is None:
            row = slow_row(slug, path, artifacts, digest)
        rows.append(row)
    rows.sort(key=lambda r: r.name.lower())
    return rows


def slow_row(slug: str, path: Path, artifacts: Path, digest: str) -> GameRow:
    """The row of a game from its TOML and its ``.h5`` attributes (loads numpy and h5py)."""
    from pipeline.videopoker.paytables.paytable import load_paytable

    pt = load_paytable(path)
    fig = _built_figures(pt, artifacts / "paytables" / f"{slug}.h5", digest)
    ret, var, hit = fig if fig is not None else (None, None, None)
    return GameRow(slug, pt.name, pt.deck_size, wild_text(pt), fig is not None, ret, var, hit,
                   pt.reference)
