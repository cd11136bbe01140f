"""The package's version, in a module of its own that imports nothing: the build (which records
it in the manifest) and the command line (``--version``) read it from here without importing
the top-level package, which sits above them. A bump changes no stage key (see
:func:`pipeline.core.codegraph.normalized_code`)."""

__version__ = "0.1.0"
