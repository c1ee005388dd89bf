"""The engine's public surface: everything outside game/engine imports the engine from here, and only here.

tests/test_layers.py holds the rest of the project to it, so what the engine offers is this one list
and the modules behind it may be rearranged freely. The tests reach into the modules themselves.
"""
from game.engine import bot_turns, voice  # noqa: F401  (a bot's turn; reading aloud: used as modules)
from game.engine.clock import reading_ms, word_ms  # noqa: F401
from game.engine.commands import socket_commands  # noqa: F401
from game.engine.fold import EVENT_TYPES, apply, apply_in_place, fold  # noqa: F401
from game.engine.formats import PRESETS, RulesError, make_rules  # noqa: F401
from game.engine.projection import AUDIENCES, private_reason, project, snapshot  # noqa: F401
from game.engine.questions import (GUIDE_CLOSE, GUIDE_OPEN, POWER_MARK, Question, clean_answer,  # noqa: F401
                                   split_words, spoken_words)
from game.engine.rejected import Rejected  # noqa: F401
from game.engine.rule_table import (GROUPS, MATCH_RULES, NUMBERS, PHASE, Rule, host_rules,  # noqa: F401
                                    number_range, phase_has)
from game.engine.rules import (COMMAND_TYPES, END_REASONS, create_match, decide, decide_and_fold,  # noqa: F401
                               next_wakeup, questions_played)
from game.engine.selection import (MAX_SEED, NOUNS, ORDERS, PACKET_ORDER, QuestionOrder,  # noqa: F401
                                   SelectionError, describe, select_questions)
from game.engine.seat_table import (BUZZ_MODES, SETTINGS as SEAT_SETTINGS, WEIGHT_CLASSES, SeatSettingError,  # noqa: F401
                                    checked as seat_settings)
from game.engine.stages import BUZZES  # noqa: F401
from game.engine.state import MatchState, QuestionState  # noqa: F401
from game.engine.voice import HAND, MAX_AUDIO_MS, VOICES, WPM_RANGE  # noqa: F401
from game.engine.wording import possessive  # noqa: F401
