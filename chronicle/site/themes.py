"""Themes: the layered template lookup and the static files of a site.

A campaign's own ``theme/`` folder comes first, then the theme it chooses,
then the base theme, for templates and static files alike. One Jinja
environment serves each (chain, language), so templates compile once.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import jinja2
import jinja2.sandbox

from chronicle.errors import PublishError
from chronicle.i18n.catalogue import translations
from chronicle.i18n.grammar import FINISHING
from chronicle.i18n.template_gettext import markup_gettext, markup_said_of


class LayerLoader(jinja2.FileSystemLoader):
    """Templates of the theme layers, none reached through a link out of its layer.

    As with static files: a campaign received whole could carry a template
    that links to a file of the machine that builds it, which would then be
    published. A layer's own folder may be a link (a shared theme).
    """

    def get_source(self, environment: jinja2.Environment,
                   template: str) -> tuple[str, str, Callable[[], bool]]:
        source, filename, uptodate = super().get_source(environment, template)
        real = Path(filename).resolve()
        if not any(real.is_relative_to(Path(folder).resolve()) for folder in self.searchpath):
            raise PublishError(f"{filename}: the template links out of its theme folder; "
                               "refusing to publish what it points to")
        return source, filename, uptodate


_ENVIRONMENTS: dict[tuple[tuple[Path, ...], str], jinja2.Environment] = {}


def environment(chain: list[Path], language: str) -> jinja2.Environment:
    """A Jinja environment per (theme chain, language): templates compile once.

    Sandboxed, and immutable: a template reaches the public attributes of what
    it is given and nothing else (no ``_private`` one, no ``__class__`` or
    ``__globals__`` leading out of the views to the rest of the program), and
    it cannot change them either (``h.living.append(...)`` is refused): the
    views are shared by every page, and a campaign's own theme is untrusted.
    """
    key = (tuple(chain), language)
    env = _ENVIRONMENTS.get(key)
    if env is None:
        env = jinja2.sandbox.ImmutableSandboxedEnvironment(
            loader=LayerLoader([str(p / "templates") for p in chain]),
            autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
            lstrip_blocks=True, auto_reload=False, cache_size=-1,
            extensions=["jinja2.ext.i18n"])
        trans = translations(language)
        env.install_gettext_translations(trans, newstyle=True)  # type: ignore[attr-defined]
        env.globals["_"] = markup_gettext(trans, FINISHING.get(language))
        env.globals["said_of"] = markup_said_of(trans, FINISHING.get(language))
        env.globals["language"] = language
        _ENVIRONMENTS[key] = env
    return env


def static_files(chain: list[Path]) -> dict[str, Path]:
    """Static assets by relative path; an earlier layer overrides a later one."""
    found: dict[str, Path] = {}
    for layer in reversed(chain):
        static = layer / "static"
        inside = static.resolve()
        for path in sorted(static.rglob("*")) if static.is_dir() else []:
            # Links are never followed: a theme cannot publish files from elsewhere.
            if path.is_file() and not path.is_symlink() and \
                    path.resolve().is_relative_to(inside):
                found[path.relative_to(static).as_posix()] = path
    return dict(sorted(found.items()))
