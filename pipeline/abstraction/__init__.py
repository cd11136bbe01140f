"""Card abstraction for hold'em: suit-isomorphic hand indexers per street (imperfect recall:
the hole and the board are one group each), the base of per-street class tables."""

from pipeline.abstraction.indexer import class_count, index, index_batch, unindex, unindex_batch
from pipeline.abstraction.shapes import STREETS

__all__ = ["STREETS", "class_count", "index", "index_batch", "unindex", "unindex_batch"]
