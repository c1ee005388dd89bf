"""The audio of a question read aloud, for the big screen to play.

The audio holds the whole question, words nobody has been shown yet included, so it is served only to
a signed-in host (staff): the projector's browser signs in, and a player who opens the public spectator
page on a phone can never hear ahead of the room (the words still appear there at the voice's pace).
A key is served only for a match whose log names it (its voice_ready event), so the cache is never a
listing of every question ever spoken. The file is the WAV synthesis.py made; a key that is malformed,
unknown to the match or no longer cached is a 404 (the screen then shows the words silently).
"""
from __future__ import annotations

from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from game.models import Match, MatchEvent

from game.speech.synthesis import audio_path
from game.web.views_archive import is_staff


@require_GET
def question_audio(request, code: str, key: str):
    if not is_staff(request):
        raise Http404("The question's audio plays on a screen where the host has signed in.")
    match = get_object_or_404(Match, code=code)
    path = audio_path(key)
    if path is None or not MatchEvent.objects.filter(match=match, type="voice_ready", data__audio=key).exists():
        raise Http404("No such audio in this match.")
    response = FileResponse(open(path, "rb"), content_type="audio/wav")
    response["Cache-Control"] = "private, max-age=3600"
    return response
