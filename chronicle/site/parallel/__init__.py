"""The parallel build: the one seam through which a build runs work beside itself."""
