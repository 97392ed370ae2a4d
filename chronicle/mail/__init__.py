"""Orders by mail and reports mailed back (DESIGN.md "Mailed orders", "Acknowledgements").

- ``contacts``: ``contacts.toml``, the arbiter's private addresses, passphrases
  and SMTP settings (never published, never bundled).
- ``extract``: a received message's order text, stripped of headers, quoted
  replies and signatures; the sender and passphrase checked.
- ``importing``: ``chronicle mail import``, filing orders and keeping every message.
- ``outbox``: the ``.eml`` files waiting in ``outbox/`` (acknowledgements,
  reports and templates), each written once.
- ``sending``: ``chronicle mail send`` by SMTP.
"""

from __future__ import annotations
