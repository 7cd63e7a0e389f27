"""Every error ground raises, under one GroundingError: those that stop a whole run, RecordError for one
record that cannot be read (a run goes on past it), and the gate's refusal. Each ``str()`` is a sentence
for the user: where, then what."""


class GroundingError(Exception):
    """Base of every error ground raises (the CLI reports each without a traceback)."""


class OptionError(GroundingError):
    """A bad option, refused before any input is read."""


class PatternTimeout(GroundingError):
    """A user regex ran too long on one value."""


class InputError(GroundingError):
    """An input that cannot be opened or read at all."""


class EmptyAnswerError(GroundingError, TypeError):
    """An answer with no text to judge: None, "", a message that only calls tools. Never judged, so never
    grounded (a TypeError, as an argument that is no answer is)."""


class UnsupportedValuesError(GroundingError):
    """The gate refused an answer (posture rails): after its one revision it still states values no tool result
    supports. It names the values (each a grounding.Finding) and what would satisfy the check; it does not
    carry the refused answer."""

    def __init__(self, values: tuple, candidates: int, revised: bool) -> None:
        self.values = tuple(values)
        self.candidates = candidates
        self.revised = revised
        written = ", ".join(repr(getattr(value, "text", value)) for value in self.values)
        after = " after one revision" if revised else ""
        super().__init__(
            f"the answer was refused{after}: {len(self.values)} of its {candidates} values appear in no tool result "
            f"read in this conversation ({written}); each must be read from a tool result before it is stated, "
            "or be declared exempt (Options(exempt=[...])) when it is safe to state unread")


class RecordError(GroundingError, ValueError):
    """A record that cannot be read as a conversation; its message says why (the rest are still read)."""


class NotATranscript(RecordError):
    """A record in no transcript format at all (not, say, an API response saved alone): in a ``.json`` file
    found by searching a folder, the file is skipped as no transcript; elsewhere it is the record's error."""
