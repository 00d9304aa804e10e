"""The morning after: a player's post-mortem of the boards played.

Each board's result against double dummy and par, the opening lead's cost for every
card the leader held, each played card's cost to its side, and single-dummy lead
advice from dealt layouts of the hidden hands.
"""
