"""The hand-written core under the generated client (``_client.py``): options, the transport, one
call of the generated table, the create helper (Idempotency-Key, wait, Cancel-After), the stream
reader and pagination, and webhook verification."""
from __future__ import annotations

import os
import uuid
from typing import Any, Dict, Iterator, Mapping, Optional, Union

from ._downloads import Download, download
from ._generated import DOWNLOAD_OPERATIONS, OPERATIONS, STREAM_OPERATIONS
from ._sse import StreamEvent, read_event_stream
from ._transport import Result, Transport, fill_path
from ._webhooks import Webhooks

VERSION = "0.1.0"
TERMINAL_STATUSES = ("succeeded", "failed", "canceled")


def is_terminal(record: Mapping[str, Any]) -> bool:
    return record.get("generation_status") in TERMINAL_STATUSES


def _cancel_after(value: Union[str, int, float, None]) -> Optional[str]:
    if value is None:
        return None
    return value if isinstance(value, str) else f"{round(value)}s"


class ClientCore:
    """``Darkroom(api_key=..., base_url=..., region=..., max_retries=2, timeout=60.0)``.

    ``api_key`` defaults to DARKROOM_API_KEY; ``base_url`` (with or without ``/v1``, may hold
    ``{region}``, filled from ``region``) to DARKROOM_BASE_URL, else http://localhost:3000.
    """

    generations: Any  # the generated client's resource, with the hand-written ``wait`` (``_generations``)

    def __init__(
        self,
        api_key: Optional[str] = None,
        *,
        base_url: Optional[str] = None,
        region: Optional[str] = None,
        max_retries: int = 2,
        timeout: float = 60.0,
    ) -> None:
        key = api_key or os.environ.get("DARKROOM_API_KEY")
        if not key:
            raise TypeError("Darkroom: api_key is required (or set DARKROOM_API_KEY)")
        base = base_url or os.environ.get("DARKROOM_BASE_URL") or "http://localhost:3000"
        if "{region}" in base:
            if not region:
                raise TypeError("Darkroom: base_url has {region} but no region was given")
            base = base.replace("{region}", region)
        origin = base.rstrip("/")
        if origin.endswith("/v1"):
            origin = origin[: -len("/v1")]
        self._transport = Transport(api_key=key, origin=origin, max_retries=max_retries, timeout=timeout, user_agent=f"darkroom-python/{VERSION}")
        self.webhooks = Webhooks()

    def request(
        self,
        operation_id: str,
        *,
        params: Optional[Mapping[str, str]] = None,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        headers: Optional[Mapping[str, Optional[str]]] = None,
        timeout: Optional[float] = None,
    ) -> Result:
        """Calls one operation of the generated table; returns its ``data`` with ``last_response``."""
        operation = OPERATIONS[operation_id]
        envelope, meta = self._transport.call(operation, params=params, query=query, body=body, headers=headers, timeout=timeout)
        data = dict(envelope.get("data") or {})
        if operation["paginated"]:
            data.update(
                total=envelope.get("total"),
                limit=envelope.get("limit"),
                offset=envelope.get("offset"),
                has_more=envelope.get("has_more"),
                next_cursor=envelope.get("next_cursor"),
            )
        result = Result(data)
        result.last_response = meta
        return result

    def download(
        self,
        operation_id: str,
        *,
        params: Optional[Mapping[str, str]] = None,
        query: Optional[Mapping[str, Any]] = None,
        timeout: Optional[float] = None,
    ) -> Download:
        """Calls one download of the generated table: the file as it streams (``_downloads.Download``)."""
        return download(self._transport, DOWNLOAD_OPERATIONS[operation_id], params=params, query=query, timeout=timeout)

    def stream(
        self,
        operation_id: str,
        params: Optional[Mapping[str, str]] = None,
        query: Optional[Mapping[str, Optional[str]]] = None,
        *,
        last_event_id: Optional[str] = None,
        deadline: Optional[float] = None,
    ) -> Iterator[StreamEvent]:
        """Reads one live stream of the generated table (``types.STREAM_OPERATIONS``); it ends after an
        event of its ``endsAfter``, or when a snapshot shows the generation finished and the server
        then ends the stream."""
        spec = STREAM_OPERATIONS[operation_id]
        ends_after = frozenset(spec["endsAfter"])

        def finished(event: StreamEvent) -> bool:
            return bool(ends_after) and event.event == "generation.snapshot" and isinstance(event.data, dict) and is_terminal(event.data)

        path = fill_path(spec["path"], params or {})
        return read_event_stream(
            self._transport, path, query or {}, last_event_id=last_event_id, is_last=lambda event: event.event in ends_after, ends_cleanly=finished, deadline=deadline
        )

    def _create(
        self,
        operation_id: str,
        params: Mapping[str, str],
        body: Mapping[str, Any],
        *,
        idempotency_key: Optional[str],
        wait: Union[bool, float],
        cancel_after: Union[str, int, float, None],
        timeout: Optional[float],
    ) -> Result:
        """Calls a create operation: always with an Idempotency-Key, so the client's own retries never
        start two generations; ``wait`` waits for the end and puts the record in ``generation_record``."""
        headers = {"Idempotency-Key": idempotency_key or f"sdk-{uuid.uuid4()}", "Cancel-After": _cancel_after(cancel_after)}
        created = self.request(operation_id, params=params, body=dict(body), headers=headers, timeout=timeout)
        if wait is not False and wait is not None:
            wait_timeout = 300.0 if wait is True else float(wait)
            created["generation_record"] = self.generations.wait(created["generation_id"], timeout=wait_timeout)
        return created

    def _pages(self, operation_id: str, items_key: str, *, limit: int = 100, offset: int = 0) -> Iterator[Dict[str, Any]]:
        """Every page of a paginated list from ``offset`` on."""
        while True:
            page = self.request(operation_id, query={"limit": limit, "offset": offset})
            yield page
            offset += len(page[items_key])
            if not page[items_key] or offset >= page["total"]:
                return

    def _iterate(self, operation_id: str, items_key: str, *, limit: int = 100, offset: int = 0) -> Iterator[Any]:
        """Every item of a paginated list from ``offset`` on, fetching pages as the loop goes."""
        for page in self._pages(operation_id, items_key, limit=limit, offset=offset):
            yield from page[items_key]
