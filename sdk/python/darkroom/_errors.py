"""One error class for everything the API (or the network) refuses, a subclass per family.

The family comes from the error code (the server's one error table), else from the HTTP status.
"""
from __future__ import annotations

import re
from typing import Any, Dict, Mapping, Optional, Type


class DarkroomError(Exception):
    """An error answer of the API, or no answer at all.

    ``code`` (``ERR1004``, ``connection_error``, ``http_502`` for an answer outside the envelope),
    ``type``, ``status`` (0 when no answer arrived), ``retryable``, ``request_id``, ``details``,
    ``headers``.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        type: str,
        status: int,
        retryable: bool,
        request_id: Optional[str],
        details: Optional[Dict[str, Any]] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.type = type
        self.status = status
        self.retryable = retryable
        self.request_id = request_id
        self.details: Dict[str, Any] = details or {}
        self.headers: Dict[str, str] = {k.lower(): v for k, v in (headers or {}).items()}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, status={self.status}, request_id={self.request_id!r}, message={self.message!r})"


class AuthenticationError(DarkroomError):
    """ERR1002: the key is missing, invalid, expired, revoked or from another region."""


class PermissionDeniedError(DarkroomError):
    """ERR1003 (scope), ERR1007 (IP allowlist)."""


class NotFoundError(DarkroomError):
    """ERR1006 (generation, route), ERR1012 (model)."""


class RateLimitError(DarkroomError):
    """ERR1005 (per-minute limit), ERR1009 (concurrency cap)."""

    @property
    def retry_after_seconds(self) -> Optional[float]:
        try:
            value = float(self.headers.get("retry-after", ""))
        except ValueError:
            return None
        return value if value >= 0 else None


class InsufficientCreditsError(DarkroomError):
    """ERR1004: the balance is too low for the estimated cost."""


class SpendLimitError(DarkroomError):
    """ERR1014: a key's or the account's spend limit for the period would be passed."""


class ValidationError(DarkroomError):
    """ERR1001 and the other refusals of the request itself (ERR1008, ERR1011, ERR1015, ERR2014)."""


class ConflictError(DarkroomError):
    """ERR1010 (not cancelable), ERR2015 (Idempotency-Key reused), ERR2016 (still running)."""


class ProviderError(DarkroomError):
    """ERR4xxx: the inference providers failed."""


class ServerError(DarkroomError):
    """ERR5000, ERR3001 (paused), and answers outside the envelope with a 5xx status."""


class DarkroomConnectionError(DarkroomError):
    """No answer: the connection failed, was dropped, or the timeout passed. Retryable."""


class WaitTimeoutError(DarkroomError):
    """``generations.wait`` ran out before the generation finished; ``last_record`` is what was last seen."""

    def __init__(self, generation_id: str, last_record: Optional[Dict[str, Any]], timeout: float) -> None:
        super().__init__(
            f"Generation {generation_id} did not finish within {timeout} s",
            code="wait_timeout",
            type="wait_timeout",
            status=0,
            retryable=True,
            request_id=None,
        )
        self.generation_id = generation_id
        self.last_record = last_record


class WebhookVerificationError(Exception):
    """``webhooks.verify`` refused a delivery; ``reason`` is ``malformed_header``,
    ``timestamp_out_of_tolerance`` or ``signature_mismatch``."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"Webhook signature refused: {reason}")
        self.reason = reason


_BY_CODE: Dict[str, Type[DarkroomError]] = {
    "ERR1001": ValidationError,
    "ERR1002": AuthenticationError,
    "ERR1003": PermissionDeniedError,
    "ERR1004": InsufficientCreditsError,
    "ERR1005": RateLimitError,
    "ERR1006": NotFoundError,
    "ERR1007": PermissionDeniedError,
    "ERR1008": ValidationError,
    "ERR1009": RateLimitError,
    "ERR1010": ConflictError,
    "ERR1011": ValidationError,
    "ERR1012": NotFoundError,
    "ERR1013": ValidationError,
    "ERR1014": SpendLimitError,
    "ERR1015": ValidationError,
    "ERR2014": ValidationError,
    "ERR2015": ConflictError,
    "ERR2016": ConflictError,
    "ERR3001": ServerError,
    "ERR5000": ServerError,
}


def _by_status(status: int) -> Type[DarkroomError]:
    if status == 401:
        return AuthenticationError
    if status == 402:
        return InsufficientCreditsError
    if status == 403:
        return PermissionDeniedError
    if status == 404:
        return NotFoundError
    if status == 409:
        return ConflictError
    if status == 429:
        return RateLimitError
    if status >= 500 or status < 400:
        return ServerError
    return ValidationError


def error_class_for(code: str, status: int) -> Type[DarkroomError]:
    """The subclass for an error code (ERR4xxx are provider errors), else for the HTTP status."""
    if code in _BY_CODE:
        return _BY_CODE[code]
    if re.fullmatch(r"ERR4\d{3}", code):
        return ProviderError
    return _by_status(status)
