"""The broadcast's pages: the overlay a streaming program shows (public, as the hall's screen is) and the
host's page for the overlay's address and the feed's tokens (staff)."""
from django import forms
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_http_methods

from game.models import Match
from game.web.views_host import staff_required
from game.web.views_match import page_config

from broadcast.feed_tokens import create_token, revoke_token
from broadcast.models import LABEL_MAX_LENGTH, FeedToken


def overlay(request, code):
    """A browser source for OBS: the hall's own spectator socket and fold, drawn as a lower third on a
    transparent page. It needs no token: it shows what the hall's public screen shows, no more."""
    match = get_object_or_404(Match, code=code)
    return render(request, "broadcast/overlay.html", {"match": match, "config": page_config(match, "spectator")})


class TokenForm(forms.Form):
    label = forms.CharField(label="Who it is for", max_length=LABEL_MAX_LENGTH, strip=True,
                            help_text="e.g. “scoreboard laptop”: the list below names each token by it.")


class RevokeForm(forms.Form):
    token = forms.IntegerField(min_value=1, max_value=2**53)


@staff_required
@require_http_methods(["GET", "POST"])
def host_broadcast(request, code):
    match = get_object_or_404(Match, code=code)
    form, status, made = TokenForm(), 200, None
    if request.method == "POST" and request.POST.get("action") == "revoke":
        revoke = RevokeForm(request.POST)
        if not revoke.is_valid():
            status = 400
        else:
            record = get_object_or_404(FeedToken.objects.select_related("match"), pk=revoke.cleaned_data["token"],
                                       match=match)
            revoke_token(record)
    elif request.method == "POST":
        form = TokenForm(request.POST)
        if form.is_valid():
            try:
                record, made = create_token(match, form.cleaned_data["label"])
                form = TokenForm()
            except ValueError as refused:
                form.add_error(None, str(refused))
        status = 200 if made else 400
    links = {"overlay": request.build_absolute_uri(f"/m/{match.code}/overlay"),
             "feed": request.build_absolute_uri(f"/m/{match.code}/feed")}
    return render(request, "broadcast/host_broadcast.html", {
        "match": match, "form": form, "made": made, "links": links, "tokens": match.feed_tokens.all()[:100]},
        status=status)
