"""A search service over HTTP: its answers are marked like ours, and its failures cost only the snippets,
with a sentence that says so."""
import logging
import socket
import threading

import httpx
import pytest

from game.snippets import RemoteSnippetProvider, SearchFailed, default_provider, mark_terms, marked_html, query_terms


def provider_answering(handler):
    return RemoteSnippetProvider("http://search.test/q", client=httpx.Client(transport=httpx.MockTransport(handler)))


def test_the_question_is_sent_and_the_answer_marked():
    seen = {}

    def handler(request):
        seen.update(request.url.params)
        return httpx.Response(200, json=[{"title": "Moon", "text": "Men walked on the <Moon>."}, {"title": "x"}, {"title": "Sun", "text": "Hot."}])

    found = provider_answering(handler).top_snippets("Who walked on the moon?", k=2)
    assert seen == {"q": "Who walked on the moon?", "k": "2"}
    assert found == [{"title": "Moon", "text": "Men walked on the <Moon>.", "marked": "Men <mark>walked</mark> on the &lt;<mark>Moon</mark>&gt;."}]


@pytest.mark.parametrize("handler, logged, said", [
    (lambda request: httpx.Response(500, text="oops"), "failed", "The search service failed"),
    (lambda request: httpx.Response(200, text="not json"), "failed", "The search service failed"),
    (lambda request: httpx.Response(200, json={"error": "no"}), "did not answer a list", "an answer it cannot read"),
])
def test_failures_give_no_snippets_a_warning_and_a_sentence_for_the_room(handler, logged, said, caplog):
    with caplog.at_level(logging.WARNING, logger="game.snippets"), pytest.raises(SearchFailed) as failed:
        provider_answering(handler).top_snippets("moon")
    assert logged in caplog.text
    assert said in str(failed.value) and str(failed.value).endswith("the phase goes on without snippets.")


def test_a_silent_server_times_out_quickly(caplog):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted = []
    threading.Thread(target=lambda: accepted.append(listener.accept()), daemon=True).start()
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/search"
    with caplog.at_level(logging.WARNING, logger="game.snippets"), pytest.raises(SearchFailed) as failed:
        RemoteSnippetProvider(url, timeout=0.3).top_snippets("moon")
    assert "did not answer within 0.3 s" in caplog.text
    assert str(failed.value) == "The search did not answer within 0.3 s; the phase goes on without snippets."
    listener.close()


def test_the_setting_chooses_the_remote_provider(settings):
    settings.EXHIBITION_SNIPPETS_URL = "http://search.test/q"
    assert isinstance(default_provider(), RemoteSnippetProvider)


def test_terms_and_marking_helpers():
    assert query_terms("For 10 points, name this man who walked on the Moon in 1969.") == ["man", "walked", "moon", "1969"]
    assert mark_terms("Moons and moon", ["moon"]) == "\u27e6Moons\u27e7 and \u27e6moon\u27e7"
    assert marked_html("a < \u27e6b\u27e7 & c") == "a &lt; <mark>b</mark> &amp; c"
