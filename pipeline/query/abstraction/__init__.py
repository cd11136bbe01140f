"""The read side of the card-abstraction tables: the suit-isomorphic hold'em indexers (hole
and board one group each, per street), the memory-mapped street tables and the river's
opponent-cluster (OCHS) opponent counts. Pure kernels: nothing here builds a table."""

from pipeline.query.abstraction.indexer import class_count, index, index_batch, unindex, unindex_batch
from pipeline.query.abstraction.shapes import STREETS

__all__ = ["STREETS", "class_count", "index", "index_batch", "unindex", "unindex_batch"]
