"""Verifying a delivery's ``X-Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]``.

Each hex is the HMAC-SHA256, keyed by the endpoint secret's UTF-8 bytes, of ``f"{t}.{raw_body}"``.
Every v1 entry is tried (a rotated secret signs with old and new), each compared in constant time
(``hmac.compare_digest``), and the timestamp must be within the tolerance.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import math
import re
import time
from typing import Any, Dict, Mapping, Optional, Union

from ._errors import WebhookVerificationError

SIGNATURE_HEADER = "x-service-signature"
DEFAULT_TOLERANCE_SECONDS = 300

# ASCII only: ``\d``, ``str.isdigit()`` and ``int()`` also take other scripts' digits ("١٢٣").
_TIMESTAMP = re.compile(r"[0-9]{1,15}", re.ASCII)
_SIGNATURE = re.compile(r"[0-9a-fA-F]{64}", re.ASCII)


def _checked(name: str, value: Union[int, float]) -> float:
    """A bad tolerance would let every timestamp pass (NaN compares false): refused up front."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise ValueError(f"verify_webhook: {name} must be a finite number of at least 0, got {value!r}")
    return float(value)


def _signature_header(headers: Union[Mapping[str, Any], str, None]) -> Optional[str]:
    if headers is None or isinstance(headers, str):
        return headers
    for name, value in headers.items():
        if name.lower() == SIGNATURE_HEADER:
            return ",".join(value) if isinstance(value, (list, tuple)) else str(value)
    return None


def verify(
    raw_body: Union[bytes, str],
    headers: Union[Mapping[str, Any], str, None],
    secret: str,
    *,
    tolerance_seconds: Union[int, float] = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """Checks a delivery against the endpoint secret and returns its parsed body.

    Raises WebhookVerificationError (``reason``) when the header is malformed, the timestamp is
    outside the tolerance (300 s by default) or no signature matches; raises ValueError for a
    ``tolerance_seconds`` (or ``now``) that is not a finite number >= 0. Pass the raw body exactly
    as received, before any JSON parsing.
    """
    tolerance = _checked("tolerance_seconds", tolerance_seconds)
    current = int(_checked("now", time.time() if now is None else now))
    body = raw_body if isinstance(raw_body, bytes) else raw_body.encode("utf-8")
    timestamp: Optional[int] = None
    signatures = []
    for part in (_signature_header(headers) or "").split(","):
        key, sep, value = part.partition("=")
        if not sep:
            continue
        key, value = key.strip(), value.strip()
        if key == "t" and _TIMESTAMP.fullmatch(value):
            timestamp = int(value)
        elif key == "v1" and _SIGNATURE.fullmatch(value):
            signatures.append(value.lower())
    if timestamp is None or not signatures:
        raise WebhookVerificationError("malformed_header")
    if abs(current - timestamp) > tolerance:
        raise WebhookVerificationError("timestamp_out_of_tolerance")
    expected = hmac.new(secret.encode("utf-8"), str(timestamp).encode("ascii") + b"." + body, hashlib.sha256).hexdigest()
    # Every entry is compared, matched or not, so the time taken says nothing about which matched.
    matched = False
    for signature in signatures:
        if hmac.compare_digest(signature, expected):
            matched = True
    if not matched:
        raise WebhookVerificationError("signature_mismatch")
    event: Dict[str, Any] = json.loads(body.decode("utf-8"))
    return event


class Webhooks:
    """``client.webhooks.verify(raw_body, headers, secret, tolerance_seconds=300)``."""

    @staticmethod
    def verify(
        raw_body: Union[bytes, str], headers: Union[Mapping[str, Any], str, None], secret: str, *, tolerance_seconds: Union[int, float] = DEFAULT_TOLERANCE_SECONDS, now: Optional[float] = None
    ) -> Dict[str, Any]:
        return verify(raw_body, headers, secret, tolerance_seconds=tolerance_seconds, now=now)
