"""Remote bots against real HTTP servers on this machine speaking the QANTA and JSON protocols."""
import socket
import time

import pytest

from bots.errors import BotError
from bots.protocol import Query
from bots.registry import load_bot

STATUS = {"ready": True, "batch": True, "batch_size": 8, "include_wiki_paragraphs": False}


def qanta_guess(question: dict) -> dict:
    text = question["text"]
    return {"guess": "Hamlet", "buzz": True} if "Denmark" in text else {"guess": "Macbeth", "buzz": False}


def qanta(status=STATUS, act=None, delay=0.0):
    def reply(method, path, body):
        time.sleep(delay)
        if method == "GET" and path == "/api/1.0/quizbowl/status":
            return 200, status
        if path == "/api/1.0/quizbowl/act":
            return 200, act if act is not None else qanta_guess(body)
        if path == "/api/1.0/quizbowl/batch_act":
            return 200, [qanta_guess(q) for q in body["questions"]]
        return 404, {"error": "no such path"}

    return reply


def query(text, **fields):
    return Query(text=text, word_index=len(text.split()), char_index=len(text), **fields)


def test_qanta_status_act_and_the_fields_sent(serve):
    server = serve(qanta())
    bot = load_bot({"kind": "remote_qanta", "url": server.url}).with_private({"question_idx": 4})
    assert bot.status() == STATUS
    act = bot.act(query("This prince of Denmark", sentence_index=1))
    assert (act.guess, act.buzz, act.confidence) == ("Hamlet", True, 1.0)
    quiet = bot.act(query("This Scottish king"))
    assert (quiet.guess, quiet.buzz, quiet.confidence) == ("Macbeth", False, 0.0)
    _, path, body = [r for r in server.received if r[1].endswith("/act")][0]
    assert body == {
        "text": "This prince of Denmark", "question_text": "This prince of Denmark", "question_idx": 4,
        "char_index": 22, "char_idx": 22, "sent_index": 1, "sent_idx": 1,
    }


def test_qanta_batch_act_answers_in_order(serve):
    bot = load_bot({"kind": "remote_qanta", "url": serve(qanta()).url})
    acts = bot.batch_act([query("A Scottish king"), query("A prince of Denmark"), query("A moor")])
    assert [(a.guess, a.buzz) for a in acts] == [("Macbeth", False), ("Hamlet", True), ("Macbeth", False)]


def test_qanta_sends_snippets_as_wiki_paragraphs_when_the_server_asks(serve):
    server = serve(qanta(status={**STATUS, "include_wiki_paragraphs": True}))
    bot = load_bot({"kind": "remote_qanta", "url": server.url})
    bot.act(query("Denmark", snippets=[{"title": "Hamlet", "text": "A tragedy."}]))
    assert server.received[-1][2]["wiki_paragraphs"] == ["A tragedy."]


@pytest.mark.parametrize(
    "reply, fragment",
    [
        ({"guess": 3, "buzz": True}, 'should answer {"guess": str, "buzz": bool}'),
        ({"guess": "Hamlet"}, 'should answer {"guess": str, "buzz": bool}'),
        (b"<html>oops</html>", "did not answer with JSON"),
    ],
)
def test_qanta_malformed_replies_raise_bot_errors(serve, reply, fragment):
    bot = load_bot({"kind": "remote_qanta", "url": serve(qanta(act=reply)).url})
    with pytest.raises(BotError, match=fragment):
        bot.act(query("This prince of Denmark"))


def test_qanta_malformed_status_and_not_ready(serve):
    bad = load_bot({"kind": "remote_qanta", "url": serve(qanta(status={"ready": "yes"})).url})
    with pytest.raises(BotError, match="should answer {ready: bool"):
        bad.status()
    waiting = load_bot({"kind": "remote_qanta", "url": serve(qanta(status={**STATUS, "ready": False})).url})
    with pytest.raises(BotError, match="not ready yet"):
        waiting.act(query("Denmark"))


def test_qanta_batch_of_the_wrong_length_is_refused(serve):
    def reply(method, path, body):
        return (200, STATUS) if method == "GET" else (200, [{"guess": "x", "buzz": False}])

    bot = load_bot({"kind": "remote_qanta", "url": serve(reply).url})
    with pytest.raises(BotError, match="should answer a list of 2 acts"):
        bot.batch_act([query("a"), query("b")])


def test_a_remote_bot_that_is_too_slow_times_out(serve):
    bot = load_bot({"kind": "remote_qanta", "url": serve(qanta(delay=1.5)).url, "timeout_ms": 200})
    with pytest.raises(BotError, match="did not answer within 200 ms"):
        bot.status()


def test_an_unreachable_remote_bot_says_so():
    with socket.socket() as sock:  # a port that was free a moment ago and has nobody listening
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    bot = load_bot({"kind": "remote_json", "url": f"http://127.0.0.1:{port}/act"})
    with pytest.raises(BotError, match="Could not reach the remote bot .* check that it is running"):
        bot.act(query("Denmark"))


def test_an_http_error_status_is_reported(serve):
    bot = load_bot({"kind": "remote_json", "url": serve(lambda m, p, b: (503, {"error": "loading"})).url})
    with pytest.raises(BotError, match="answered HTTP 503"):
        bot.act(query("Denmark"))


def test_json_protocol_sends_the_query_and_reads_the_act(serve):
    def reply(method, path, body):
        alternatives = [["Hamlet", 0.8], ["Lear", 0.1]]
        return 200, {"guess": "Hamlet", "confidence": 0.8, "buzz": True, "alternatives": alternatives}

    server = serve(reply)
    bot = load_bot({"kind": "remote_json", "url": server.url + "/act"})
    sent = query("This prince of Denmark", phase=2, mode="team")
    act = bot.act(sent)
    assert (act.guess, act.confidence, act.buzz) == ("Hamlet", 0.8, True)
    assert act.alternatives == [("Hamlet", 0.8), ("Lear", 0.1)]
    assert server.received == [("POST", "/act", sent.to_dict())]


def test_json_protocol_malformed_act_is_a_bot_error(serve):
    server = serve(lambda method, path, body: (200, {"guess": "x", "confidence": "high"}))
    bot = load_bot({"kind": "remote_json", "url": server.url})
    with pytest.raises(BotError, match="malformed act: confidence must be a finite number"):
        bot.act(query("Denmark"))


def test_a_remote_bot_needs_a_url():
    with pytest.raises(BotError, match="needs an http"):
        load_bot({"kind": "remote_json", "url": "ftp://example"})
