"""``blood-royale``: docs/rules.md Parts A and B: descriptor, built-in player, sentences, map."""
