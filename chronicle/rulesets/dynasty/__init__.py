"""``dynasty``: docs/rules.md Part A alone."""
