"""The hand viewer page of a review (``bridgescore analyse --html``).

The page is whole without JavaScript: every board's deal, auction, lead table and
play are in the HTML. A small script only adds buttons that step through the tricks
(it hides the tricks after the one shown); with scripts off, every trick shows.
"""

from __future__ import annotations

from html import escape

from bridgescore.postmortem.review import Review, board_html

__all__ = ["review_html"]

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #111; }
section.board { border-top: 1px solid #999; padding: 0.5em 0 1em; }
table.bridgescore { margin: 0.5em 0; }
table.play td, table.play th { padding: 1px 8px; }
.steps button { margin-right: 0.3em; }
"""

# Stepping through the tricks: the rows after the current trick are hidden.
_SCRIPT = """
document.querySelectorAll("section.board").forEach(function (board) {
  var rows = board.querySelectorAll("tr.trick");
  if (!rows.length) { return; }
  var shown = rows.length;
  var bar = document.createElement("div");
  bar.className = "steps";
  var label = document.createElement("span");
  function show() {
    rows.forEach(function (row, i) { row.hidden = i >= shown; });
    label.textContent = " trick " + shown + " of " + rows.length;
  }
  [["first", function () { shown = 1; }], ["back", function () { shown = Math.max(1, shown - 1); }],
   ["next", function () { shown = Math.min(rows.length, shown + 1); }],
   ["all", function () { shown = rows.length; }]].forEach(function (pair) {
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = pair[0];
    button.addEventListener("click", function () { pair[1](); show(); });
    bar.appendChild(button);
  });
  bar.appendChild(label);
  board.querySelector("table.play").before(bar);
  show();
});
"""


def review_html(review: Review, *, title: str = "Review") -> str:
    """The whole page: a heading, then each board (:func:`board_html`)."""
    boards = "".join(board_html(board) for board in review)
    skipped = "".join(
        f"<li>Board {escape(str(item.board or '?'))}: {escape(item.reason)}</li>"
        for item in review.skipped
    )
    notes = f"<h2>Boards not reviewed</h2><ul>{skipped}</ul>" if skipped else ""
    plays = "".join(
        f"<li>Board {escape(str(item.board or '?'))}: {escape(item.reason)}</li>"
        for item in review.skipped_plays
    )
    if plays:
        notes += f"<h2>Plays left out</h2><ul>{plays}</ul>"
    misread = "".join(
        f"<li>Board {escape(str(item.board or '?'))}{f', line {item.line}' if item.line else ''}"
        f": {escape(item.reason)}</li>"
        for item in review.misread
    )
    if misread:
        notes += f"<h2>What the file got wrong</h2><ul>{misread}</ul>"
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{_STYLE}</style></head><body><h1>{escape(title)}</h1>"
        f"{boards}{notes}<script>{_SCRIPT}</script></body></html>\n"
    )
