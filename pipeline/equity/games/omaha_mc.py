"""Monte Carlo kernels of Omaha and Omaha hi-lo: :func:`~.kernels.mc_range` with the game's own
scorer (:func:`~.scoring.score_omaha`, :func:`~.scoring.score_omaha_hilo`) in place of the
other games' (the hole-card counts and the low flag are constants there, so the Omaha scorer's
loops unroll; each kernel compiles only its own scorer)."""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.parallel import claim
from pipeline.equity.games.evaluate import OMAHA, OMAHA_HILO
from pipeline.equity.games.kernels import mc_chunk
from pipeline.equity.games.scoring import score_omaha, score_omaha_hilo


@nb.njit(cache=True, nogil=True)
def mc_range_omaha(counter: np.ndarray, sizes: np.ndarray, seed: int, stream0: int, game: int,
                   board0: np.ndarray, bneed: int, deck: np.ndarray, hands: np.ndarray,
                   hlen: np.ndarray, hmask: np.ndarray, thr: np.ndarray, off: np.ndarray,
                   fill: np.ndarray, max_tries: int, card_keys: np.ndarray, offsets: np.ndarray,
                   ranks: np.ndarray, flush: np.ndarray, om_ids: np.ndarray, om_best: np.ndarray,
                   sd_key: np.ndarray, sd_nonflush: np.ndarray, sd_flush: np.ndarray,
                   razz: np.ndarray, acc: np.ndarray, tries: np.ndarray) -> None:
    """:func:`mc_range` for Omaha (4, 5 or 6 hole cards): its scorer only."""
    for _ in range(sizes.shape[0]):  # at most every chunk
        ch = claim(counter, 1)
        if ch >= sizes.shape[0]:
            break
        tries[ch] = mc_chunk(score_omaha, sizes[ch], seed, stream0 + ch, game, board0, bneed, deck, hands,
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
        tries[ch] = mc_chunk(score_omaha_hilo, sizes[ch], seed, stream0 + ch, game, board0, bneed, deck,
                              hands, hlen, hmask, thr, off, fill, max_tries, card_keys, offsets,
                              ranks, flush, om_ids, om_best, sd_key, sd_nonflush, sd_flush, razz,
                              acc[ch])


#: The Monte Carlo kernel of each game code (the other games share :func:`mc_range`).
MC_KERNELS = {OMAHA: mc_range_omaha, OMAHA_HILO: mc_range_omaha_hilo}


__all__ = ["MC_KERNELS", "mc_range_omaha", "mc_range_omaha_hilo"]
