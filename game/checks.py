"""Startup checks, shown by `manage.py check` and by runserver and conduct as they start: what a
server would otherwise find out only in the middle of a match."""
from django.core.checks import Warning, register

from game.judging import lexicon


@register()
def wordnet_index(app_configs, **kwargs):
    """The judge never builds its WordNet index at run time (game/judging/lexicon.py), so say it is missing."""
    trouble = lexicon.problem()
    if trouble is None:
        return []
    return [Warning(trouble, hint="Until then the judge works on and says in its reasons that synonyms were not checked.",
                    id="game.W001")]
