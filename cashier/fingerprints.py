"""Fingerprints of money-moving requests' parameters (IdempotencyRecord.fingerprint).

A deposit's parameters include the card number. A bare SHA-256 of them could be reversed from
a copy of the database by trying every card number (a card has few unknown digits once its
issuer, the user and the amount are known), so a fingerprint is an HMAC-SHA256 keyed with a key
derived from SECRET_KEY (Django's `salted_hmac`): without the key, nobody can test a guess.

What is keyed is the SHA-256 digest of the canonical parameters, so the fingerprints stored
before keying (that digest itself) could be rewritten in place (migration cashier 0004) and a
replay of their requests still matches. Comparison also accepts a fingerprint made with any key
of SECRET_KEY_FALLBACKS (a key being rotated out), and a bare digest (a record written before
keying that the migration left as it was: no card number in it)."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "cashier.idempotency.fingerprint"  # also frozen in migration cashier 0004


def params_digest(operation: str, params: dict[str, Any]) -> str:
    """The SHA-256 hex digest of the canonical parameters (never stored as it is any more)."""
    canonical = json.dumps({"operation": operation, **params}, sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def keyed(digest: str, secret: str | None = None) -> str:
    """The stored fingerprint of `digest`: 64 hex characters, keyed."""
    return salted_hmac(SALT, digest, secret=secret or settings.SECRET_KEY,
                       algorithm="sha256").hexdigest()


def fingerprint(operation: str, params: dict[str, Any]) -> str:
    return keyed(params_digest(operation, params))


def fingerprint_matches(stored: str, operation: str, params: dict[str, Any]) -> bool:
    """Was `stored` made from these parameters (with the key, a fallback key, or none)?"""
    digest = params_digest(operation, params)
    secrets = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    return any(constant_time_compare(stored, candidate)
               for candidate in [*(keyed(digest, s) for s in secrets), digest])
