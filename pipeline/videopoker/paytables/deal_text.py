"""One deal's and one hold's text as a user types it and the CLI prints it: five cards, the
joker as ``Jk``; a hold as cards, a 0/1 flag per position, ``none`` or ``all``. (The strategy
tables' text columns for many deals at once are :mod:`pipeline.videopoker.paytables.hold_text`'s.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pipeline.core.cards import card_text, parse_cards
from pipeline.errors import InputError
from pipeline.videopoker.paytables.wild import JOKER

JOKER_TEXT = "Jk"


def vp_card_text(c: int) -> str:
    """Card text, with ``Jk`` for the joker (card 52)."""
    return JOKER_TEXT if int(c) >= JOKER else card_text(int(c))


def vp_cards_text(cards: Iterable[int]) -> str:
    """Space-separated card text of a sequence of ids (joker as ``Jk``)."""
    return " ".join(vp_card_text(c) for c in cards)


def parse_deal(text: str, deck_size: int) -> list[int]:
    """Parse five cards of a deal (``Jk``/``joker`` allowed in joker games, twice with two
    jokers); ids in order (the first joker is 52, the second 53)."""
    ids: list[int] = []
    jokers = deck_size - 52
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        if word.lower() in ("jk", "joker", "jkr"):
            if jokers == 0:
                raise InputError(f"bad card {word!r}: the joker is only dealt in joker games")
            used = sum(1 for c in ids if c >= JOKER)
            if used >= jokers:
                raise InputError("duplicate card Jk" if jokers == 1 else
                                 f"too many jokers: the deck has {jokers}")
            ids.append(JOKER + used)
        else:
            for c in parse_cards(word):
                if c in ids:
                    raise InputError(f"duplicate card {card_text(c)}")
                ids.append(c)
    if len(ids) != 5:
        raise InputError(f"expected 5 cards, got {len(ids)}: {vp_cards_text(ids) or '(none)'}")
    return ids


def parse_hold(text: str, cards: list[int], deck_size: int) -> list[int]:
    """The held cards of a deal from ``"Js Jd"`` (cards, any order), ``"10010"`` (a 0/1 flag
    per position of the deal), ``"none"``/``"-"`` (discard all) or ``"all"``."""
    t = text.strip().lower()
    if t in ("none", "-", "discard", "discard all", "draw 5"):
        return []
    if t == "all":
        return list(cards)
    if re.fullmatch(r"[01]{5}", t):
        return [c for c, f in zip(cards, t) if f == "1"]
    if re.fullmatch(r"[0-9]+", t):
        raise InputError(f"bad hold {text!r}: a position mask has five 0/1 digits, e.g. 10010")
    held: list[int] = []
    jokers_in_deal = [c for c in cards if c >= JOKER]
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        if word.lower() in ("jk", "joker", "jkr"):
            free = [c for c in jokers_in_deal if c not in held]
            if not free:
                raise InputError(f"bad hold {text!r}: Jk is not in the deal "
                                 f"{vp_cards_text(cards)} (or held twice)")
            held.append(free[0])
            continue
        for c in parse_cards(word):
            if c not in cards:
                raise InputError(f"bad hold {text!r}: {card_text(c)} is not in the deal "
                                 f"{vp_cards_text(cards)}")
            if c in held:
                raise InputError(f"bad hold {text!r}: {card_text(c)} held twice")
            held.append(c)
    return held
