"""``pokertables vp chart SLUG``: a strategy chart derived from the optimal strategy, judged
exactly."""

from __future__ import annotations

import json
import time

import typer

from pipeline.cli.app import artifacts_dir
from pipeline.cli.vp_shared import deal_classes_here, vp_app


@vp_app.command("chart")
def chart_cmd(
    paytable: str = typer.Argument(..., help="paytable slug (jacks-or-better-9-6) or TOML path"),
    max_lines: int = typer.Option(40, "--max-lines", "-n", min=2, help="most lines the chart may have"),
    derive: bool = typer.Option(False, "--derive", help="derive the chart now even if the build exported it"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
) -> None:
    """A strategy chart derived from the optimal strategy, with its exact return vs optimal.

    With the default --max-lines the chart the build exported (strategy/chart_hold) is used
    and judged exactly again; other sizes (or --derive) derive it now.
    """
    from pipeline.videopoker.catalog import resolve_paytable
    from pipeline.videopoker.chart import DEFAULT_MAX_LINES, LEGEND, derive_chart
    from pipeline.videopoker.paytable import load_paytable
    from pipeline.videopoker.paytable_file import current_artifact
    from pipeline.videopoker.strategy_io import (
        read_chart,
        strategy_data,
    )

    t0 = time.perf_counter()
    pt = load_paytable(resolve_paytable(paytable))
    data, source = strategy_data(pt, artifacts_dir(), deal_classes_here(pt.deck_size))
    art = current_artifact(pt, artifacts_dir())
    chart = read_chart(data, art) if art is not None and max_lines == DEFAULT_MAX_LINES \
        and not derive else None
    if chart is None:
        chart = derive_chart(data, max_lines)
    else:
        source += ", chart exported by the build, judged again"
    chart.seconds = time.perf_counter() - t0
    info = chart.as_dict()
    info["source"] = source
    if as_json:
        typer.echo(json.dumps(info))
        return
    typer.echo(f"{pt.name}: strategy chart ({len(chart.lines)} lines; hold the first line the "
               "deal contains)")
    typer.echo(f"{'#':>3}  {'hold':<62}{'deals':>10}{'lost %':>10}")
    for ln in info["lines"]:
        text = ln["hold"]
        typer.echo(f"{ln['line']:>3}  {text:<62}{ln['deals']:>10,}{ln['loss'] * 100:>10.5f}")
    typer.echo(f"chart return   {info['chart_return'] * 100:.6f}% = {info['chart_return_exact']}")
    typer.echo(f"optimal return {info['optimal_return'] * 100:.6f}% = {info['optimal_return_exact']}")
    typer.echo(f"cost of the chart {info['cost'] * 100:.6f} percentage points")
    typer.echo(f"tie rule: {info['tie_rule']}")
    typer.echo(f"terms: {LEGEND}")
    typer.echo(f"{chart.seconds:.2f} s ({source})")
