"""Breaking and balancing: worked examples of the TDA rules, PokerStars' online practice and
DD Poker's table target. Tables are written as the seats their players sit on; player ``A5`` sits
on seat 5 of table A."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tables.tournaments.engine.balancing import (
    Move,
    SeatedPlayer,
    TableView,
    rebalance,
    seat_newcomer,
    tables_needed,
    target_size,
)


def table(name: str, seats: str | range, *, sb: int | None = None, bb: int | None = None,
          moved: dict[int, int] | None = None, busy: bool = False) -> TableView:
    """``table("A", "1-9", sb=3, bb=4)``: seats 1 to 9 taken, last hand's blinds on 3 and 4."""
    if isinstance(seats, str):
        taken: list[int] = []
        for part in seats.split(","):
            lo, _, hi = part.partition("-")
            taken += range(int(lo), int(hi or lo) + 1)
    else:
        taken = list(seats)
    moved = moved or {}
    return TableView(name, tuple(SeatedPlayer(f"{name}{s}", s, moved.get(s, 0)) for s in taken),
                     last_small_blind=sb, last_big_blind=bb, busy=busy)


def sizes_after(tables: list[TableView], moves: list[Move]) -> dict[str, int]:
    count = Counter({t.table_id: len(t.players) for t in tables})
    for m in moves:
        count[m.from_table] -= 1
        count[m.to_table] += 1
    return {k: v for k, v in count.items() if v}


RNG = random.Random(7)


# -- how many players a table holds (DD Poker's target) -------------------------------------


@pytest.mark.parametrize(("players", "seats", "tables", "target"), [
    (18, 9, 2, 9),   # two full tables
    (19, 9, 3, 7),   # one over: three tables of 7, 6, 6
    (23, 9, 3, 8),
    (45, 10, 5, 9),
    (11, 10, 2, 6),  # 6 and 5, not 10 and 1
    (2, 9, 1, 2),
])
def test_the_field_needs_ceil_n_over_seats_tables_of_at_most_ceil_n_over_tables(
        players: int, seats: int, tables: int, target: int) -> None:
    assert tables_needed(players, seats) == tables
    assert target_size(players, seats) == target


def test_tables_within_one_player_need_no_move() -> None:
    tables = [table("A", "1-9"), table("B", "1-8"), table("C", "2-9")]
    assert rebalance(tables, seats=9, rng=RNG) == []


# -- balancing: who moves ---------------------------------------------------------------------


def test_the_player_due_to_be_big_blind_next_moves_from_the_longest_to_the_shortest_table() -> None:
    # A's last hand: small blind seat 3, big blind seat 4, so seat 5 is big blind next.
    tables = [table("A", "1-9", sb=3, bb=4), table("B", "1-7", sb=1, bb=2)]
    [move] = rebalance(tables, seats=9, rng=RNG)
    assert (move.player_id, move.from_table, move.to_table, move.reason) == ("A5", "A", "B",
                                                                             "balance")


def test_the_big_blind_skips_empty_seats_to_find_the_player_due_next() -> None:
    # Seats 5 and 6 emptied during the hand: the big blind passes them and lands on seat 7.
    tables = [table("A", "1-4,7-9", sb=3, bb=4), table("B", "1-5", sb=1, bb=2)]
    assert rebalance(tables, seats=9, rng=RNG)[0].player_id == "A7"


def test_a_player_moved_before_stays_when_a_player_never_moved_can_go() -> None:
    # A5 is due to be big blind but has already been moved once: A6, next in line, goes instead.
    tables = [table("A", "1-9", sb=3, bb=4, moved={5: 1}), table("B", "1-7", sb=1, bb=2)]
    assert rebalance(tables, seats=9, rng=RNG)[0].player_id == "A6"


def test_when_everyone_has_moved_as_often_the_big_blind_rule_decides_again() -> None:
    tables = [table("A", "1-9", sb=3, bb=4, moved=dict.fromkeys(range(1, 10), 2)),
              table("B", "1-7", sb=1, bb=2)]
    assert rebalance(tables, seats=9, rng=RNG)[0].player_id == "A5"


def test_the_small_blind_just_paid_the_big_blind_and_is_the_last_to_be_moved() -> None:
    # Everybody at A has been moved once except seat 4, who posted the last big blind (and is
    # small blind next): he is the only one never moved, so he goes.
    moved = {s: 1 for s in range(1, 10) if s != 4}
    tables = [table("A", "1-9", sb=3, bb=4, moved=moved), table("B", "1-7", sb=1, bb=2)]
    assert rebalance(tables, seats=9, rng=RNG)[0].player_id == "A4"


# -- balancing: where he sits -----------------------------------------------------------------


def test_he_takes_the_worst_seat_the_one_that_posts_the_big_blind_soonest() -> None:
    # B's last blinds: 1 and 2; seat 3 is the next big blind. Empty: 8 and 9. Seat 8 posts the
    # big blind after seats 3..7, seat 9 one hand later: seat 8 is the worst.
    tables = [table("A", "1-9", sb=3, bb=4), table("B", "1-7", sb=1, bb=2)]
    [move] = rebalance(tables, seats=9, rng=RNG)
    assert (move.to_seat, move.waits_for_big_blind) == (8, False)


def test_he_takes_a_single_big_blind_when_one_is_available() -> None:
    # TDA: "including single big blind if available". B's last big blind was seat 3; seat 4 is
    # empty, so the big blind skips to seat 5... unless he sits on 4: he posts it next hand.
    tables = [table("A", "1-9", sb=3, bb=4), table("B", "1-3,5-7", sb=2, bb=3)]
    [move, *_] = rebalance(tables, seats=9, rng=RNG)
    assert (move.to_table, move.to_seat, move.waits_for_big_blind) == ("B", 4, False)


def test_never_into_the_small_blind() -> None:
    # B's last big blind (seat 3) busted: seat 3 is next hand's dead small blind. Seats 3 and 9
    # are free; he takes 9. (A short table always has two free seats, so one is never the
    # small blind's.)
    tables = [table("A", "1-9", sb=3, bb=4), table("B", "1-2,4-8", sb=2, bb=3)]
    [move] = rebalance(tables, seats=9, rng=RNG)
    assert move.to_seat == 9


def test_never_into_the_small_blind_even_when_its_seat_number_comes_first() -> None:
    # B's last blinds: 8 and 1; seat 1's player busted. Next hand: button 8, dead small blind 1,
    # big blind 2. Free: 9 (between the button and the small blind) and 1 (the small blind).
    # Both would post the big blind last; he takes 9, never 1, and waits there.
    tables = [table("A", "1-9", sb=3, bb=4), table("B", "2-8", sb=8, bb=1)]
    [move] = rebalance(tables, seats=9, rng=RNG)
    assert (move.to_seat, move.waits_for_big_blind) == (9, True)


def test_a_heads_up_table_receives_as_the_three_handed_table_it_becomes() -> None:
    # Four seats. B played heads-up: seat 1 button and small blind, seat 3 big blind. Three-
    # handed, the big blind moves on from seat 3: a player on free seat 4 takes it at once, one
    # on seat 2 only after seat 1. He goes to seat 4 and is dealt in.
    tables = [table("A", "1-4", sb=1, bb=2), table("B", [1, 3], sb=1, bb=3)]
    [move] = rebalance(tables, seats=4, rng=RNG)
    assert (move.to_table, move.to_seat, move.waits_for_big_blind) == ("B", 4, False)


def test_a_seat_between_the_button_and_the_small_blind_waits_for_the_big_blind() -> None:
    # B's last blinds: small on 2, big on 4 (seat 3 was empty); the big blind then busted. Next
    # hand: button 2, dead small blind 4, big blind 5. B's free seats: 3 (between the button and
    # the small blind) and 4 (the small blind, never). He sits on 3 and waits for the big blind.
    tables = [table("A", "1-9", sb=3, bb=4), table("B", "1-2,5-9", sb=2, bb=4)]
    [move] = rebalance(tables, seats=9, rng=RNG)
    assert (move.to_seat, move.waits_for_big_blind) == (3, True)


def test_tda_illustration_ten_nine_nine_nine_eight_is_balanced_online() -> None:
    # Ante Up's TDA column calls 10-9-9-9-8 "just fine" for a live room keeping tables within
    # two; online (PokerStars) tables stay within one, so one player moves from the 10 to the 8.
    tables = [table("T1", "1-10", sb=1, bb=2), table("T2", "1-9", sb=1, bb=2),
              table("T3", "1-9", sb=1, bb=2), table("T4", "1-9", sb=1, bb=2),
              table("T5", "1-8", sb=1, bb=2)]
    moves = rebalance(tables, seats=10, rng=RNG)
    assert [(m.player_id, m.to_table) for m in moves] == [("T13", "T5")]
    assert set(sizes_after(tables, moves).values()) == {9}


def test_moves_are_spread_over_the_tables() -> None:
    # 10, 10, 6, 6 at ten-seat tables: four moves, each long table gives two and each short
    # table receives two, alternately.
    tables = [table("A", "1-10", sb=1, bb=2), table("B", "1-10", sb=1, bb=2),
              table("C", "1-6", sb=1, bb=2), table("D", "1-6", sb=1, bb=2)]
    moves = rebalance(tables, seats=10, rng=RNG)
    assert [(m.from_table, m.to_table) for m in moves] == [("A", "C"), ("B", "D"), ("A", "C"),
                                                           ("B", "D")]
    assert sizes_after(tables, moves) == {"A": 8, "B": 8, "C": 8, "D": 8}


def test_of_two_equally_long_tables_the_one_that_has_not_given_yet_gives() -> None:
    # 10, 9, 6, 6 at ten seats: A gives to C; then A and B both have 9, and B, which has not
    # given yet, gives to D; then A gives again.
    tables = [table("A", "1-10", sb=1, bb=2), table("B", "1-9", sb=1, bb=2),
              table("C", "1-6", sb=1, bb=2), table("D", "1-6", sb=1, bb=2)]
    moves = rebalance(tables, seats=10, rng=RNG)
    assert [(m.from_table, m.to_table) for m in moves] == [("A", "C"), ("B", "D"), ("A", "C")]


def test_each_move_takes_the_next_player_due_the_big_blind() -> None:
    # A gives two: seat 3 is big blind next, then seat 4.
    tables = [table("A", "1-9", sb=1, bb=2), table("B", "1-5", sb=1, bb=2)]
    moves = rebalance(tables, seats=9, rng=RNG)
    assert [m.player_id for m in moves] == ["A3", "A4"]
    # B's big blind goes 3, 4, 5 next: free seat 6 posts it right after them, then 7.
    assert [m.to_seat for m in moves] == [6, 7]


def test_nobody_moves_twice_and_a_table_that_received_never_gives() -> None:
    tables = [table("A", "1-9", sb=1, bb=2), table("B", "1-9", sb=1, bb=2),
              table("C", "1-4", sb=1, bb=2)]
    moves = rebalance(tables, seats=9, rng=RNG)
    players = [m.player_id for m in moves]
    assert len(players) == len(set(players))
    assert not {m.from_table for m in moves} & {m.to_table for m in moves}
    assert sorted(sizes_after(tables, moves).values()) == [7, 7, 8]


# -- breaking ---------------------------------------------------------------------------------


def test_tda_illustration_ten_empty_seats_break_a_table() -> None:
    # Five ten-seat tables of 9, 9, 8, 8, 6: forty players fit four tables, so the 6 breaks and
    # every other table is full.
    tables = [table("T1", "1-9"), table("T2", "1-9"), table("T3", "1-8"), table("T4", "1-8"),
              table("T5", "1-6")]
    moves = rebalance(tables, seats=10, rng=random.Random(1))
    assert {m.from_table for m in moves} == {"T5"} and {m.reason for m in moves} == {"break"}
    assert sizes_after(tables, moves) == {"T1": 10, "T2": 10, "T3": 10, "T4": 10}


def test_the_table_with_fewest_players_breaks_and_its_players_fill_the_shortest_tables() -> None:
    # 8 + 7 + 3 = 18 fit two nine-seat tables: C breaks; B (7) fills first, then both.
    tables = [table("A", "1-8"), table("B", "1-7"), table("C", "1-3")]
    moves = rebalance(tables, seats=9, rng=random.Random(3))
    assert len(moves) == 3 and {m.from_table for m in moves} == {"C"}
    assert moves[0].to_table == "B"
    assert sizes_after(tables, moves) == {"A": 9, "B": 9}


def test_of_two_equally_short_tables_the_one_listed_last_breaks() -> None:
    tables = [table("A", "1-6"), table("B", "1-3"), table("C", "1-3")]
    moves = rebalance(tables, seats=9, rng=RNG)
    assert {m.from_table for m in moves} == {"C"}
    assert sorted(sizes_after(tables, moves).values()) == [6, 6]


def test_broken_table_players_draw_random_seats() -> None:
    tables = [table("A", "1-4"), table("B", "1-4"), table("C", "1-2")]
    draws = {tuple((m.player_id, m.to_table, m.to_seat) for m in
                   rebalance(tables, seats=9, rng=random.Random(k))) for k in range(20)}
    assert len(draws) > 10  # the draw is random...
    for draw in draws:  # ...but always onto free seats, one player each
        landed = [(t, s) for _, t, s in draw]
        assert len(set(landed)) == 2 and all(s >= 5 for _, s in landed)


def test_from_a_broken_table_he_is_dealt_in_on_the_blinds_or_the_button() -> None:
    # A's only free seat is 4, where the last big blind busted: next hand's dead small blind.
    # TDA: a player from a broken table "can get any seat including small or big blind or the
    # button and be dealt in": he posts the small blind.
    tables = [table("A", "1-3,5-9", sb=3, bb=4), table("B", "1")]
    [move] = rebalance(tables, seats=9, rng=RNG)
    assert (move.to_table, move.to_seat, move.waits_for_big_blind) == ("A", 4, False)


def test_from_a_broken_table_he_waits_between_the_small_blind_and_the_button() -> None:
    # A's last blinds: small on 2, big on 4. Next hand the button is on 2 and the small blind on
    # 4: seat 3, A's only free seat, lies between them. He sits there and waits for the big blind.
    tables = [table("A", "1-2,4-9", sb=2, bb=4), table("B", "1")]
    [move] = rebalance(tables, seats=9, rng=RNG)
    assert (move.to_seat, move.waits_for_big_blind) == (3, True)


def test_tables_that_have_not_dealt_yet_deal_everyone_in() -> None:
    tables = [table("A", "1-5"), table("B", "1-2")]
    moves = rebalance(tables, seats=9, rng=RNG)
    assert len(moves) == 2 and not any(m.waits_for_big_blind for m in moves)


def test_the_final_table_takes_everybody() -> None:
    tables = [table("A", "1-3"), table("B", "1-3"), table("C", "1-2")]
    moves = rebalance(tables, seats=9, rng=random.Random(5))
    after = sizes_after(tables, moves)
    # The two shortest break together: C (2) and, of the equal A and B, B, listed last.
    assert after == {"A": 8}
    assert len(moves) == 5  # C's two and B's three: nobody moves twice


def test_two_heads_up_tables_become_one_four_handed_table() -> None:
    tables = [table("A", [1, 5], sb=5, bb=1), table("B", [2, 7], sb=7, bb=2)]
    moves = rebalance(tables, seats=9, rng=RNG)
    assert [(m.from_table, m.to_table) for m in moves] == [("B", "A"), ("B", "A")]


# -- tables in the middle of a hand ---------------------------------------------------------


def test_a_table_in_a_hand_gives_nobody_and_the_next_longest_gives() -> None:
    tables = [table("A", "1-9", sb=3, bb=4, busy=True), table("B", "1-9", sb=1, bb=2),
              table("C", "1-7", sb=1, bb=2)]
    moves = rebalance(tables, seats=9, rng=RNG)
    assert [(m.player_id, m.to_table) for m in moves] == [("B3", "C")]


def test_a_table_due_to_break_in_a_hand_breaks_after_it_and_nothing_moves_before() -> None:
    tables = [table("A", "1-8"), table("B", "1-6"), table("C", "1-3", busy=True)]
    assert rebalance(tables, seats=9, rng=RNG) == []


def test_a_table_in_a_hand_may_receive() -> None:
    tables = [table("A", "1-9", sb=3, bb=4), table("B", "1-7", sb=1, bb=2, busy=True)]
    assert [m.to_table for m in rebalance(tables, seats=9, rng=RNG)] == ["B"]


def test_two_players_on_one_seat_are_refused() -> None:
    bad = TableView("A", (SeatedPlayer("x", 1), SeatedPlayer("y", 1)))
    with pytest.raises(ValueError):
        rebalance([bad], seats=9, rng=RNG)


# -- late registration and re-entry -------------------------------------------------------------


def test_a_late_registrant_draws_a_seat_at_the_shortest_table_not_between_sb_and_button() -> None:
    # B is shortest. Its last blinds: 2 and 4; next hand button 2, small blind 4: seat 3 is between.
    tables = [table("A", "1-9", sb=3, bb=4), table("B", "1-2,4-7", sb=2, bb=4)]
    seats = {seat_newcomer(tables, seats=9, rng=random.Random(k)) for k in range(30)}
    assert {s.table_id for s in seats} == {"B"}
    assert {s.seat for s in seats} == {8, 9} and not any(s.waits_for_big_blind for s in seats)


def test_a_late_registrant_waits_when_the_only_free_seat_is_between_sb_and_button() -> None:
    tables = [table("A", "1-2,4-9", sb=2, bb=4)]
    seating = seat_newcomer(tables, seats=9, rng=RNG)
    assert seating is not None and (seating.seat, seating.waits_for_big_blind) == (3, True)


def test_no_seat_for_a_late_registrant_when_every_table_is_full() -> None:
    assert seat_newcomer([table("A", "1-9")], seats=9, rng=RNG) is None


def test_a_table_down_to_two_players_seats_a_newcomer_as_the_three_handed_table_it_becomes() -> None:
    # Six seats; last hand small blind 2, big blind 4, and only seats 1 and 2 are left. With a
    # newcomer the next hand is three-handed: button 2, dead small blind 4, big blind 1. Seat 3
    # lies between the button and the small blind, so a late registrant never draws it.
    tables = [table("B", [1, 2], sb=2, bb=4)]
    seats = {seat_newcomer(tables, seats=6, rng=random.Random(k)) for k in range(40)}
    assert {s.seat for s in seats} == {4, 5, 6} and not any(s.waits_for_big_blind for s in seats)
