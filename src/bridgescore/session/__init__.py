"""Duplicate sessions: import an event's results, score them and report the ranking.

One package a job: :mod:`~bridgescore.session.store` (the event's SQLite file),
:mod:`~bridgescore.session.importers` (files into an event),
:mod:`~bridgescore.session.scoring` (result values, the scoring methods, pairs and teams
scored), :mod:`~bridgescore.session.reports` (text, HTML, the results site, cards, PDF,
USEBIO) and :mod:`~bridgescore.session.live` (a live evening's event); here,
:mod:`~bridgescore.session.workflow` scores a stored event with its boards' pars
(:mod:`~bridgescore.session.pars`). The comparisons they call are domain functions, in
:mod:`bridgescore.compare.scalar` and :mod:`bridgescore.compare.array`.
"""
