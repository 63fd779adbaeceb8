"""PostgreSQL backend of the room (Django's, with fewer round trips; see base.py)."""
