from django.db import migrations, models


class Migration(migrations.Migration):
    """Stale-action checks read one column instead of the event log. A hand running during the
    upgrade counts as moved at the table's current version (the conservative choice)."""

    dependencies = [
        ("tables", "0003_hand_timer_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="tablestate",
            name="hand_moved_version",
            field=models.BigIntegerField(default=0),
        ),
        migrations.RunSQL(
            "UPDATE tables_tablestate SET hand_moved_version = version",
            reverse_sql=migrations.RunSQL.noop,
        ),
    ]
