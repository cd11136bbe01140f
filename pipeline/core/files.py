"""Reading small user files (configs, paytables, rule sets) without trusting them.

A non-regular file (a folder, ``/dev/zero``, a FIFO) or an oversized one is refused before a
byte is read, and TOML nested deeper than Python's recursion limit is a clean error.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

from pipeline.core.constants import MAX_CONFIG_BYTES
from pipeline.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def read_small_file(path: Path | str, what: str, limit: int = MAX_CONFIG_BYTES) -> bytes:
    """Bytes of a regular file of at most ``limit`` bytes; :class:`ConfigError` names ``path`` otherwise."""
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise ConfigError(f"{what} {p} does not exist") from None
    except OSError as exc:
        raise ConfigError(f"{what} {p} cannot be read: {exc.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise ConfigError(f"{what} {p} is a folder, not a TOML file")
    if not stat.S_ISREG(st.st_mode):
        raise ConfigError(f"{what} {p} is not a regular file")
    if st.st_size > limit:
        raise ConfigError(f"{what} {p} is {st.st_size:,} bytes; at most {limit:,} are read")
    try:
        with open(p, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise ConfigError(f"{what} {p} cannot be read: {exc.strerror}") from None
    if len(data) > limit:
        raise ConfigError(f"{what} {p} is over {limit:,} bytes")
    return data


def read_text_file(path: Path | str, what: str, limit: int = MAX_CONFIG_BYTES) -> tuple[str, bytes]:
    """(UTF-8 text, raw bytes) of a small regular file; :class:`ConfigError` names ``path`` otherwise."""
    raw = read_small_file(path, what, limit)
    try:
        return raw.decode("utf-8"), raw
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def read_toml_file(path: Path | str, what: str) -> dict[str, Any]:
    """The parsed TOML of a small regular UTF-8 file, checked as :func:`read_small_file` does;
    the one way every user TOML file (rule sets, paytables, sweeps, build configs) is read."""
    text, _ = read_text_file(path, what)
    return parse_toml(text, str(path))


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """Parse TOML text; malformed or absurdly nested input is a :class:`ConfigError` naming ``where``."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: malformed TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{where}: malformed TOML: nested too deeply") from None
