"""The game catalog: paytables by slug or path and their one-line figures (:mod:`.games`), and the
one writer and reader of a paytable's artifact (:mod:`.paytable_file`)."""
