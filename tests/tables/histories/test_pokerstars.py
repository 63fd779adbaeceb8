"""PokerStars text, worked examples: whole hands as trackers read them, per viewer."""
from __future__ import annotations

from tables.histories import pokerstars
from tests.tables.histories.scripted import heads_up_fold, short_big_blind_side_pot

ALICE, BOB, CARL = 101, 102, 103

HEADS_UP_FOLD_FOR_ALICE = """\
PokerStars Hand #42:  Hold'em No Limit ($1/$2 USD) - 2026/11/23 13:41:10 UTC [2026/11/23 8:41:10 ET]
Table 'Oak' 6-max Seat #3 is the button
Seat 1: alice ($200 in chips)
Seat 3: bob ($200 in chips)
bob: posts small blind $1
alice: posts big blind $2
*** HOLE CARDS ***
Dealt to alice [Ah Kd]
bob: raises $4 to $6
alice: folds
Uncalled bet ($4) returned to bob
bob collected $4 from pot
bob: doesn't show hand
*** SUMMARY ***
Total pot $4 | Rake $0
Seat 1: alice (big blind) folded before Flop
Seat 3: bob (button) (small blind) collected ($4)
"""


def test_heads_up_fold_preflop_whole_text() -> None:
    assert pokerstars.hand_text(heads_up_fold(), ALICE) == HEADS_UP_FOLD_FOR_ALICE


def test_the_other_player_gets_his_own_cards_and_never_the_folded_hand() -> None:
    text = pokerstars.hand_text(heads_up_fold(), 103)  # bob sits in seat 3 here
    assert "Dealt to bob [7c 2d]" in text
    assert "Ah" not in text and "Kd" not in text
    assert text.replace("Dealt to bob [7c 2d]", "Dealt to alice [Ah Kd]") == HEADS_UP_FOLD_FOR_ALICE


SIDE_POT_FOR_BOB = """\
PokerStars Hand #42:  Hold'em No Limit (5/10) - 2026/11/23 13:41:10 UTC [2026/11/23 8:41:10 ET]
Table 'Oak' 6-max (Play Money) Seat #1 is the button
Seat 1: alice (100 in chips)
Seat 2: bob (100 in chips)
Seat 3: carl (4 in chips)
bob: posts small blind 5
carl: posts big blind 4 and is all-in
*** HOLE CARDS ***
Dealt to bob [Qs Qd]
alice: raises 20 to 30
bob: calls 25
*** FLOP *** [2c 7h 9d]
bob: checks
alice: checks
*** TURN *** [2c 7h 9d] [3s]
bob: checks
alice: checks
*** RIVER *** [2c 7h 9d 3s] [4c]
bob: checks
alice: bets 20
bob: calls 20
*** SHOW DOWN ***
alice: shows [Ks Kd] (a pair of Kings)
bob: mucks hand
carl: shows [As Ad] (a pair of Aces)
alice collected 92 from side pot
carl collected 12 from main pot
*** SUMMARY ***
Total pot 104 Main pot 12. Side pot 92. | Rake 0
Board [2c 7h 9d 3s 4c]
Seat 1: alice (button) showed [Ks Kd] and won (92) with a pair of Kings
Seat 2: bob (small blind) mucked [Qs Qd]
Seat 3: carl (big blind) showed [As Ad] and won (12) with a pair of Aces
"""


def test_showdown_with_a_side_pot_whole_text_play_money_without_dollars() -> None:
    # The short big blind (4) leaves the bet at 10: alice's raise to 30 is "raises 20 to 30".
    assert pokerstars.hand_text(short_big_blind_side_pot(), BOB) == SIDE_POT_FOR_BOB


def test_mucked_cards_never_reach_another_player() -> None:
    for viewer in (ALICE, CARL, None):
        text = pokerstars.hand_text(short_big_blind_side_pot(), viewer)
        assert "Qs" not in text and "Qd" not in text
        assert "Seat 2: bob (small blind) mucked\n" in text
    assert "Dealt to carl [As Ad]" in pokerstars.hand_text(short_big_blind_side_pot(), CARL)
    assert "Dealt to" not in pokerstars.hand_text(short_big_blind_side_pot(), None)


def test_every_hand_is_followed_by_two_blank_lines_as_pokerstars_writes() -> None:
    # pokerkit's PokerStars parser (like the trackers) splits a file into hands on them.
    from pokerkit import PokerStarsParser

    text = pokerstars.hands_text([heads_up_fold(), heads_up_fold()], ALICE)
    assert text == HEADS_UP_FOLD_FOR_ALICE + "\n\n" + HEADS_UP_FOLD_FOR_ALICE + "\n\n"
    assert len(PokerStarsParser.HAND.findall(text)) == 2


def test_a_timeout_is_written_before_what_the_server_did() -> None:
    from tables.engine import TableRules
    from tables.engine.scripted import ScriptedHand
    from tests.tables.histories.scripted import record_of

    h = ScriptedHand(TableRules(lower_stake=10), {1: 100, 2: 100, 3: 100}, button=1,
                     holes={1: "KsKd", 2: "QsQd", 3: "AsAd"}, board="2c7h9d3s4c")
    h.act(1, "raise", 30)
    h.act(2, "timeout")  # 5 in the pot: timeout all-in, in for the pot so far
    h.act(3, "fold")
    text = pokerstars.hand_text(record_of(h, {1: "alice", 2: "bob", 3: "carl"}, real=False), BOB)
    # PokerStars' own words for a disconnected player's all-in protection: no action line.
    assert "alice: raises 20 to 30\nbob has timed out while being disconnected\n" \
        "carl: folds\n" in text
    assert "stays in" not in text
