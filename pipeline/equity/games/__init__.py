"""Poker games other than hold'em, on the same question and result types (Omaha: :mod:`.omaha`)."""
