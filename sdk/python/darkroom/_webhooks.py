"""Verifying a delivery's ``X-Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]``.

Each hex is the HMAC-SHA256, keyed by the endpoint secret's UTF-8 bytes, of ``f"{t}.{raw_body}"``.
Every v1 entry is tried (a rotated secret signs with old and new), each compared in constant time
(``hmac.compare_digest``), and the timestamp must be within the tolerance.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from typing import Any, Dict, Mapping, Optional, Union

from ._errors import WebhookVerificationError

SIGNATURE_HEADER = "x-service-signature"
DEFAULT_TOLERANCE_SECONDS = 300


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
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """Checks a delivery against the endpoint secret and returns its parsed body.

    Raises WebhookVerificationError (``reason``) when the header is malformed, the timestamp is
    outside the tolerance (300 s by default) or no signature matches. Pass the raw body exactly as
    received, before any JSON parsing.
    """
    body = raw_body if isinstance(raw_body, bytes) else raw_body.encode("utf-8")
    timestamp: Optional[int] = None
    signatures = []
    for part in (_signature_header(headers) or "").split(","):
        key, sep, value = part.partition("=")
        if not sep:
            continue
        key, value = key.strip(), value.strip()
        if key == "t" and re.fullmatch(r"\d{1,15}", value):
            timestamp = int(value)
        elif key == "v1" and re.fullmatch(r"[0-9a-fA-F]{64}", value):
            signatures.append(value.lower())
    if timestamp is None or not signatures:
        raise WebhookVerificationError("malformed_header")
    current = int(time.time() if now is None else now)
    if abs(current - timestamp) > tolerance_seconds:
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
    def verify(raw_body: Union[bytes, str], headers: Union[Mapping[str, Any], str, None], secret: str, *, tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS, now: Optional[float] = None) -> Dict[str, Any]:
        return verify(raw_body, headers, secret, tolerance_seconds=tolerance_seconds, now=now)
