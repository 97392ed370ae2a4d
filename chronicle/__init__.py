"""Chronicle: the store, the command line, order reading and the site generator."""

__version__ = "0.1.0"
