"""numba's compile flags hash and compare as numba defines it (pipeline.core.flag_compare)."""

from __future__ import annotations

from fresh_python import after_pipeline
from hypothesis import given, settings
from hypothesis import strategies as st
from numba.core.compiler import Flags
from numba.core.cpu import CPUTargetOptions  # noqa: F401  (loads the CPU options numba uses)

import pipeline  # noqa: F401  (installs the comparison)
from pipeline.core import flag_compare

#: boolean options of numba's compile flags (the ones numba's pipelines set and clear)
BOOLEAN_OPTIONS = sorted(k for k, o in Flags.options.items() if o.type is bool)


def _numbas_eq(a: Flags, b: Flags) -> bool:
    """numba's own definition: the dicts of every option's value are equal."""
    return a.values() == b.values()


def _numbas_hash(a: Flags) -> int:
    return hash(tuple(sorted(a.values())))


_settings = st.dictionaries(st.sampled_from(BOOLEAN_OPTIONS), st.booleans(), max_size=6)


def _flags(values: dict[str, bool]) -> Flags:
    f = Flags()
    for k, v in values.items():
        setattr(f, k, v)
    return f


@settings(max_examples=300, deadline=None)
@given(_settings, _settings)
def test_same_answers_as_numba(x: dict[str, bool], y: dict[str, bool]) -> None:
    """Equal exactly when numba says so, including an option set to its default on one side
    only; equal flags hash alike, and the hash is numba's."""
    a, b = _flags(x), _flags(y)
    assert (a == b) == _numbas_eq(a, b)
    assert (a != b) == (not _numbas_eq(a, b))
    assert hash(a) == _numbas_hash(a) and hash(b) == _numbas_hash(b)


def test_default_set_explicitly_is_equal() -> None:
    name = BOOLEAN_OPTIONS[0]
    a, b = Flags(), Flags()
    setattr(a, name, Flags.options[name].default)
    assert a._values != b._values and a == b and hash(a) == hash(b)


def test_installed_once_and_when_numba_comes_later() -> None:
    from numba.core import targetconfig

    eq = targetconfig.TargetConfig.__eq__
    assert flag_compare.install(targetconfig)
    assert targetconfig.TargetConfig.__eq__ is eq
    assert after_pipeline("from numba.core import targetconfig as m; "
                          "print(getattr(m.TargetConfig.__eq__, '_pokertables_fast', False))") == "True"
