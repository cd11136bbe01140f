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

import difflib
import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.core.constants import MAX_MANIFEST_BYTES
from pipeline.core.files import read_small_file
from pipeline.errors import ArtifactError, ConfigError, InputError
from pipeline.registry import PAYTABLES, entries, paytable_path
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
    """The TOML file of a slug (``jacks-or-better-9-6``) or a path; ``InputError`` if neither.

    Resolution is :func:`pipeline.registry.paytable_path`; this adds close-match suggestions.
    """
    try:
        return paytable_path(name)
    except InputError:
        slug = str(name).strip().lower()
        close = difflib.get_close_matches(slug, paytable_slugs(), n=3, cutoff=0.5)
        if not close or isinstance(name, Path) or slug.endswith(".toml") or "/" in slug:
            raise
        raise InputError(f"unknown paytable {str(name)!r}: not a file and not a known game; "
                         f"did you mean {', '.join(close)}?") from None


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
