"""How values show themselves in a notebook: HTML fragments (:mod:`.markup`), a board's
heading and diagram (:mod:`.boards`), the words for dealer, vulnerability and par
(:mod:`.wording`) and the pandas extra (:mod:`.frame`).

The values layer: :mod:`.markup` imports only :mod:`bridgescore.core`, so that every
value's ``_repr_html_`` (a deal, a hand, a DD table) can build on it without an import
cycle; :mod:`.boards` builds on the values themselves.
"""
