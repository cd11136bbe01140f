"""``casino/<slug>.h5``: the one module that writes and reads a casino game's artifact.

Layout (attributes say the meaning of each dataset):

* attributes: the game (name, slug, family, rules and pay tables as JSON, the game file's
  sha256), the figures (house edge, element of risk, average bet, variance, standard deviation,
  the exact return, ``combinations``) and ``strategies`` (JSON: each strategy a person can use,
  its rules and its exact cost against optimal play);
* ``/return_table/``: ``outcome`` (text), ``net_win`` and ``total_bet`` as exact numerator /
  denominator int64 pairs, ``combinations`` int64 (deals, out of the ``combinations`` attribute);
* ``/points/<name>/``: one group per decision point: ``cards`` uint8[n, k] (layout in its
  attributes), ``weight`` [n], ``ev_numerator`` [n, options] over the ``denominator``
  attribute (exact EV per unit base bet), ``best`` uint8[n] (index
  into the ``options`` attribute) and ``context/<column>`` [n] (integers stored in the smallest
  dtype that holds them).

Which file is current for a game is :func:`current_artifact`: the manifest lists it, it was
built from exactly this game file (sha256) and by the code that runs now (the casino stage's
import graph, as its build key derives it).
"""

from __future__ import annotations

import functools
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import h5py
import numpy as np

from pipeline.casino.game import Game
from pipeline.casino.result import CasinoAnalysis, DecisionPoint, ReturnRow
from pipeline.core.cards import CARD_ID_FORMULA

#: the build stage module whose code makes these artifacts (what freshness is checked against)
CASINO_STAGE = "pipeline.build.stages.casino"
FOLDER = "casino"


def artifact_path(slug: str) -> str:
    """The artifact of a game, relative to the artifacts folder."""
    return f"{FOLDER}/{slug}.h5"


def game_json(game: Game) -> dict[str, Any]:
    """The game's rules and pay tables as JSON-ready values (the artifact's record of them)."""
    def plain(v: object) -> object:
        if isinstance(v, Fraction):
            return str(v)
        return [plain(x) for x in v] if isinstance(v, (tuple, list)) else v

    return {"rules": {k: plain(v) for k, v in game.rules.items()},
            "meter": str(game.meter),
            "tables": {t.name: [{"label": ln.label, "hand": ln.hand, "pays": str(ln.pays),
                                 "meter_share": str(ln.meter_share)} for ln in t.lines]
                       for t in game.tables.values()}}


def write_game_artifact(a: CasinoAnalysis, game: Game, strategies: list[dict[str, Any]], path: Path) -> None:
    """Write the whole artifact into ``path`` (normally a temporary file)."""
    with h5py.File(path, "w") as f:
        f.attrs.update({"title": f"casino game analysis of {game.name}", "name": game.name,
                        "slug": game.slug, "family": game.family, "game_file": Path(game.source).name,
                        "game_sha256": game.digest, "source": game.reference,
                        "game": json.dumps(game_json(game)), "card_ids": CARD_ID_FORMULA,
                        "strategies": json.dumps(strategies)})
        f.attrs.update({k: v for k, v in a.summary().items() if not isinstance(v, int) or isinstance(v, bool)})
        f.attrs["combinations"] = str(a.combinations)
        f.attrs["variance_exact"] = f"{a.variance.numerator}/{a.variance.denominator}"
        rt = f.create_group("return_table")
        rt.attrs["meaning"] = ("one row per outcome: deals ending this way (combinations), the player's "
                               "net win and total bet per unit base bet as numerator/denominator")
        rt["outcome"] = np.array([r.outcome.encode() for r in a.rows], dtype=h5py.string_dtype())
        for col in ("net_win", "total_bet"):
            vals = [getattr(r, col) for r in a.rows]
            rt[f"{col}_numerator"] = np.array([v.numerator for v in vals], np.int64)
            rt[f"{col}_denominator"] = np.array([v.denominator for v in vals], np.int64)
        rt["combinations"] = np.array([r.combinations for r in a.rows], np.int64)
        pts = f.create_group("points")
        for i, p in enumerate(a.points):
            g = pts.create_group(f"{i}")
            g.attrs.update({"name": p.name, "options": list(p.options), "layout": p.layout,
                            "denominator": str(p.denominator),
                            "meaning": "ev_numerator[i, o] / denominator = exact EV (per unit base bet) "
                                       "of option o in state i; best = the best option (ties: first); "
                                       "integers in the smallest dtype that holds them"})
            g["cards"] = p.cards
            g["weight"] = smallest(p.weight)
            g["ev_numerator"] = smallest(p.ev_num)
            g["best"] = p.best_option
            for column, values in p.context.items():
                g[f"context/{column}"] = smallest(values)


def smallest(values: np.ndarray) -> np.ndarray:
    """``values`` (integers) in the smallest signed or unsigned dtype that holds them all: a
    state table of millions of rows stays a fraction of its int64 size."""
    if values.size == 0:
        return values
    lo, hi = int(values.min()), int(values.max())
    for dt in (np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.int64):
        info = np.iinfo(dt)
        if info.min <= lo and hi <= info.max:
            return values.astype(dt)
    return values


def read_summary(path: Path) -> dict[str, Any]:
    """The artifact's figures (``CasinoAnalysis.summary`` keys) and strategies, from attributes."""
    with h5py.File(path, "r") as f:
        at = dict(f.attrs)
    out: dict[str, Any] = {k: (v.item() if isinstance(v, np.generic) else v) for k, v in at.items()}
    out["combinations"] = int(at["combinations"])
    out["strategies"] = json.loads(at["strategies"])
    return out


def read_analysis(path: Path) -> CasinoAnalysis:
    """The analysis as stored (its return table; decision points are not loaded)."""
    with h5py.File(path, "r") as f:
        at = f.attrs
        rt = f["return_table"]
        rows = tuple(ReturnRow(o.decode() if isinstance(o, bytes) else str(o),
                               Fraction(int(nn), int(nd)), Fraction(int(bn), int(bd)), int(c))
                     for o, nn, nd, bn, bd, c in zip(rt["outcome"][:], rt["net_win_numerator"][:],
                                                     rt["net_win_denominator"][:], rt["total_bet_numerator"][:],
                                                     rt["total_bet_denominator"][:], rt["combinations"][:]))
        return CasinoAnalysis(str(at["slug"]), str(at["name"]), str(at["family"]), int(at["combinations"]),
                              rows, (), str(at["strategy"]), str(at["base_bet"]))


def read_point(path: Path, name: str) -> DecisionPoint:
    """One stored decision point (its every state: cheap for small points), found by name."""
    with h5py.File(path, "r") as f:
        for g in f["points"].values():
            if g.attrs["name"] != name:
                continue
            context = {k: v[:] for k, v in g["context"].items()} if "context" in g else {}
            return DecisionPoint(str(g.attrs["name"]), tuple(str(o) for o in g.attrs["options"]),
                                 str(g.attrs["layout"]), g["cards"][:], g["weight"][:], g["ev_numerator"][:],
                                 int(g.attrs["denominator"]), context, g["best"][:])
    raise KeyError(f"{path} stores no decision point {name!r}")


@functools.cache
def code_digest() -> str:
    """The code identity of the casino build stage (its import graph), once per process."""
    from pipeline.core.codegraph import ImportGraph, code_hash

    graph = ImportGraph()
    return code_hash({m: graph.digest(m) for m in graph.closure(CASINO_STAGE)})


def current_artifact(game: Game, artifacts: Path) -> Path | None:
    """The built ``casino/<slug>.h5`` of exactly this game file and code, if any (checked
    against the manifest: a changed file raises ``ArtifactError``)."""
    from pipeline.query.artifacts import open_checked, read_manifest
    from pipeline.videopoker.solver.digest import built_by_this_solver

    rel = artifact_path(game.slug)
    path = Path(artifacts) / rel
    if not game.digest or not path.is_file():
        return None
    manifest = read_manifest(Path(artifacts))
    if rel not in manifest.get("files", {}) or not built_by_this_solver(manifest, rel, code_digest()):
        return None
    try:
        with h5py.File(path, "r") as f:
            if f.attrs.get("game_sha256") != game.digest:
                return None
    except OSError:
        return None
    return open_checked(Path(artifacts), rel, manifest)


__all__ = ["CASINO_STAGE", "FOLDER", "artifact_path", "game_json", "write_game_artifact", "smallest", "read_summary",
           "read_analysis", "read_point", "code_digest", "current_artifact"]
