"""What the room tells its operators: Prometheus metrics (metrics.py) and log lines with their
table and hand (logs.py). A leaf: it imports no app of the room, so every app may import it."""
