"""The examples in every module's docstrings run as tests (every ``pipeline`` module whose source
holds a ``>>>`` example is found, so a new example cannot be left out of the list)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: modules whose examples read built artifacts: doctest runs them, but they may skip themselves
NEEDS_ARTIFACTS = {"pipeline.query.tables"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = sorted(_module_name(p) for p in (ROOT / "pipeline").rglob("*.py") if ">>> " in p.read_text())


def test_the_list_finds_the_known_examples() -> None:
    assert {"pipeline", "pipeline.registry", "pipeline.core.cards", "pipeline.videopoker.paytables.wild",
            "pipeline.core.evaluate"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest failure(s) in {name}"
    if name not in NEEDS_ARTIFACTS:
        assert result.attempted > 0, f"no examples ran in {name}"
