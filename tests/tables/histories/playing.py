"""Finished hands for the histories' tests, played through the services with a known deck."""
from __future__ import annotations

from tables import services
from tables.engine import legal_actions
from tables.models import Hand
from tests.tables.helpers import live, to_act_user

SEED = bytes(range(32))


def act(table_id: int, action: str, amount: int | None = None) -> None:
    ts = live(table_id)[0]
    services.act(table_id=table_id, user_id=to_act_user(table_id), action=action,
                 amount=amount, expected_version=ts.version)


def fold_preflop(table_id: int) -> Hand:
    """The first player to act folds (heads-up: the button), the big blind wins."""
    hand = services.hand_start(table_id=table_id, force=True)
    act(table_id, "fold")
    hand.refresh_from_db()
    assert hand.finished_at is not None
    return hand


def check_down_first_shows_others_muck(table_id: int) -> Hand:
    """Everyone calls and checks to the river; at showdown the first shows, then a hand that
    can win is shown and one that cannot is mucked (the room's tables decide by themselves;
    a table asking for show or muck gets the first to show and the rest to muck)."""
    hand = services.hand_start(table_id=table_id, force=True)
    shown = False
    while to_act_user(table_id) is not None:
        state = live(table_id)[2]
        la = legal_actions(state)
        if la.show:
            act(table_id, "muck" if shown and la.muck else "show")
            shown = True
        else:
            act(table_id, "check" if la.check else "call")
    hand.refresh_from_db()
    return hand
