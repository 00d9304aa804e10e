"""The live club session's server (``bridgescore session live``): the JSON API, the
table pages, the director's pages and what they show."""
