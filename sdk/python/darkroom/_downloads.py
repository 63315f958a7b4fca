"""The downloads (``GET /v1/usage/export``): a file answered as it streams, not an envelope.

The request is retried like any read until the file starts (a refusal raises the envelope's error);
the client's timeout covers each read of the socket. Iterate ``iter_bytes()`` to take the file a
chunk at a time, ``save(path)`` to write it, or ``text()`` to read it whole; close it (or use it
as a context manager) when stopping early.
"""
from __future__ import annotations

import http.client
import json
import re
import time
from typing import Any, Dict, Iterator, Mapping, Optional

from ._darkroom_error import DarkroomError
from ._transport import CONNECTION_FAILURES, ResponseMeta, Transport, connection_error, error_from_answer, fill_path, retry_delay

_FILENAME = re.compile(r'filename="([^"]*)"')


class Download:
    """A file as it arrives: ``filename``, ``content_type``, ``last_response`` and its bytes."""

    def __init__(self, response: http.client.HTTPResponse, meta: ResponseMeta) -> None:
        self._response = response
        self.last_response = meta
        disposition = meta.headers.get("content-disposition") or ""
        match = _FILENAME.search(disposition)
        self.filename: Optional[str] = match.group(1) if match else None
        self.content_type: Optional[str] = meta.headers.get("content-type")

    def iter_bytes(self, chunk_size: int = 64 * 1024) -> Iterator[bytes]:
        """The file's bytes, a chunk at a time, as they arrive."""
        try:
            while True:
                chunk = self._response.read(chunk_size)
                if not chunk:
                    return
                yield chunk
        finally:
            self.close()

    def save(self, path: str) -> int:
        """Writes the file to ``path`` as it arrives; returns the bytes written."""
        written = 0
        with open(path, "wb") as out:
            for chunk in self.iter_bytes():
                out.write(chunk)
                written += len(chunk)
        return written

    def text(self) -> str:
        """The whole file as text (UTF-8)."""
        return b"".join(self.iter_bytes()).decode("utf-8")

    def close(self) -> None:
        self._response.close()

    def __enter__(self) -> "Download":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def download(
    transport: Transport,
    operation: Mapping[str, Any],
    *,
    params: Optional[Mapping[str, str]] = None,
    query: Optional[Mapping[str, Any]] = None,
    timeout: Optional[float] = None,
) -> Download:
    url = transport.url(fill_path(operation["path"], params or {}), query)
    headers = transport.headers({"Accept": f"{operation['contentType']}, application/json"})
    attempt = 0
    while True:
        try:
            return _once(transport, operation["method"], url, headers, transport.timeout if timeout is None else timeout, attempt)
        except DarkroomError as error:
            delay = retry_delay(error, attempt) if attempt < transport.max_retries else None
            if delay is None:
                raise
            time.sleep(delay)
            attempt += 1


def _once(transport: Transport, method: str, url: str, headers: Dict[str, str], timeout: float, attempt: int) -> Download:
    try:
        response = transport.open(method, url, headers, None, timeout)
    except CONNECTION_FAILURES as cause:
        raise connection_error(url, cause) from cause
    answer_headers = {k.lower(): v for k, v in response.headers.items()}
    if not 200 <= response.status < 300 or answer_headers.get("content-type", "").startswith("application/json"):
        with response:
            text = response.read().decode("utf-8", "replace")
        try:
            body = json.loads(text)
        except ValueError:
            body = None
        raise error_from_answer(response.status, answer_headers, body)
    meta = ResponseMeta(
        request_id=answer_headers.get("x-request-id"),
        status=response.status,
        headers=answer_headers,
        idempotency_replayed=False,
        idempotency_key=None,
        attempts=attempt + 1,
    )
    return Download(response, meta)
