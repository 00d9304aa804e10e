"""Scoring an event: the result values, the scoring methods, pairs and teams scored,
pars, matches, weighted and adjusted scores, and the workflow that scores a stored event."""
