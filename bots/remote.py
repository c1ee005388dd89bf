"""Remote bots: systems that run on their own server and answer over HTTP (httpx).

Two protocols are spoken. Every failure (refused connection, time-out, HTTP error status, a reply
that is not the agreed JSON) becomes a BotError whose message says what went wrong and where.

QANTA quizbowl protocol (as used by the QANTA/CodaLab evaluation), base URL in config "url":
    GET  {url}/api/1.0/quizbowl/status    -> {"ready": bool, "batch": bool, "batch_size": int,
                                              "include_wiki_paragraphs": bool}
    POST {url}/api/1.0/quizbowl/act       <- {"text"/"question_text": revealed text, "question_idx": int,
                                              "char_index"/"char_idx": int, "sent_index"/"sent_idx": int}
                                          -> {"guess": str, "buzz": bool}
    POST {url}/api/1.0/quizbowl/batch_act <- {"questions": [one act body per question]}
                                          -> [{"guess": str, "buzz": bool}, ...] in the same order
  Both spellings of each field are sent, so servers written against either one understand us. The
  protocol has no confidence, so an act's confidence is 1 when the server buzzes and 0 otherwise.
  When the status says include_wiki_paragraphs, the query's snippets go along as "wiki_paragraphs".
  question_idx is handed over privately by the server (private.question_idx), default 0.

Exhibition JSON protocol, endpoint URL in config "url":
    POST {url}  <- Query.to_dict(): {"text", "word_index", "char_index", "sentence_index", "phase",
                                     "mode": "buzz"|"team", "final", "snippets": [{"title", "text"}],
                                     "tier"}
                -> Act.to_dict(): {"guess": str, "confidence": number in [0, 1] (clamped),
                                   "buzz": bool, "alternatives": [[guess, score], ...] (optional)}

Settings for both: url (required), timeout_ms (per request, default 2000).
"""
from __future__ import annotations

import copy

import httpx

from bots.base_bot import BaseBot
from bots.errors import BotError
from bots.protocol import Act, ProtocolError, Query

QANTA_PATH = "/api/1.0/quizbowl"
STATUS_FIELDS = {"ready": bool, "batch": bool, "batch_size": int, "include_wiki_paragraphs": bool}


class RemoteBot(BaseBot):
    """An HTTP client with readable failures; subclasses speak a protocol over it."""

    def __init__(self, config, artefact_dir=None, name=""):
        super().__init__(config, artefact_dir, name)
        self.url = str(self.config.get("url") or "").rstrip("/")
        if not self.url.startswith(("http://", "https://")):
            raise BotError(f"A remote bot needs an http(s) url in its settings, got {self.url!r}.")
        self.timeout_ms = int(self.config.get("timeout_ms", 2000))
        self.client = httpx.Client(timeout=self.timeout_ms / 1000)

    def call(self, method: str, url: str, body=None):
        try:
            response = self.client.request(method, url, json=body)
        except httpx.TimeoutException:
            raise BotError(f"The remote bot at {url} did not answer within {self.timeout_ms} ms.") from None
        except httpx.HTTPError as error:
            raise BotError(
                f"Could not reach the remote bot at {url} ({error.__class__.__name__}: {error}); "
                "check that it is running and that its URL is right."
            ) from None
        if response.status_code >= 400:
            raise BotError(f"The remote bot at {url} answered HTTP {response.status_code}: {response.text[:200]!r}")
        try:
            return response.json()
        except ValueError:
            raise BotError(f"The remote bot at {url} did not answer with JSON: {response.text[:200]!r}") from None


def _qanta_act(reply, url: str) -> Act:
    if not (isinstance(reply, dict) and isinstance(reply.get("guess"), str) and isinstance(reply.get("buzz"), bool)):
        raise BotError(f"The remote bot at {url} should answer {{\"guess\": str, \"buzz\": bool}}, got {reply!r:.200}")
    confidence = 1.0 if reply["buzz"] else 0.0
    guess = reply["guess"]
    return Act(guess=guess, confidence=confidence, buzz=reply["buzz"], alternatives=[(guess, confidence)])


class QantaRemoteBot(RemoteBot):
    kind = "remote_qanta"

    def __init__(self, config, artefact_dir=None, name=""):
        super().__init__(config, artefact_dir, name)
        self.question_idx = 0
        self.shared = {"status": None}  # copies made by with_private share the status they have read

    def with_private(self, private: dict) -> QantaRemoteBot:
        bound = copy.copy(self)
        bound.question_idx = int((private or {}).get("question_idx", 0))
        return bound

    def status(self) -> dict:
        url = f"{self.url}{QANTA_PATH}/status"
        reply = self.call("GET", url)
        if not isinstance(reply, dict) or any(type(reply.get(k)) is not t for k, t in STATUS_FIELDS.items()):
            raise BotError(
                f"The remote bot at {url} should answer "
                f"{{ready: bool, batch: bool, batch_size: int, include_wiki_paragraphs: bool}}, got {reply!r:.200}"
            )
        return reply

    def _ready_status(self) -> dict:
        if self.shared["status"] is None:
            status = self.status()
            if not status["ready"]:
                raise BotError(f"The remote bot at {self.url} says it is not ready yet; try again once it has loaded.")
            self.shared["status"] = status
        return self.shared["status"]

    def _body(self, query: Query) -> dict:
        body = {
            "text": query.text, "question_text": query.text,
            "question_idx": self.question_idx,
            "char_index": query.char_index, "char_idx": query.char_index,
            "sent_index": query.sentence_index, "sent_idx": query.sentence_index,
        }
        if self._ready_status()["include_wiki_paragraphs"]:
            body["wiki_paragraphs"] = [s["text"] for s in query.snippets]
        return body

    def act(self, query: Query) -> Act:
        url = f"{self.url}{QANTA_PATH}/act"
        return _qanta_act(self.call("POST", url, self._body(query)), url)

    def batch_act(self, queries: list[Query]) -> list[Act]:
        url = f"{self.url}{QANTA_PATH}/batch_act"
        reply = self.call("POST", url, {"questions": [self._body(q) for q in queries]})
        if not isinstance(reply, list) or len(reply) != len(queries):
            raise BotError(f"The remote bot at {url} should answer a list of {len(queries)} acts, got {reply!r:.200}")
        return [_qanta_act(item, url) for item in reply]


class JsonRemoteBot(RemoteBot):
    kind = "remote_json"

    def act(self, query: Query) -> Act:
        reply = self.call("POST", self.url, query.to_dict())
        try:
            return Act.from_dict(reply)
        except (ProtocolError, TypeError) as error:
            raise BotError(f"The remote bot at {self.url} sent a malformed act: {error}") from None
