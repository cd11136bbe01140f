"""Reusing another artifacts folder's outputs: a stage whose key there equals the wanted key is
hard-linked into the staging folder instead of rebuilt.

The key covers the stage's code, settings and input bytes, so equal keys mean equal outputs (the
builds are deterministic). Each output is first proven against the other folder's manifest (the
readers' check: its stat signature, else its sha256) and linked, never copied; the link must be
the very file that was proven (same inode), else nothing is reused and the stage is built. A
folder on another file system, or any other failure to link, also just means: build.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from pipeline.errors import ArtifactError
from pipeline.query.artifacts import open_checked, read_manifest


class Donor:
    """An artifacts folder whose outputs a build may link (its manifest read once)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.manifest = read_manifest(self.folder, strict=False) if self.folder.is_dir() \
            else {"files": {}, "stages": {}}

    def link(self, name: str, key: str, outputs: tuple[str, ...], staging: Path
             ) -> tuple[dict[str, dict[str, Any]], dict[str, Any]] | None:
        """Link stage ``name``'s outputs into ``staging`` when the donor built them with ``key``.

        Returns the donor's manifest entries of the outputs and its stage entry, or ``None``
        (nothing left in ``staging``) when they cannot be reused.
        """
        entry = self.manifest.get("stages", {}).get(name)
        files = self.manifest.get("files", {})
        if not entry or entry.get("key") != key or sorted(entry.get("outputs", ())) != sorted(outputs) \
                or any(rel not in files for rel in outputs):
            return None
        linked: list[Path] = []
        try:
            for rel in outputs:
                src = open_checked(self.folder, rel, self.manifest)
                ino = src.stat().st_ino
                dst = staging / rel
                dst.parent.mkdir(parents=True, exist_ok=True)
                os.link(src, dst)
                linked.append(dst)
                if dst.stat().st_ino != ino:
                    return self._undo(linked)  # replaced between the check and the link
        except (OSError, ArtifactError):
            return self._undo(linked)
        return {rel: dict(files[rel]) for rel in outputs}, dict(entry)

    @staticmethod
    def _undo(linked: list[Path]) -> None:
        for p in linked:
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
        return None
