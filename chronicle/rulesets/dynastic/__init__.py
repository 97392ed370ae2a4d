"""What the dynastic rulesets share on the application side (docs/rules.md Part A):
the descriptor base, Part A's sentences, the dynasty half of the built-in player and the
default site of a dynastic campaign."""
