"""darkroom: the Darkroom API's own client (standard library only, Python >= 3.9)."""
from . import _generated as types
from ._client import TERMINAL_STATUSES, VERSION, Darkroom, is_terminal
from ._errors import (
    AuthenticationError,
    ConflictError,
    DarkroomConnectionError,
    DarkroomError,
    InsufficientCreditsError,
    NotFoundError,
    PermissionDeniedError,
    ProviderError,
    RateLimitError,
    ServerError,
    SpendLimitError,
    ValidationError,
    WaitTimeoutError,
    WebhookVerificationError,
    error_class_for,
)
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
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "RateLimitError",
    "InsufficientCreditsError",
    "SpendLimitError",
    "ValidationError",
    "ConflictError",
    "ProviderError",
    "ServerError",
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
