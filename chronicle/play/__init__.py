"""Games played by built-in players: ``chronicle demo`` and ``chronicle simulate``."""
