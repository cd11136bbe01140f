"""The rule families, by the name game files give in ``family = ...``.

Each family is one module exposing the names of :class:`pipeline.casino.family.Family`. The
modules are imported here by name, so a build stage's key (its import graph) covers every
family's code; adding a family is one module and one entry below (docs/casino.md).
"""

from __future__ import annotations

from types import ModuleType

from pipeline.casino.families import caribbean_stud, hand_bonus, let_it_ride, mississippi_stud, three_card, uth

#: family name -> module
FAMILIES: dict[str, ModuleType] = {m.FAMILY: m for m in (three_card, hand_bonus, let_it_ride, mississippi_stud,
                                                         caribbean_stud, uth)}


def family_module(name: str) -> ModuleType:
    """The module of the family called ``name``; ``ValueError`` lists the known ones."""
    mod = FAMILIES.get(name)
    if mod is None:
        raise ValueError(f"unknown family {name!r} (families: {', '.join(sorted(FAMILIES))})")
    return mod


__all__ = ["FAMILIES", "family_module"]
