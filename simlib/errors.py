"""The one exception type a user sees for bad input."""


class SimlibInputError(ValueError):
    """Bad input from a user: a message naming the key and what is allowed.

    The command line prints ``str(err)`` on one line and exits with status 2; the Python API
    lets it propagate. Messages are written in the user's terms (setting names, file names).
    """
