# Rebuys and add-ons move a prize pool too: two transaction kinds (choices only, no SQL).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('cashier', '0005_tournament_pool'),
    ]

    operations = [
        migrations.AlterField(
            model_name='ledgertransaction',
            name='kind',
            field=models.CharField(choices=[('deposit', 'Deposit'), ('withdrawal_request', 'Withdrawal requested'), ('withdrawal_cancel', 'Withdrawal cancelled'), ('withdrawal_approve', 'Withdrawal paid out'), ('withdrawal_reject', 'Withdrawal rejected'), ('play_grant', 'Play-money grant'), ('play_reload', 'Play-money reload'), ('buy_in', 'Buy-in'), ('top_up', 'Top-up'), ('top_up_refund', 'Top-up refund'), ('cash_out', 'Cash-out'), ('rake', 'Rake'), ('transfer', 'Transfer'), ('tournament_entry', 'Tournament entry'), ('tournament_refund', 'Tournament refund'), ('tournament_overlay', 'Tournament overlay'), ('tournament_prize', 'Tournament prize'), ('tournament_purchase', 'Tournament rebuy or add-on'), ('purchase_refund', 'Tournament rebuy or add-on refund')], max_length=20),
        ),
    ]
