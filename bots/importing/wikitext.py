"""Plain text out of MediaWiki markup (mwparserfromhell): the lead section and the whole body.

References, files, categories, tables and templates are dropped; links keep their shown text.
"""
from __future__ import annotations

import mwparserfromhell

DROP_TAGS = {"ref", "gallery", "table", "math", "score", "timeline", "imagemap", "syntaxhighlight", "references"}
DROP_LINKS = ("file:", "image:", "category:", "media:")


def _plain(code) -> str:
    return " ".join(code.strip_code(normalize=True, collapse=True).split())


def _drop(code, nodes) -> None:
    for node in nodes:
        try:
            code.remove(node)
        except ValueError:  # already gone with a node around it
            pass


def wikitext_sections(text: str) -> tuple[str, str]:
    """(lead, body) of an article's wikitext as plain text."""
    code = mwparserfromhell.parse(text)
    _drop(code, [t for t in code.filter_tags(recursive=True) if str(t.tag).strip().lower() in DROP_TAGS])
    _drop(code, [link for link in code.filter_wikilinks(recursive=True)
                 if str(link.title).strip().lower().startswith(DROP_LINKS)])
    _drop(code, code.filter_templates(recursive=False))
    sections = code.get_sections(include_lead=True, flat=True)
    lead = _plain(sections[0]) if sections else ""
    _drop(code, code.filter_headings())
    return lead, _plain(code)
