"""Chronicle: the store, the command line, order reading and the site generator."""
