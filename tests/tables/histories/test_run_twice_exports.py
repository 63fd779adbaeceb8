"""A run-it-twice hand in both exports: PokerStars text with FIRST/SECOND boards and
showdowns as PokerStars writes them; PHH with the first run as the board and the second in
``_second_board`` (PHH has no action for it), read by pokerkit's PHH reader."""
from __future__ import annotations

import datetime
import warnings

from pokerkit import notation

from tables.engine import choose_runs, phh
from tables.histories import phh_export, pokerstars
from tables.histories.record import HandRecord
from tests.engine.test_runs import BOARDS, three_handed

STARTED = datetime.datetime(2026, 11, 23, 13, 41, 10, tzinfo=datetime.UTC)
NAMES = {1: "alice", 2: "bob", 3: "carl"}


def run_twice_record() -> HandRecord:
    """Play money 5/10: alice (button, aces) all in for 100, bob folds his small blind, carl
    (kings) calls; both run it twice: alice's aces hold on the first board, carl's kings make
    a set on the second. Pot 205: 103 to the first run, 102 to the second."""
    state, events = three_handed(BOARDS, run_it_twice=True)
    events += choose_runs(state, 3, True)
    events += choose_runs(state, 1, True)
    assert state.is_over
    return HandRecord(
        hand_id=43, number=8, table_id=1, table_name="Oak", max_seats=6, structure="NL",
        real_money=False, started_at=STARTED, finished_at=STARTED + datetime.timedelta(1),
        state=state, events=events, names=NAMES, users={seat: 100 + seat for seat in NAMES})


def test_pokerstars_writes_first_and_second_boards_and_showdowns() -> None:
    text = pokerstars.hand_text(run_twice_record(), 101)
    tail = text[text.index("*** FIRST FLOP ***"):]
    assert tail.splitlines() == [
        "*** FIRST FLOP *** [2h 7h 9c]",
        "*** FIRST TURN *** [2h 7h 9c] [3s]",
        "*** FIRST RIVER *** [2h 7h 9c 3s] [4c]",
        "*** SECOND FLOP *** [Kh 8c 5d]",
        "*** SECOND TURN *** [Kh 8c 5d] [Jc]",
        "*** SECOND RIVER *** [Kh 8c 5d Jc] [Qh]",
        "*** FIRST SHOW DOWN ***",
        "carl: shows [Ks Kd] (a pair of Kings)",
        "alice: shows [As Ad] (a pair of Aces)",
        "alice collected 103 from pot",
        "*** SECOND SHOW DOWN ***",
        "carl collected 102 from pot",
        "*** SUMMARY ***",
        "Total pot 205 | Rake 0",
        "Hand was run twice",
        "FIRST Board [2h 7h 9c 3s 4c]",
        "SECOND Board [Kh 8c 5d Jc Qh]",
        "Seat 1: alice (button) showed [As Ad] and won (103) with a pair of Aces",
        "Seat 2: bob (small blind) folded before Flop",
        "Seat 3: carl (big blind) showed [Ks Kd] and won (102) with a pair of Kings",
    ]


def test_phh_has_the_second_run_beside_the_first_and_pokerkit_reads_it() -> None:
    text = phh_export.hand_text(run_twice_record(), 103)
    hh = phh.loads(text)
    assert hh.extra["_run_count"] == 2
    assert hh.extra["_second_board"] == ["d db Kh8c5d", "d db Jc", "d db Qh"]
    assert [a for a in hh.actions if a.startswith("d db")] == ["d db 2h7h9c", "d db 3s",
                                                              "d db 4c"]
    assert hh.finishing_stacks == [95, 102, 103]  # bob, carl, alice: as paid, two runs
    assert phh.verify_hand(hh).status == "skipped"  # one run replayed would not match
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, final = iter(notation.HandHistory.loads(text))
    assert list(final.stacks) == [95, 0, 205]  # pokerkit plays the first run only


def test_the_replayer_steps_through_both_runs() -> None:
    from tables.histories.timeline import timeline

    steps = timeline(run_twice_record(), 101)["steps"]
    texts = [s["text"] for s in steps]
    assert "All in: run it twice? (carl, alice)" in texts
    assert texts.index("carl: twice") < texts.index("alice: twice") < texts.index(
        "The board is run twice")
    assert "Second flop [Kh 8c 5d]" in texts and "Second river [Qh]" in texts
    assert texts[-1] == "Pot: first run alice 103; second run carl 102"
    last = steps[-1]["frame"]
    assert last["board"] == ["2h", "7h", "9c", "3s", "4c"]
    assert last["board2"] == ["Kh", "8c", "5d", "Jc", "Qh"]
    assert "board2" not in steps[0]["frame"]
