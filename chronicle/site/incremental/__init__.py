"""The incremental build: what a site is made from, hashed, and the diagram cache."""
