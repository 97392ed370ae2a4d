"""Content packs: the rules tables, maps and names of each ruleset (package data)."""
