"""Hand ranges: the PokerStove / Equilab / PioSolver text parsed into arrays (:mod:`.parse`),
what a range holds as a 13x13 grid (:mod:`.grid`), and Flopzilla-style hit counts (:mod:`.hits`)."""
