"""The build side: the runner, one module per stage (``stages/``), the atomic store and
manifest, and ``verify``. Nothing on the read side imports this package.
"""
