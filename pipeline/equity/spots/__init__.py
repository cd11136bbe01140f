"""A question's parts as the solvers read them and the one answer: the exact counter's spot
(:mod:`.spot`), the seats (:mod:`.seats`: each seat as asked, and flattened into the kernels'
arrays) and the frozen answer with its JSON (:mod:`.answer`)."""
