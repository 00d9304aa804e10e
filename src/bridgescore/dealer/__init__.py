"""Dealing under conditions, as the C program ``dealer`` does: predeal, the
condition language, and fast seeded dealing.

:mod:`~bridgescore.dealer.dealing` deals (``deal_many``, ``deal_chunk``);
:mod:`~bridgescore.dealer.condition` reads and evaluates a condition over the
hand features of :mod:`~bridgescore.dealer.hand` and
:mod:`~bridgescore.dealer.valuation`; :mod:`~bridgescore.dealer.syntax` is its
tokenizer; :mod:`~bridgescore.dealer.draw` draws hands; :mod:`~bridgescore.dealer.pbn`
writes dealt deals as PBN text in blocks.
"""
