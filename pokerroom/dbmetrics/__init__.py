"""The room's PostgreSQL backend with django-prometheus's query metrics (METRICS_DATABASE=1)."""
