"""Scorepads kept at the table: rubber bridge and Chicago, one rubber (round) or
an evening of them.

:mod:`~bridgescore.pads.scorepad` holds what both pads share (entries, honours,
the line), :mod:`~bridgescore.pads.rubber` and :mod:`~bridgescore.pads.chicago`
the two games, and :mod:`~bridgescore.pads.padlines` reads a pad's lines of text.
"""
