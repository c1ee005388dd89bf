"""The one exception the engine raises: a command that the rules do not allow right now."""


class Rejected(Exception):
    """A command was refused. The message is a sentence the person who sent it can act on.

    A few refusals are worth keeping in the record even though they change nothing in play (a buzz
    that lost a close race, for the audit). decide() raises those with `events` (what to store, in
    order, clock events included) and `state` (the state with them folded in); the caller stores
    them and still answers the command with the refusal.
    """

    def __init__(self, message: str, code: str = "rejected", record: bool = False):
        super().__init__(message)
        self.code = code
        self.record = record
        self.events: list[dict] = []
        self.state = None
