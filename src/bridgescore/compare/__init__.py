"""Comparing results across tables: matchpoints, IMPs, Butler, cross-IMPs,
board-a-match and adjusted scores.

:mod:`~bridgescore.compare.scalar` compares one board's results;
:mod:`~bridgescore.compare.array` does the same over numpy arrays, equal to the
scalar forms element by element.
"""
