"""The dynastic rules every dynastic ruleset shares (docs/rules.md Part A): births,
reference numbers, deaths, epidemics, succession, marriage, command and capture.

A library, not a ruleset: ``adjudicator.rulesets.dynasty`` plays it alone, and
``adjudicator.rulesets.blood_royale`` plays it before its own Part B.
"""
