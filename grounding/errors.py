"""Problems that stop a whole run, under one GroundingError, and RecordError for one record that cannot be
read (the run goes on). Each ``str()`` is a sentence for the user: where, then what."""


class GroundingError(Exception):
    """Base of every error the CLI reports without a traceback."""


class OptionError(GroundingError):
    """A bad option, refused before any input is read."""


class PatternTimeout(GroundingError):
    """A user regex ran too long on one value."""


class InputError(GroundingError):
    """An input that cannot be opened or read at all."""


class RecordError(ValueError):
    """A record that cannot be read as a conversation; its message says why (the rest are still read)."""
