"""Duplicate sessions: import an event's results, score them and report the ranking.

The event model (:mod:`~bridgescore.session.scoring.event`), SQLite storage
(:mod:`~bridgescore.session.store.events`), import, the scoring methods
(:mod:`~bridgescore.session.scoring.methods`), scoring, par and reports live here; the
comparisons they call are domain functions, in :mod:`bridgescore.compare.scalar` and
:mod:`bridgescore.compare.array`, imported from there.
"""
