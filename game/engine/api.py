"""The engine's public surface, in one import."""
from game.engine.clock import reading_ms, word_ms  # noqa: F401
from game.engine.rejected import Rejected  # noqa: F401
from game.engine.fold import EVENT_TYPES, apply, fold  # noqa: F401
from game.engine.formats import PRESETS, RulesError, make_rules  # noqa: F401
from game.engine.projection import AUDIENCES, project, snapshot  # noqa: F401
from game.engine.questions import Question, split_words  # noqa: F401
from game.engine.rules import COMMAND_TYPES, create_match, decide, decide_and_fold, next_wakeup  # noqa: F401
from game.engine.state import MatchState, QuestionState  # noqa: F401
