"""The one problem a bounded read raises about a whole file; its message tells the person what to do."""


class ImportProblem(Exception):
    """A problem with the whole file (not one line); the message tells the host what to do."""
