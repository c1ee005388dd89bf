"""The one table of commands (game/engine/commands.py) is the one both the engine and the sockets obey."""
import pytest

from game.engine.commands import COMMANDS, socket_commands
from game.engine.rules import _COMMANDS
from game.live.client_frames import MODERATOR, PLAYER, FrameError, parse


def test_every_command_the_engine_handles_is_in_the_table_and_no_other():
    assert set(COMMANDS) == set(_COMMANDS)


def test_the_sockets_accept_exactly_the_commands_the_table_gives_their_role():
    assert MODERATOR == socket_commands("moderator") and "rule" in MODERATOR and "buzz" not in MODERATOR
    assert PLAYER == socket_commands("player") and "buzz" in PLAYER and "rule" not in PLAYER
    with pytest.raises(FrameError):  # a command only the conductor sends never comes in on a socket
        parse('{"type": "tick", "ref": "r1"}')
