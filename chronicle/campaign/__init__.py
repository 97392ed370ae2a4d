"""The campaign folder (DESIGN contract in docs/design.md): its ``campaign.toml`` and
its spec, the scaffold of a new one, order files, deadlines and the installed
content packs."""
