"""Public view models: a campaign store loaded into what pages and templates may read."""
