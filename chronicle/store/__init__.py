"""The chronicle store: SQLModel tables in one SQLite file per campaign, written one
transaction per turn, and the lock that keeps one writer at a time."""
