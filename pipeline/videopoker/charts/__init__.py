"""Strategy charts derived from the optimal strategy: hold patterns as a player names them
(:mod:`.patterns`), their English text (:mod:`.text`), the ordering search (:mod:`.search`) and the
chart with its exact return (:mod:`.chart`)."""
