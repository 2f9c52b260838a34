"""The one exception of the app's logic."""


class InputError(ValueError):
    """A problem with what the user gave; its message is shown on the page as is."""
