"""Building blocks every equity method shares: the 1,326 starting hands and their classes, suit
symmetry (orbits of board completions), one board's 7-card scores, the showdown bookkeeping inlined
into every kernel, and the walk over disjoint assignments of hands to range seats."""
