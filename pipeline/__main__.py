"""``python -m pipeline`` is the ``pokertables`` command."""

from pipeline.cli import main

main()
