"""Pure poker code shared by every other sub-package: card ids and text, the colex index,
bit tricks, the hand evaluator kernels, shared numba helpers and named constants.

Nothing in ``core`` reads or writes artifacts, and nothing here imports another sub-package.
"""
