"""PHH export: what pokerkit reads from it ends with our stacks; private cards stay private."""
from __future__ import annotations

import warnings

import pytest
from pokerkit import notation

from tables.engine import phh
from tables.histories import phh_export
from tests.tables.histories.scripted import heads_up_fold, short_big_blind_side_pot


def pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, final = iter(notation.HandHistory.loads(text))
    return list(final.stacks)


@pytest.mark.parametrize("make", [heads_up_fold, short_big_blind_side_pot])
@pytest.mark.parametrize("viewer", [101, 102, 103, None])
def test_pokerkit_replays_every_players_export_to_our_stacks(make, viewer) -> None:
    record = make()
    text = phh_export.hand_text(record, viewer)
    ours = [record.state.player(seat).stack for seat in phh.loads(text).extra["seats"]]
    assert pokerkit_stacks(text) == ours
    assert phh.verify_hand(phh.loads(text)).status == "passed"


def test_export_shows_own_and_shown_cards_only() -> None:
    text = phh_export.hand_text(short_big_blind_side_pot(), 102)  # bob mucked his queens
    assert '"d dh p1 QsQd"' in text  # bob is p1: first left of the button
    assert '"d dh p2 ????"' in text and '"d dh p3 ????"' in text
    assert '"p3 sm KsKd"' in text and '"p2 sm AsAd"' in text and '"p1 sm"' in text
    for viewer in (101, 103, None):
        other = phh_export.hand_text(short_big_blind_side_pot(), viewer)
        assert "Qs" not in other and "Qd" not in other
    hh = phh.loads(text)
    assert hh.extra["players"] == ["bob", "carl", "alice"]
    assert hh.extra["table"] == "Oak" and hh.extra["hand"] == 42


def test_a_selection_is_a_phhs_file_of_numbered_hands() -> None:
    import tomllib

    text = phh_export.hands_text([heads_up_fold(), short_big_blind_side_pot()], 101)
    data = tomllib.loads(text)
    assert sorted(data) == ["1", "2"]
    assert data["1"]["finishing_stacks"] == [19800, 20200]


def test_a_timeout_all_in_is_the_player_all_in_for_what_he_put_in() -> None:
    # Seat 2 (small blind, 5 in) times out facing a raise: timeout all-in. In PHH he starts
    # with the 5 he put in (all-in at once), the 95 he kept are in _stacks_behind.
    from tables.engine import TableRules
    from tables.engine.scripted import ScriptedHand
    from tests.tables.histories.scripted import record_of

    h = ScriptedHand(TableRules(lower_stake=10), {1: 100, 2: 100, 3: 100}, button=1,
                     holes={1: "KsKd", 2: "QsQd", 3: "AsAd"}, board="2c7h9d3s4c")
    h.act(1, "raise", 30)
    h.act(2, "timeout")
    h.act(3, "fold")
    assert h.state.is_over
    timed_out = record_of(h, {1: "alice", 2: "bob", 3: "carl"}, real=False)
    hh = phh.loads(phh_export.hand_text(timed_out, 101))
    assert hh.starting_stacks == [5, 100, 100] and hh.extra["_stacks_behind"] == [95, 0, 0]
    assert "# p1 timed out: all-in for the pot so far" in hh.actions
    true_finish = [a + b for a, b in zip(hh.finishing_stacks, hh.extra["_stacks_behind"],
                                         strict=True)]
    assert true_finish == [h.state.player(s).stack for s in (2, 3, 1)]
    assert phh.verify_hand(hh).status == "passed"
    text = phh_export.hands_text([heads_up_fold(), timed_out], 101)
    assert len(phh.loads_all(text)) == 2
    assert [k for k, _ in phh.loads_all(text)] == ["1", "2"]
