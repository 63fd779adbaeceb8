"""Idempotency fingerprints are keyed (cashier/fingerprints.py): a copy of the database does not
let anyone test card numbers against them, and replays keep matching across the change (records
written before it, rewritten or not by migration 0004) and across a SECRET_KEY rotation."""
from __future__ import annotations

import hashlib
import importlib
import json

import pytest
from django.apps import apps

from cashier.models import Deposit, IdempotencyRecord
from cashier.services import CashierError, deposit

from .conftest import SANDBOX_DECLINED, SANDBOX_OK, new_key

pytestmark = pytest.mark.django_db
OTHER_KEY = "an-other-secret-key-of-fifty-random-characters-0123456789"


def bare_sha256(*, user_pk: int, card: str, amount: int = 1_000) -> str:
    """What the room stored before keying: anyone can compute it for a guessed card number."""
    canonical = json.dumps({"operation": "deposit", "user": user_pk, "amount": amount,
                            "provider": "sandbox", "card": card}, sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def pay(user, key: str, card: str = SANDBOX_OK) -> Deposit:
    return deposit(user=user, amount=1_000, provider="sandbox", card_number=card,
                   idempotency_key=key)


def test_a_stored_fingerprint_cannot_be_tested_against_card_numbers(make_player, settings):
    ann = make_player("ann")
    key = new_key()
    pay(ann, key)

    stored = IdempotencyRecord.objects.get(key=key).fingerprint

    assert len(stored) == 64
    guesses = [SANDBOX_OK, SANDBOX_DECLINED, "4242 4242 4242 4242", "4111111111111111"]
    assert stored not in {bare_sha256(user_pk=ann.pk, card=card) for card in guesses}
    # The key decides it: the same request under another SECRET_KEY has another fingerprint.
    settings.SECRET_KEY = OTHER_KEY
    other = new_key()
    pay(ann, other)
    assert IdempotencyRecord.objects.get(key=other).fingerprint != stored


def test_a_record_written_before_keying_still_answers_its_replay(make_player):
    ann = make_player("ann")
    key = new_key()
    first = pay(ann, key)
    IdempotencyRecord.objects.filter(key=key).update(
        fingerprint=bare_sha256(user_pk=ann.pk, card=SANDBOX_OK))  # as the old code wrote it

    assert pay(ann, key).pk == first.pk
    with pytest.raises(CashierError) as conflict:
        pay(ann, key, card=SANDBOX_DECLINED)
    assert conflict.value.code == "idempotency_conflict"
    assert Deposit.objects.count() == 1


def test_the_migration_keys_old_deposit_fingerprints_and_their_replays_still_match(make_player):
    ann = make_player("ann")
    key = new_key()
    first = pay(ann, key)
    old = bare_sha256(user_pk=ann.pk, card=SANDBOX_OK)
    IdempotencyRecord.objects.filter(key=key).update(fingerprint=old)
    migration = importlib.import_module("cashier.migrations.0004_keyed_deposit_fingerprints")

    migration.key_deposit_fingerprints(apps, None)

    rewritten = IdempotencyRecord.objects.get(key=key).fingerprint
    assert rewritten != old and len(rewritten) == 64
    assert pay(ann, key).pk == first.pk
    with pytest.raises(CashierError, match="already used for a different request"):
        pay(ann, key, card=SANDBOX_DECLINED)


def test_a_replay_matches_after_a_key_rotation_while_the_old_key_is_a_fallback(
        make_player, settings):
    ann = make_player("ann")
    key = new_key()
    first = pay(ann, key)
    old_key = settings.SECRET_KEY
    settings.SECRET_KEY = OTHER_KEY

    settings.SECRET_KEY_FALLBACKS = [old_key]
    assert pay(ann, key).pk == first.pk

    settings.SECRET_KEY_FALLBACKS = []  # the old key retired: its records no longer match
    with pytest.raises(CashierError, match="already used for a different request"):
        pay(ann, key)
