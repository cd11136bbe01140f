"""The application as :mod:`pipeline.cli.bucket_cmd` imports it until that module joins the
command groups; it all lives in :mod:`pipeline.cli.common`."""

from __future__ import annotations

from pipeline.cli.common import app, artifacts_dir

__all__ = ["app", "artifacts_dir"]
