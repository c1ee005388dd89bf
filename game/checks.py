"""Startup checks, shown by `manage.py check` and by runserver and conduct as they start: what a
server would otherwise find out only in the middle of a match."""
from django.conf import settings
from django.core.checks import Error, Warning, register

from game.judging import lexicon
from serving import environment


@register()
def wordnet_index(app_configs, **kwargs):
    """The judge never builds its WordNet index at run time (game/judging/lexicon.py), so say it is missing."""
    trouble = lexicon.problem()
    if trouble is None:
        return []
    return [Warning(trouble, hint="Until then the judge works on and says in its reasons that synonyms were not checked.",
                    id="game.W001")]


@register()
def heartbeat_renews_groups(app_configs, **kwargs):
    """Each web process renews its sockets' group memberships every heartbeat (game/live/fanout.py). The
    settings derive the channel layer's group_expiry from the heartbeat; a settings module that sets
    either by itself afterwards could make watchers stop getting words mid-question, silently."""
    config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    heartbeat, expiry = settings.EXHIBITION_HEARTBEAT_SECONDS, config.get("group_expiry", 86400)  # channels' default
    if environment.keeps_members(heartbeat, expiry):
        return []
    return [Error(f"EXHIBITION_HEARTBEAT_SECONDS is {heartbeat:g} s but the channel layer forgets a group member after "
                  f"{expiry:g} s, so a socket would stop hearing its match between two heartbeats.",
                  hint=f"Keep the heartbeat under half the group_expiry: leave CHANNEL_LAYERS' group_expiry as the "
                       f"settings derive it ({environment.group_expiry(heartbeat)} s for this heartbeat).",
                  id="game.E001")]
