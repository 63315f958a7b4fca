"""Which family an answer belongs to: its code in the error table, else (a code this SDK does not
know yet) ERR4xxx are the providers', else its status. The families are generated
(``_error_families``)."""
from __future__ import annotations

import re
from typing import Any, Dict, Optional, Type

from ._darkroom_error import DarkroomError
from ._error_families import ERROR_CLASS_BY_CODE, ERROR_CLASS_BY_STATUS, ProviderError


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


def _by_status(status: int) -> Type[DarkroomError]:
    return ERROR_CLASS_BY_STATUS.get(str(status)) or ERROR_CLASS_BY_STATUS.get(f"{status // 100}XX") or ERROR_CLASS_BY_STATUS["default"]


def error_class_for(code: str, status: int) -> Type[DarkroomError]:
    """The subclass for an error code, else for the HTTP status."""
    if code in ERROR_CLASS_BY_CODE:
        return ERROR_CLASS_BY_CODE[code]
    if re.fullmatch(r"ERR4\d{3}", code):
        return ProviderError
    return _by_status(status)
