"""The ``vp`` command group (video poker), one module per concern: :mod:`.play` (``analyze``,
``hold``, ``grade``, ``chart``: how to play one game) and :mod:`.games` (``list``, ``compare``,
``breakeven``, ``sweep``: the catalog and games side by side or with a pay varied). GAME is a
built-in paytable's slug, its common name ("9/6 jacks", "nsud": see
:func:`pipeline.videopoker.catalog.games.search_games`) or a TOML path.

Commands use the built ``artifacts/paytables/<slug>.h5`` when it was made from exactly this file
by this solver, and otherwise compute on the fly (about a second), so any TOML works. This
package holds the group and what its commands share: the deal classes of the artifacts folder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from pipeline.cli.common import AlphabeticalGroup, app, artifacts_dir

if TYPE_CHECKING:
    from pipeline.videopoker.solver.deals import DealClasses

#: help of ``--pay``, the option of every command that solves one game
PAY_HELP = ("edit a line's pay per credit bet in place, e.g. \"full house=8\" (line name, hand or "
            "short name: royal, sf, quads/4K, fh, trips/3K, 2p; any case; repeatable): the edited "
            "game is solved exactly now and named as edited")
#: help of a positional GAME
GAME_HELP = "game: slug (see `vp list`), common name (\"9/6 jacks\") or TOML path"


def one_game(positional: str | None, option: str | None, default: str) -> str:
    """The game named by the positional GAME or ``--paytable`` (both only when they agree)."""
    from pipeline.errors import InputError

    if positional and option and positional != option:
        raise InputError(f"two games named: {positional!r} and --paytable {option!r}; name one")
    return positional or option or default


def echo_edits(game: str, pay: list[str]) -> None:
    """With ``--pay``: one line stating each edited pay per credit bet and the pay it replaces."""
    if not pay:
        return
    from pipeline.answers.vp import load_game
    from pipeline.videopoker.paytables.edit import edits_said

    typer.echo(f"edited: {edits_said(load_game(game), pay)}")

vp_app = typer.Typer(no_args_is_help=True, cls=AlphabeticalGroup,
                     help="Video poker: exact return, strategy and holds of a paytable.")
app.add_typer(vp_app, name="vp")


def deal_classes_here(deck_size: int) -> DealClasses:
    """Deal classes from the built vp_classes.h5 if present, else derived now."""
    from pipeline.answers import deal_classes_in

    return deal_classes_in(artifacts_dir(), deck_size)
