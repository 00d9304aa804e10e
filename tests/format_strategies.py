"""Hypothesis strategies for board records every format can hold, shared by the
format tests: legal auctions with alerts, legal (partial) plays, claims, names."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import strategies as st

from bridgescore import Seat, Vulnerability
from bridgescore.auction import Auction
from bridgescore.deal import Card, Deal, Hand
from bridgescore.formats import BoardRecord, RecordedCall
from bridgescore.play import Play

_NAME = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéöüßøñ.'- ",
    min_size=0,
    max_size=12,
).map(lambda text: " ".join(text.split()))
# A kept tag with a section (PBN's table rows), which LIN writes as + rows.
_TABLE = (("OptimumResultTable", "Declarer;Denomination\\2R;Result\\2R\nN NT 1\nN S 10"),)
_EXPLANATIONS = ("", "15-17", "transfer to hearts", "weak, 6+ cards", "Stayman: 4M?")


def _deal(rng: random.Random) -> Deal:
    cards = [Card.from_index(index) for index in range(52)]
    rng.shuffle(cards)
    return Deal(tuple(Hand(frozenset(cards[i * 13 : (i + 1) * 13])) for i in range(4)))  # type: ignore[arg-type]


def _auction(rng: random.Random, dealer: Seat) -> tuple[Auction, list[RecordedCall]]:
    auction = Auction(dealer)
    calls: list[RecordedCall] = []
    while not auction.is_complete:
        legal = auction.legal_calls()
        force_pass = len(calls) > 16 or rng.random() < 0.45
        call = legal[0] if force_pass and legal[0].is_pass else rng.choice(legal)
        auction.append(call)
        explanation = rng.choice(_EXPLANATIONS) if rng.random() < 0.3 else ""
        alerted = bool(explanation) or rng.random() < 0.1
        calls.append(RecordedCall(str(call), alerted, explanation))
    return auction, calls


@st.composite
def records(draw: st.DrawFn) -> BoardRecord:
    """A record that PBN, LIN and JSON can all hold exactly."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    deal = _deal(rng)
    board = draw(st.integers(1, 64))
    dealer = draw(st.sampled_from(list(Seat)))
    vulnerability = draw(st.none() | st.sampled_from(list(Vulnerability)))
    players = tuple(draw(_NAME) for _ in range(4))
    auction, calls = _auction(rng, dealer)
    contract = auction.contract
    play: tuple[Card, ...] | None = None
    claim = None
    if contract is not None:
        if draw(st.booleans()):
            game = Play(deal, contract)
            # At least one card: LIN has no way to say "a play of no card".
            for _ in range(rng.choice((1, 4, 13, 30, 52))):
                game.play(rng.choice(game.legal_cards()))
            play = game.cards
            if len(play) < 52:
                left = 13 - len(play) // 4
                claim = game.declarer_tricks + rng.randint(0, left)
        elif draw(st.booleans()):
            claim = rng.randint(0, 13)
    room = draw(st.sampled_from([None, "open", "closed"]))
    return BoardRecord(
        board=board,
        dealer_seat=dealer,
        vulnerable=vulnerability,
        deal=deal,
        players=(players[0], players[1], players[2], players[3]),
        event=draw(_NAME),
        home_team=draw(_NAME),
        visit_team=draw(_NAME),
        table=draw(st.sampled_from(["", "1", "12"])),
        room=room,
        auction=tuple(calls),
        play=play,
        claim=claim,
        contract=contract,
        passed_out=contract is None,
        result=claim,
        scores=draw(st.sampled_from([(), (("Score", "NS 420"),), (("ScoreIMP", "NS 3"),)])),
        dd_tricks=draw(st.sampled_from(["", "78697786976573665746"])),
        optimum_score=draw(st.sampled_from(["", "NS 620"])),
        notes=draw(st.sampled_from([(), (("Site", "Paris"),), (("Stage", "Round 4"),), _TABLE])),
    )


# Text a user may type into any field: quotes, backslashes, LIN's '|', CSV's comma,
# PBN's ';', line breaks, non-ASCII letters and symbols, and nothing at all. Blanks
# stay inside (readers trim a value's ends, as every format's reader of names does),
# and PBN's "?" (unknown) and "#" (as the game before) are left out: they are words
# of the format, not text.
AWKWARD = (
    st.text(alphabet="ab \"\\|,;\n\r'éß漢€♠%{}[]=!", min_size=0, max_size=12)
    .map(lambda text: text.strip(" "))
    .filter(lambda text: text not in ("?", "#"))
)


@st.composite
def awkward_records(draw: st.DrawFn) -> BoardRecord:
    """A record of :func:`records` with awkward text (:data:`AWKWARD`) in every field
    that holds text: event, players, teams and the explanations of the calls."""
    record = draw(records())
    calls = tuple(
        RecordedCall(call.call, call.alerted, draw(AWKWARD)) if call.alerted else call
        for call in record.auction or ()
    )
    players = tuple(draw(AWKWARD) for _ in range(4))
    return replace(
        record,
        event=draw(AWKWARD),
        players=(players[0], players[1], players[2], players[3]),
        home_team=draw(AWKWARD),
        visit_team=draw(AWKWARD),
        auction=calls,
    )


@st.composite
def board_set_records(draw: st.DrawFn) -> BoardRecord:
    """A board of a set, as ``deal --boards`` writes it (every format, CSV included,
    holds it): number, dealer, vulnerability, deal, analysis, and an awkward event."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    analysed = draw(st.booleans())
    return BoardRecord(
        board=draw(st.integers(1, 64)),
        dealer_seat=draw(st.sampled_from(list(Seat))),
        vulnerable=draw(st.sampled_from(list(Vulnerability))),
        deal=_deal(rng),
        event=draw(AWKWARD),
        dd_tricks="78697786976573665746" if analysed else "",
        optimum_score=draw(st.sampled_from(["NS 620", "NS -100", "NS 0"])) if analysed else "",
    )
