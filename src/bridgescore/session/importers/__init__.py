"""Reading files into an event: the importer (the entry, which picks the reader by
content) and one reader a format, each filling a ``Parsed``."""
