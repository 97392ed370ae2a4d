"""A turn: check, adjudicate, preview, rollback and recovery, and the private reports."""
