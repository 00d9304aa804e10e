"""The players CSV (session/importers/players_csv.py): a line's section, and the key its
players are kept under: ``B:1N`` in an event of several sections, the bare ``1N`` in an
event of one."""

from __future__ import annotations

from bridgescore.session.importers.players_csv import looks_like_players, parse_players
from bridgescore.session.live.sections import sections_of
from bridgescore.session.scoring.event import Member
from live_movements import three_table_mitchell


def test_a_section_column_is_a_names_files_column() -> None:
    assert looks_like_players("section,pair,player,player\n")
    assert looks_like_players("pair,player,section,player\n")
    assert looks_like_players("pair,player,player\n")
    assert not looks_like_players("section,player,pair\n")  # the pair column first or second
    assert not looks_like_players("pair,section,section,player\n")
    assert not looks_like_players("section,pair\n")  # no player


def test_each_section_keeps_its_own_pairs_players() -> None:
    movements = sections_of(three_table_mitchell(), 2)
    parsed = parse_players(
        ["pair,section,player,player", "1N,A,Ann Archer,Bob Baker", "1N,B,Cate Cole,",
         "3E,B,Dan Dale,Eve Ellis", "3E,,Fay Ford,", "9N,A,Gil Gray,", "1E,C,Hal Hunt,"],
        "names.csv",
        movements=movements,
    )  # fmt: skip
    assert parsed.members == {
        "A:1N": (Member("Ann Archer"), Member("Bob Baker")),
        "B:1N": (Member("Cate Cole"),),
        "B:3E": (Member("Dan Dale"), Member("Eve Ellis")),
    }
    assert [(p.line, p.message) for p in parsed.problems] == [
        (5, "pair '3E': section '': the event has 2 sections, A, B: a line names its "
            "section (a section column)"),
        (6, "pair '9N' is not in section A's movement: expected one of 1N, 1E, 2N, 2E, 3N, 3E"),
        (7, "pair '1E': section 'C': the event has 2 sections, A, B: a line names its "
            "section (a section column)"),
    ]  # fmt: skip


def test_one_sections_pairs_keep_their_bare_labels() -> None:
    movements = sections_of(three_table_mitchell(), 1)
    (section,) = movements
    parsed = parse_players(
        ["section,pair,player", f"{section},1N,Ann Archer", ",2E,Cate Cole", "Z,3N,Dan Dale"],
        "names.csv",
        movements=movements,
    )
    assert parsed.members == {"1N": (Member("Ann Archer"),), "2E": (Member("Cate Cole"),)}
    assert [(p.line, p.message) for p in parsed.problems] == [
        (4, f"pair '3N': section 'Z' is not the event's: expected {section!r} or a blank section")
    ]


def test_without_a_movement_a_named_section_keys_its_pairs() -> None:
    # An imported event has no movement: a line's section keys its players as the
    # results of that section name their pairs.
    parsed = parse_players(["section,pair,player", "A,1NS,Ann Archer", ",2NS,Bob Baker"], "n.csv")
    assert parsed.members == {"A:1NS": (Member("Ann Archer"),), "2NS": (Member("Bob Baker"),)}


def test_a_line_with_more_or_fewer_players_than_the_header_is_bad_and_not_stored() -> None:
    parsed = parse_players(
        ["pair,player,player", "1N,Ann Archer,Bob Baker,Cy Cole", "1E,Dan Dale",
         "2N,Eve Ellis,Fay Ford", "2E,Gil Gray,"],
        "names.csv",
        movements=sections_of(three_table_mitchell(), 1),
    )  # fmt: skip
    # Line 2's third player and line 3's missing cell: each line refused whole; a
    # blank cell (line 5) is a player not known.
    assert parsed.members == {
        "2N": (Member("Eve Ellis"), Member("Fay Ford")),
        "2E": (Member("Gil Gray"),),
    }
    assert [(p.line, p.message) for p in parsed.problems] == [
        (2, "pair '1N': 4 cells where the header names 3 columns (pair,player,player): "
            "expected one cell a column, each player more needs a player column of its own "
            "in the header"),
        (3, "pair '1E': 2 cells where the header names 3 columns (pair,player,player): "
            "expected one cell a column, a blank cell for a player not known"),
    ]  # fmt: skip


def test_a_line_short_of_its_section_cell_is_bad() -> None:
    # The section column last: a line without it would otherwise read as section ''.
    parsed = parse_players(
        ["pair,player,player,section", "1N,Ann Archer,Bob Baker", "1N,Cate Cole,Dan Dale,B"],
        "names.csv",
        movements=sections_of(three_table_mitchell(), 2),
    )
    assert parsed.members == {"B:1N": (Member("Cate Cole"), Member("Dan Dale"))}
    assert [p.line for p in parsed.problems] == [2]
    assert "3 cells where the header names 4 columns" in parsed.problems[0].message


def test_a_number_column_gives_the_player_before_it_a_membership_number() -> None:
    text = ["pair,player,number,player,number", "1N,Ann Archer,1010,Bob Baker,", "2N,,,Cy Cole,7"]
    assert looks_like_players(text[0])
    parsed = parse_players(text, "names.csv")
    assert parsed.problems == []
    assert parsed.members == {
        "1N": (Member("Ann Archer", "1010"), Member("Bob Baker", "")),
        "2N": (Member("Cy Cole", "7"),),
    }


def test_a_number_without_a_name_is_bad_and_a_number_column_needs_its_player() -> None:
    parsed = parse_players(["pair,player,number", "1N,,1010"], "names.csv")
    assert [str(p) for p in parsed.problems] == [
        "names.csv:2: pair '1N': number '1010' has no player's name beside it: expected the "
        "name in the player column before it"
    ]
    assert not looks_like_players("pair,number,player")
