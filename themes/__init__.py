"""Themes: the Jinja2 templates and static assets of the site (package data)."""
