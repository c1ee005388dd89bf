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


def test_a_bonus_part_is_read_and_answered_only_by_the_roles_the_table_gives_and_with_its_part_named():
    assert "read_part" in MODERATOR and "read_part" not in PLAYER
    assert "bonus_answer" in PLAYER and "bonus_answer" not in MODERATOR
    cid = "cmd-12345678"
    with pytest.raises(FrameError) as unnamed:  # a double click on "read the next part" must not read two
        parse('{"type": "read_part", "id": "%s", "data": {}}' % cid)
    assert unnamed.value.code == "bad_shape" and "part" in unnamed.value.message
    with pytest.raises(FrameError) as long_answer:
        parse('{"type": "bonus_answer", "id": "%s", "data": {"text": "%s", "part": 0}}' % (cid, "x" * 501))
    assert long_answer.value.code == "too_long"
    frame = parse('{"type": "bonus_answer", "id": "%s", "data": {"text": "Mars", "part": 1, "seat": "s9"}}' % cid)
    assert frame.data == {"text": "Mars", "part": 1}  # the seat is the socket's, never the frame's
