"""Simulated opponents for practice: a target accuracy and a buzz point, not a real QA system.

Trusted server code hands the true answer over privately (with_private), never through the
Query, and hands it clean: the main answer without the line's directives (game.engine.bot_turns), so
the bot imports nothing of the engine and is charged for nothing of it. Each question's outcome is drawn from a generator seeded by the bot's seed and the
question, so replaying a match gives the same opponent. Always shown as "(simulated)".

Settings: accuracy (share of questions answered right, default 0.7), buzz_mean and buzz_sd (the
buzz point as a fraction of the question, default 0.6 and 0.15), seed, threshold, distractors
(wrong answers to give), delay_ms (think time before acting; also how tests make a slow bot).
Private data: answer (required), length_words (the question's length; without it the bot buzzes
only once the whole question is read), question_id (keeps draws apart for equal answers).

It guesses only from the word its model says it knows the answer (its buzz point): before that it
reports no guess, rising towards its threshold, so the hall never sees the answer early.
"""
from __future__ import annotations

import hashlib
import math
import random
import time

from bots.base_bot import BaseBot
from bots.errors import BotError
from bots.protocol import Act, Query

MISS = "(simulated miss)"


class SimulatedBot(BaseBot):
    kind = "simulated"
    default_tier = "500mib"
    simulated = True

    def __init__(self, config, artefact_dir=None, name=""):
        super().__init__(config, artefact_dir, name)
        self.accuracy = float(self.config.get("accuracy", 0.7))
        self.buzz_mean = float(self.config.get("buzz_mean", 0.6))
        self.buzz_sd = float(self.config.get("buzz_sd", 0.15))
        self.seed = int(self.config.get("seed", 0))
        self.distractors = list(self.config.get("distractors", [])) or [MISS]
        self.delay_ms = int(self.config.get("delay_ms", 0))
        if not 0.0 <= self.accuracy <= 1.0:
            raise BotError(f"A simulated bot's accuracy must be between 0 and 1, not {self.accuracy}.")
        self.answer = None
        self.length_words = None
        self.correct = False
        self.buzz_fraction = 1.0
        self.wrong = self.distractors[0]

    def with_private(self, private: dict) -> SimulatedBot:
        answer = (private or {}).get("answer")
        if not isinstance(answer, str) or not answer:
            raise BotError("A simulated bot must be given the question's answer by the server (private.answer).")
        bound = SimulatedBot(self.config, None, self.name)
        bound.answer = answer
        bound.length_words = private.get("length_words")
        key = f"{self.seed}|{private.get('question_id', '')}|{answer}".encode()
        rng = random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))
        bound.correct = rng.random() < self.accuracy
        bound.buzz_fraction = min(1.0, max(0.05, rng.gauss(self.buzz_mean, self.buzz_sd)))
        bound.wrong = rng.choice(self.distractors)
        return bound

    def _buzz_word(self) -> int | None:
        if not self.length_words:
            return None
        return max(1, math.ceil(self.buzz_fraction * int(self.length_words)))

    def act(self, query: Query) -> Act:
        if self.answer is None:
            raise BotError("This simulated bot was not told the answer; the server must pass private.answer.")
        if self.delay_ms:
            time.sleep(self.delay_ms / 1000)
        buzz_word = self._buzz_word()
        ready = query.mode == "team" or query.final or (buzz_word is not None and query.word_index >= buzz_word)
        if not ready:  # it does not know yet: no guess, its confidence rising towards the threshold
            progress = query.word_index / buzz_word if buzz_word else 0.0
            return Act(guess="", confidence=self.threshold * 0.9 * min(progress, 1.0), buzz=False)
        guess = self.answer if self.correct else self.wrong
        confidence = self.threshold + (1 - self.threshold) / 2
        return Act(guess=guess, confidence=confidence, buzz=True, alternatives=[(guess, confidence)])
