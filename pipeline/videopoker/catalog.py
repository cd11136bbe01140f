"""The game catalog: paytables by name (slug) or path, and the one-line figures of every game.

``resolve_paytable`` is the single place that turns what a user typed into a TOML file: an
existing path is taken as is, anything else is a slug of a built-in paytable
(built in under ``pipeline/data/paytables/``, or in a config folder). :func:`catalog` lists the built-in games with the
figures of their built artifact (``artifacts/paytables/<slug>.h5`` attributes and
``/final_counts``), read, never recomputed: a game whose artifact is missing or was made from
another file or solver is listed as not built, without figures.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import h5py

from pipeline.errors import InputError
from pipeline.registry import PAYTABLES, entries, paytable_path
from pipeline.registry import paytable_slugs as paytable_slugs_known
from pipeline.videopoker.digest import solver_digest
from pipeline.videopoker.paytable import Paytable, load_paytable


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
    """(return, variance, hit frequency) from a current artifact, None if stale or missing."""
    if not h5.is_file():
        return None
    try:
        with h5py.File(h5, "r") as f:
            at = f.attrs
            if at.get("paytable_sha256") != pt.digest or at.get("solver_digest") != digest:
                return None
            ds = f["final_counts"]
            counts = [int(x) for x in ds[:]]
            den = int(ds.attrs["denominator"])
            ret = Fraction(str(at["return_exact"]))
            var = float(at["variance"])
    except (OSError, KeyError):
        return None
    hits = sum(c for c, p in zip(counts, pt.pays) if p > 0)
    return ret, var, Fraction(hits, den)


def catalog(artifacts: Path) -> list[GameRow]:
    """Every known game with its built figures (none for games not built), by name."""
    digest = solver_digest()
    rows = []
    for slug, path in sorted(entries(PAYTABLES).items()):
        pt = load_paytable(path)
        fig = _built_figures(pt, Path(artifacts) / "paytables" / f"{slug}.h5", digest)
        ret, var, hit = fig if fig is not None else (None, None, None)
        rows.append(GameRow(slug, pt.name, pt.deck_size, wild_text(pt), fig is not None,
                            ret, var, hit, pt.reference))
    rows.sort(key=lambda r: r.name.lower())
    return rows
