"""LIN, Bridge Base Online's format: hand records, vugraph archives and handviewer links.

- :mod:`.tags`: the ``tag|value|`` tokens, the hands of an ``md`` value and the
  tables both directions share;
- :mod:`.reader`: :func:`read_lin`, LIN text or a handviewer link to board records;
- :mod:`.writer`: :func:`format_lin`, any record as one handviewer line, and
  :func:`handviewer_link`.

>>> (record,) = read_lin("ah|Board 5|mb|1N|mb|p|mb|p|mb|p|")
>>> record.board, [call.call for call in record.auction]
(5, ['1NT', 'Pass', 'Pass', 'Pass'])
"""

from __future__ import annotations

from bridgescore.formats.lin.reader import lin_from_link, read_lin
from bridgescore.formats.lin.writer import HANDVIEWER, format_lin, handviewer_link, lin_value

__all__ = ["HANDVIEWER", "format_lin", "handviewer_link", "lin_from_link", "lin_value", "read_lin"]
