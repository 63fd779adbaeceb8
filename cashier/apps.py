from __future__ import annotations

from django.apps import AppConfig


class CashierConfig(AppConfig):
    name = "cashier"
    verbose_name = "Cashier"

    def ready(self) -> None:
        from accounts.signals import user_signed_up
        from cashier import receivers

        user_signed_up.connect(
            receivers.grant_play_money_on_sign_up, dispatch_uid="cashier_play_money_grant"
        )
