"""The club's season: a register of players, the events they played, the ladder and
the players' grades.

- :mod:`.register` the club file (SQLite, its own schema): players, events, each pair's
  place and its players as matched to the register;
- :mod:`.summary` an event file summed up for the season (each pair's rank, percentage,
  boards and players), scored by the session package's scorer;
- :mod:`.matching` who is who: a pair's players matched to the register by membership
  number, else by their exact name (pure);
- :mod:`.ladder` players ranked by the mean of their best sessions (pure);
- :mod:`.ratings` each player's grade on the percentage scale, updated event by event
  (pure);
- :mod:`.simulate` simulated seasons of players of known strengths, to check the grades;
- :mod:`.combine` an event of several sessions ranked over all of them.

docs/season.md teaches the season end to end.
"""
