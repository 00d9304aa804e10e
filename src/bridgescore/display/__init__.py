"""How values show themselves in a notebook: HTML fragments (:mod:`.markup`), the words
for dealer, vulnerability and par (:mod:`.wording`) and the pandas extra (:mod:`.frame`).

The values layer: it imports only :mod:`bridgescore.core`, so that every value's
``_repr_html_`` (a deal, a hand, a DD table, a board) can build on it without an import
cycle.
"""
