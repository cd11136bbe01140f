"""Monte Carlo kernels compiled for Omaha and Omaha hi-lo: :func:`~.kernels.mc_range` with the
game code a compile-time constant, so the other games' branches fold away and the Omaha scorer
inlines (about a third faster than the shared kernel, for the speed that matters most)."""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.parallel import claim
from pipeline.equity.games.evaluate import OMAHA, OMAHA_HILO
from pipeline.equity.games.kernels import mc_chunk


@nb.njit(cache=True, nogil=True)
def mc_range_omaha(counter: np.ndarray, sizes: np.ndarray, seed: int, stream0: int, game: int,
                   board0: np.ndarray, bneed: int, deck: np.ndarray, hands: np.ndarray,
                   hlen: np.ndarray, hmask: np.ndarray, thr: np.ndarray, off: np.ndarray,
                   fill: np.ndarray, max_tries: int, card_keys: np.ndarray, offsets: np.ndarray,
                   ranks: np.ndarray, flush: np.ndarray, om_ids: np.ndarray, om_best: np.ndarray,
                   sd_key: np.ndarray, sd_nonflush: np.ndarray, sd_flush: np.ndarray,
                   razz: np.ndarray, acc: np.ndarray, tries: np.ndarray) -> None:
    """:func:`mc_range` for Omaha (``game`` ignored): the code reaches the callees as a constant,
    the other games' branches fold away (a third faster than the shared kernel)."""
    for _ in range(sizes.shape[0]):  # at most every chunk
        ch = claim(counter, 1)
        if ch >= sizes.shape[0]:
            break
        tries[ch] = mc_chunk(sizes[ch], seed, stream0 + ch, OMAHA, board0, bneed, deck, hands,
                              hlen, hmask, thr, off, fill, max_tries, card_keys, offsets, ranks,
                              flush, om_ids, om_best, sd_key, sd_nonflush, sd_flush, razz, acc[ch])


@nb.njit(cache=True, nogil=True)
def mc_range_omaha_hilo(counter: np.ndarray, sizes: np.ndarray, seed: int, stream0: int, game: int,
                        board0: np.ndarray, bneed: int, deck: np.ndarray, hands: np.ndarray,
                        hlen: np.ndarray, hmask: np.ndarray, thr: np.ndarray, off: np.ndarray,
                        fill: np.ndarray, max_tries: int, card_keys: np.ndarray,
                        offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
                        om_ids: np.ndarray, om_best: np.ndarray, sd_key: np.ndarray,
                        sd_nonflush: np.ndarray, sd_flush: np.ndarray, razz: np.ndarray,
                        acc: np.ndarray, tries: np.ndarray) -> None:
    """:func:`mc_range_omaha` for Omaha hi-lo."""
    for _ in range(sizes.shape[0]):  # at most every chunk
        ch = claim(counter, 1)
        if ch >= sizes.shape[0]:
            break
        tries[ch] = mc_chunk(sizes[ch], seed, stream0 + ch, OMAHA_HILO, board0, bneed, deck,
                              hands, hlen, hmask, thr, off, fill, max_tries, card_keys, offsets,
                              ranks, flush, om_ids, om_best, sd_key, sd_nonflush, sd_flush, razz,
                              acc[ch])


#: The Monte Carlo kernel of each game code (the other games share :func:`mc_range`).
MC_KERNELS = {OMAHA: mc_range_omaha, OMAHA_HILO: mc_range_omaha_hilo}


__all__ = ["MC_KERNELS", "mc_range_omaha", "mc_range_omaha_hilo"]
