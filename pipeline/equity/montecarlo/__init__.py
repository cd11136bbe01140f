"""Monte Carlo: seeded, chunked sampling kernels for fixed and random seats (:mod:`.fixed`) and for
range seats (:mod:`.ranged`), and the driver that runs rounds to a sample count or a standard
error (:mod:`.driver`)."""
