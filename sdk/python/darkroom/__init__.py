"""darkroom: the Darkroom API's own client (standard library only, Python >= 3.9)."""
from . import _error_families
from . import _generated as types
from ._client import Darkroom
from ._core import TERMINAL_STATUSES, VERSION, is_terminal
from ._darkroom_error import DarkroomError
from ._downloads import Download
from ._error_families import *  # noqa: F401,F403 (the error families, generated from the error table)
from ._errors import DarkroomConnectionError, WaitTimeoutError, WebhookVerificationError, error_class_for
from ._sse import StreamEvent, parse_event_stream
from ._transport import ResponseMeta, Result
from ._webhooks import verify as verify_webhook

__version__ = VERSION

__all__ = [
    "Darkroom",
    "VERSION",
    "TERMINAL_STATUSES",
    "is_terminal",
    "types",
    "DarkroomError",
    "Download",
    *_error_families.__all__,
    "DarkroomConnectionError",
    "WaitTimeoutError",
    "WebhookVerificationError",
    "error_class_for",
    "StreamEvent",
    "parse_event_stream",
    "ResponseMeta",
    "Result",
    "verify_webhook",
]
