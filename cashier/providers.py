"""Payment providers behind one small interface.

`sandbox` answers at once from documented test card numbers (development and demos);
`manual` only records a request that an admin approves or rejects in Django admin.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Literal, Protocol

ProviderStatus = Literal["approved", "declined", "pending"]


@dataclass(frozen=True)
class ProviderResult:
    status: ProviderStatus
    reference: str
    message: str


class PaymentProvider(Protocol):
    name: str
    label: str

    def charge(self, *, amount: int, card_number: str) -> ProviderResult:
        """Ask for `amount` cents. Must not move ledger money itself."""
        ...


# Documented in docs/cashier.md. Any other well-formed number is declined as unknown.
SANDBOX_CARDS: dict[str, tuple[ProviderStatus, str]] = {
    "4242424242424242": ("approved", "Approved (sandbox)."),
    "5555555555554444": ("approved", "Approved (sandbox)."),
    "4000000000000002": ("declined", "Card declined (sandbox)."),
    "4000000000009995": ("declined", "Insufficient funds on the card (sandbox)."),
    "4000000000000069": ("declined", "Card expired (sandbox)."),
}


class SandboxProvider:
    name = "sandbox"
    label = "Sandbox card (test numbers)"

    def charge(self, *, amount: int, card_number: str) -> ProviderResult:
        digits = "".join(ch for ch in card_number if ch.isdigit())
        status, message = SANDBOX_CARDS.get(
            digits, ("declined", "Unknown card: use a sandbox test card number.")
        )
        return ProviderResult(status=status, reference=f"sbx_{secrets.token_hex(8)}",
                              message=message)


class ManualProvider:
    name = "manual"
    label = "Bank transfer (approved by staff)"

    def charge(self, *, amount: int, card_number: str) -> ProviderResult:
        return ProviderResult(
            status="pending", reference=f"man_{secrets.token_hex(8)}",
            message="Waiting for a cashier to confirm the transfer.",
        )


PROVIDERS: dict[str, PaymentProvider] = {
    provider.name: provider for provider in (SandboxProvider(), ManualProvider())
}


def provider_get(name: str) -> PaymentProvider | None:
    return PROVIDERS.get(name)
