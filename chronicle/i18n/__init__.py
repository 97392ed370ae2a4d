"""Every user-facing word in the campaign's language: one catalogue (gettext), the
templates' gettext, the engine's reasons, the command line's messages and the names
content packs give in other languages."""
