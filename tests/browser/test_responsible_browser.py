"""Responsible gaming at the table: a self-excluded player is offered no seat and told why;
the session-length reminder shows at an open table when it falls due, without a reload."""
from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from tests.browser.players import TIMEOUT, log_in, open_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def session_began(page: Page, seconds_ago: float) -> None:
    """Move the browser's session start back, as if its login were that long ago."""
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.play_session import SESSION_STARTED_KEY

    key = next(c["value"] for c in page.context.cookies() if c["name"] == "sessionid")
    session = SessionStore(session_key=key)
    session[SESSION_STARTED_KEY] = (
        timezone.now() - datetime.timedelta(seconds=seconds_ago)).isoformat()
    session.save()


def test_a_self_excluded_player_is_offered_no_seat_and_told_why(room_url, new_page, make_user,
                                                                make_table):
    from cashier.services import self_exclusion_start

    table = make_table(name="Cedar", structure="NL", lower_stake=2)
    self_exclusion_start(user=make_user("sam"), days=30)
    page = new_page("sam")
    log_in(page, room_url, "sam")
    open_table(page, room_url, table.pk)
    expect(page.locator("#sit-blocked")).to_contain_text("You are self-excluded until")
    expect(page.locator(".seat.empty")).to_have_count(9, timeout=TIMEOUT)  # drawn…
    expect(page.locator(".sit-here")).to_have_count(0)  # …but none offered
    expect(page.locator("#buyin-dialog")).not_to_be_visible()


def test_the_session_reminder_shows_at_an_open_table_when_due(room_url, new_page, make_user,
                                                              make_table):
    from cashier.services import session_reminder_set

    table = make_table(name="Maple", structure="NL", lower_stake=2)
    session_reminder_set(user=make_user("rita"), minutes=1)
    page = new_page("rita")
    log_in(page, room_url, "rita")
    session_began(page, 55)  # due in 5 s
    open_table(page, room_url, table.pk)
    reminder = page.locator("#session-reminder")
    expect(reminder).to_be_hidden()
    expect(reminder).to_be_visible(timeout=15_000)  # no reload
    expect(reminder).to_contain_text("the session-length reminder you asked for")
    expect(page.locator("#conn-status")).to_have_text("Connected")  # the same page, still live
