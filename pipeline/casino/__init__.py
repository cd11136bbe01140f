"""House-banked casino poker games, exact for any pay table (issue 40).

* :mod:`.game` — a game file (TOML) parsed into :class:`~pipeline.casino.game.Game`;
  :mod:`.catalog` finds games by slug, common name or alias; :mod:`.edit` edits pays in place;
* :mod:`.hands` — the three- and five-card rankings and the hands pay lines name;
  :mod:`.subsets` — counting hands by their subsets (inclusion–exclusion);
* :mod:`.family` — what a rule family module exposes; :mod:`.families` — the families;
* :mod:`.result` — the typed result :class:`~pipeline.casino.result.CasinoAnalysis`;
* :mod:`.play` — strategy costs, grading a decision, break-even pays;
* :mod:`.artifact` — the ``casino/<slug>.h5`` artifact.

docs/casino.md has the rules as implemented, the method and how to add a family.
"""
