"""A fresh interpreter that imports pipeline before numba: for the patches ``import pipeline``
applies only once numba loads (tests/test_inline_frontend.py, test_compile_gc.py,
test_flag_compare.py)."""

from __future__ import annotations

import subprocess
import sys


def after_pipeline(code: str) -> str:
    """Run ``code`` in a new Python after ``import pipeline`` (which must not import numba);
    what it printed, stripped."""
    prelude = "import sys, pipeline; assert 'numba' not in sys.modules; "
    out = subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True,
                         check=True)
    return out.stdout.strip()
