"""Movements: who sits where, and which boards each table plays, in each round.

:mod:`~bridgescore.movement.model` holds the value (:class:`Movement`, its rows
and sit-outs); :mod:`~bridgescore.movement.vp` the WBF victory-point scale that
team matches are scored in.
"""
