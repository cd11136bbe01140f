"""Card abstraction for hold'em, the build side: exact strength figures per suit-isomorphic
class (:mod:`strength`, :mod:`ochs`) and buckets (:mod:`buckets`: EMD k-medians; :mod:`kmeans`:
L2 k-means). The indexers and readers are on the read side, :mod:`pipeline.query.abstraction`,
re-exported here."""

from pipeline.query.abstraction import STREETS, class_count, index, index_batch, unindex, unindex_batch

__all__ = ["STREETS", "class_count", "index", "index_batch", "unindex", "unindex_batch"]
