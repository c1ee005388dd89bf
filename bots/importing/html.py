"""Plain text out of a Kiwix article's HTML (lxml): the lead (paragraphs before the first section
heading) and the whole body (every paragraph and list item of the article)."""
from __future__ import annotations

import lxml.html

DROP = "//script | //style | //table | //figure | //sup[contains(@class, 'reference')] | //*[contains(@class, 'mw-ref')]"


def _text(element) -> str:
    return " ".join(element.text_content().split())


def html_sections(html: str) -> tuple[str, str]:
    """(lead, body) of an article page."""
    root = lxml.html.document_fromstring(html)
    for element in root.xpath(DROP):
        element.drop_tree()
    lead, body, in_lead = [], [], True
    for element in root.xpath("//h2 | //p | //li[not(ancestor::nav)]"):
        if element.tag == "h2":
            in_lead = False
            continue
        text = _text(element)
        if text:
            body.append(text)
            if in_lead and element.tag == "p":
                lead.append(text)
    return " ".join(lead), " ".join(body)
