"""The operator dashboard and player pages: custom Django admin views across the cashier,
the tables and the accounts (staff only, through `admin.site.admin_view`)."""
