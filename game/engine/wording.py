"""How a sentence names a team or a person: the possessive that reads right ("Humans'", "Ann's")."""
from __future__ import annotations


def possessive(name: str) -> str:
    """The name with its possessive ending: an apostrophe after a final s ("Humans'"), else 's ("Ann's")."""
    name = name.strip()
    return f"{name}'" if name[-1:] in ("s", "S") else f"{name}'s"
