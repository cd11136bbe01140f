"""``python -m pipeline`` is the ``pokertables`` command."""

from .cli import main

main()
