"""The ``chronicle`` command line: click wiring over the public API."""
