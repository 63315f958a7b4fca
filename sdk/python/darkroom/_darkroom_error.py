"""The base of every error the client raises for the API (or the network). The families below it
are generated from the error table (``_error_families``); ``_errors`` picks one for an answer."""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional


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

    @property
    def retry_after_seconds(self) -> Optional[float]:
        """Seconds the answer's Retry-After asks to wait (429s, paused service), or None."""
        try:
            value = float(self.headers.get("retry-after", ""))
        except ValueError:
            return None
        return value if value >= 0 else None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, status={self.status}, request_id={self.request_id!r}, message={self.message!r})"
