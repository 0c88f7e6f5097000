"""The one exception type a user sees for bad input."""


class SimlibInputError(ValueError):
    """Bad input from a user: a message naming the key and what is allowed.

    The command line prints ``str(err)`` on one line and exits with status 2; the Python API
    lets it propagate. Messages are written in the user's terms (setting names, file names).
    """


class SimlibRunError(RuntimeError):
    """A run that could not finish for a reason outside its input.

    A cluster that lost its workers, say: one line saying what happened and what was kept.

    The command line prints ``str(err)`` on one line and exits with status 1; a run with an
    ``out`` folder keeps every finished chunk, so running the same command again resumes.
    """
