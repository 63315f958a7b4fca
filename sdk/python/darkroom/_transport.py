"""The transport: urllib, the envelope unwrapped, errors mapped, retries with backoff and jitter.

Retryable failures (connection errors, 429, 5xx, ERR2016) are retried at most ``max_retries``
times, honouring Retry-After. Creates always carry an Idempotency-Key, so a retry never starts a
second generation.
"""
from __future__ import annotations

import email.utils
import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional, Tuple

from ._errors import DarkroomConnectionError, DarkroomError, error_class_for

MAX_RETRY_AFTER_SECONDS = 60.0


def _origin(url: str) -> Tuple[str, str, Optional[int]]:
    parts = urllib.parse.urlsplit(url)
    default_port = {"http": 80, "https": 443}.get(parts.scheme.lower())
    return parts.scheme.lower(), (parts.hostname or "").lower(), parts.port or default_port


class _SameOriginRedirects(urllib.request.HTTPRedirectHandler):
    """urllib's handler follows a redirect anywhere with every header, the key included (https to
    http too). Here only one within the origin (same scheme, host and port) is followed; any other
    is answered as it came, and refused as an error."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        if _origin(urllib.parse.urljoin(req.full_url, newurl)) != _origin(req.full_url):
            return None
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_OPENER = urllib.request.build_opener(_SameOriginRedirects)


@dataclass
class ResponseMeta:
    """What every result carries besides its data (``result.last_response``)."""

    request_id: Optional[str]
    status: int
    headers: Dict[str, str]
    idempotency_replayed: bool = False
    idempotency_key: Optional[str] = None
    attempts: int = 1


class Result(dict):  # type: ignore[type-arg]
    """A response's ``data``: a plain dict, plus ``last_response`` and ``request_id``."""

    last_response: ResponseMeta

    @property
    def request_id(self) -> Optional[str]:
        return self.last_response.request_id


def backoff_seconds(attempt: int) -> float:
    """0.5 s, 1 s, 2 s, ... up to 8 s, each scaled by a random 50-100 % (jitter)."""
    return min(8.0, 0.5 * 2**attempt) * (0.5 + random.random() / 2)


def _retry_after(headers: Mapping[str, str]) -> Optional[float]:
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(raw) if raw else None
        return max(0.0, parsed.timestamp() - time.time()) if parsed else None


def retry_delay(error: BaseException, attempt: int) -> Optional[float]:
    """Seconds to wait before retrying ``error``, or None when it must not be retried."""
    if not isinstance(error, DarkroomError) or not error.retryable:
        return None
    after = _retry_after(error.headers)
    if after is not None:
        return None if after > MAX_RETRY_AFTER_SECONDS else after + random.random() / 4
    return backoff_seconds(attempt)


def fill_path(template: str, params: Mapping[str, str]) -> str:
    def one(name: str) -> str:
        value = params.get(name)
        if not value:
            raise TypeError(f"Missing path parameter {name}")
        # A model identifier is two path segments: its slash is sent as is.
        return "/".join(urllib.parse.quote(part, safe="") for part in str(value).split("/"))

    out, rest = "", template
    while "{" in rest:
        before, _, after = rest.partition("{")
        name, _, rest = after.partition("}")
        out += before + one(name)
    return out + rest


def _query_value(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def error_from_answer(status: int, headers: Mapping[str, str], body: Any) -> DarkroomError:
    headers = {k.lower(): v for k, v in headers.items()}
    envelope = body if isinstance(body, dict) else {}
    request_id = envelope.get("request_id") or headers.get("x-request-id")
    error = envelope.get("error") if envelope.get("status") == "error" else None
    if isinstance(error, dict):
        code = str(error.get("code") or f"http_{status}")
        cls = error_class_for(code, status)
        return cls(
            str(error.get("message") or f"HTTP {status}"),
            code=code,
            type=str(error.get("type") or "unknown"),
            status=status,
            retryable=error.get("retryable") is True,
            request_id=request_id,
            details=error.get("details") if isinstance(error.get("details"), dict) else {},
            headers=headers,
        )
    code = f"http_{status}"
    if 300 <= status < 400:
        location = headers.get("location")
        return error_class_for(code, status)(
            f"HTTP {status} redirect{f' to {location}' if location else ''} not followed: the API key is sent only to base_url's origin. Set base_url to the address the API serves.",
            code=code,
            type="redirect_refused",
            status=status,
            retryable=False,
            request_id=request_id,
            details={"location": location} if location else {},
            headers=headers,
        )
    # No envelope: a proxy or load balancer answered.
    return error_class_for(code, status)(
        f"HTTP {status} without a Darkroom envelope",
        code=code,
        type="http_error",
        status=status,
        retryable=status in (408, 429, 502, 503, 504),
        request_id=request_id,
        headers=headers,
    )


# What urllib raises when the API cannot be reached (or stops answering).
CONNECTION_FAILURES = (urllib.error.URLError, http.client.HTTPException, OSError, socket.timeout)


def connection_error(url: str, cause: BaseException) -> DarkroomConnectionError:
    """A failure to reach the API (retryable), raised ``from cause``."""
    return DarkroomConnectionError(
        f"The connection to {url} failed: {getattr(cause, 'reason', cause)}",
        code="connection_error",
        type="connection_error",
        status=0,
        retryable=True,
        request_id=None,
    )


@dataclass
class Transport:
    api_key: str
    origin: str
    max_retries: int = 2
    timeout: float = 60.0
    user_agent: str = "darkroom-python"
    extra_headers: Dict[str, str] = field(default_factory=dict)

    def url(self, path: str, query: Optional[Mapping[str, Any]] = None) -> str:
        pairs = [(k, _query_value(v)) for k, v in (query or {}).items() if v is not None]
        return self.origin + path + (("?" + urllib.parse.urlencode(pairs)) if pairs else "")

    def headers(self, extra: Optional[Mapping[str, Optional[str]]] = None) -> Dict[str, str]:
        headers = {"Authorization": f"Bearer {self.api_key}", "Accept": "application/json", "User-Agent": self.user_agent}
        for name, value in (extra or {}).items():
            if value is not None:
                headers[name] = value
        return headers

    def open(self, method: str, url: str, headers: Mapping[str, str], body: Optional[bytes], timeout: float) -> http.client.HTTPResponse:
        """One request; an HTTP error status is returned like any answer, never raised."""
        request = urllib.request.Request(url, data=body, method=method, headers=dict(headers))
        try:
            return _OPENER.open(request, timeout=timeout)  # noqa: S310 (the caller's base URL)
        except urllib.error.HTTPError as answer:
            return answer  # type: ignore[return-value]

    def call(
        self,
        operation: Mapping[str, Any],
        *,
        params: Optional[Mapping[str, str]] = None,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        headers: Optional[Mapping[str, Optional[str]]] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
    ) -> Tuple[Dict[str, Any], ResponseMeta]:
        url = self.url(fill_path(operation["path"], params or {}), query)
        data = None if body is None else json.dumps(body).encode("utf-8")
        sent = self.headers({**({"Content-Type": "application/json"} if data is not None else {}), **(headers or {})})
        retries = self.max_retries if max_retries is None else max_retries
        attempt = 0
        while True:
            try:
                envelope, status, answer_headers = self._once(operation["method"], url, sent, data, self.timeout if timeout is None else timeout)
                meta = ResponseMeta(
                    request_id=envelope.get("request_id") or answer_headers.get("x-request-id"),
                    status=status,
                    headers=answer_headers,
                    idempotency_replayed=answer_headers.get("idempotency-replayed") == "true",
                    idempotency_key=sent.get("Idempotency-Key"),
                    attempts=attempt + 1,
                )
                return envelope, meta
            except DarkroomError as error:
                delay = retry_delay(error, attempt) if attempt < retries else None
                if delay is None:
                    raise
                time.sleep(delay)
                attempt += 1

    def _once(self, method: str, url: str, headers: Mapping[str, str], data: Optional[bytes], timeout: float) -> Tuple[Dict[str, Any], int, Dict[str, str]]:
        try:
            with self.open(method, url, headers, data, timeout) as response:
                status = response.status
                answer_headers = {k.lower(): v for k, v in response.headers.items()}
                text = response.read().decode("utf-8", "replace")
        except CONNECTION_FAILURES as cause:
            raise connection_error(url, cause) from cause
        try:
            body = json.loads(text)
        except ValueError:
            body = None
        if 200 <= status < 300 and isinstance(body, dict) and body.get("status") == "success":
            return body, status, answer_headers
        raise error_from_answer(status, answer_headers, body)
