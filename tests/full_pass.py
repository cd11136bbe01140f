"""The abstraction's pass over every river board (``river_and_preflop``: 23 CPU s), run once per
test process: the preflop abstraction build that conftest's ``preflop_abstraction`` runs in the
test process makes exactly this pass (its preflop street is the pass's preflop figures), so
:func:`recording` keeps what tests/test_abstraction_strength.py checks of it, rather than that
test making the same pass again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from pipeline.abstraction.strength import Figures

#: a pass over every board: (river figures, preflop figures)
Pass = Callable[..., tuple[Figures, Figures | None]]


@dataclass(frozen=True)
class FullPass:
    """What a pass over every board gave, without the 370 MB of river rows: the number of river
    classes, their largest value and summed weight, and the preflop figures whole."""

    bins: int
    classes: int
    value_max: int
    weight_sum: int
    pre: Figures

    @classmethod
    def of(cls, bins: int, river: Figures, pre: Figures | None) -> FullPass:
        """The summary of one pass's answer (``pre`` None: not every board was counted)."""
        assert pre is not None and river.value is not None, "not a pass over every board"
        return cls(bins, len(river.value), int(river.value.max()),
                   int(river.weight.sum(dtype=np.int64)), pre)


#: the passes over every board this process made through :func:`recording`
RECORDED: list[FullPass] = []


def recording(real: Pass) -> Pass:
    """``real`` (``river_and_preflop``), keeping a :class:`FullPass` of each call over every
    board in :data:`RECORDED`."""
    def run(table7: np.ndarray, bins: int, boards: np.ndarray | None = None, *args: object,
            **kwargs: object) -> tuple[Figures, Figures | None]:
        river, pre = real(table7, bins, boards, *args, **kwargs)
        if boards is None:
            RECORDED.append(FullPass.of(bins, river, pre))
        return river, pre
    return run
