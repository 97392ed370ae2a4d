"""``familles``: the card game *Les familles nobles* (docs/rules.md Part D): descriptor,
built-in player, sentences and site."""
