"""The client: one method per /v1 operation and per live stream (the generated tables say where each
goes and which events a stream sends), plus ``wait`` and webhook verification."""
from __future__ import annotations

import os
import time
import uuid
from typing import Any, Dict, Iterator, Mapping, Optional, Union, cast

from . import _generated as types
from ._errors import AuthenticationError, DarkroomError, PermissionDeniedError, WaitTimeoutError
from ._generated import OPERATIONS, STREAM_OPERATIONS
from ._sse import StreamEvent, read_event_stream
from ._transport import Result, Transport, fill_path
from ._webhooks import Webhooks

VERSION = "0.1.0"
TERMINAL_STATUSES = ("succeeded", "failed", "canceled")
TERMINAL_EVENTS = tuple(STREAM_OPERATIONS["streamGenerationEvents"]["endsAfter"])


def is_terminal(record: Mapping[str, Any]) -> bool:
    return record.get("generation_status") in TERMINAL_STATUSES


def _cancel_after(value: Union[str, int, float, None]) -> Optional[str]:
    if value is None:
        return None
    return value if isinstance(value, str) else f"{round(value)}s"


def _stream(
    client: "Darkroom",
    operation_id: str,
    params: Mapping[str, str],
    query: Mapping[str, Optional[str]],
    *,
    last_event_id: Optional[str] = None,
    deadline: Optional[float] = None,
) -> Iterator[StreamEvent]:
    """Reads one live stream of the generated table; it ends after an event of its ``endsAfter``,
    or when a snapshot shows the generation finished and the server then ends the stream."""
    spec = STREAM_OPERATIONS[operation_id]
    ends_after = frozenset(spec["endsAfter"])

    def finished(event: StreamEvent) -> bool:
        return bool(ends_after) and event.event == "generation.snapshot" and isinstance(event.data, dict) and is_terminal(event.data)

    path = fill_path(spec["path"], params)
    return read_event_stream(
        client._transport, path, query, last_event_id=last_event_id, is_last=lambda event: event.event in ends_after, ends_cleanly=finished, deadline=deadline
    )


class _Resource:
    def __init__(self, client: "Darkroom") -> None:
        self._client = client


class Generate(_Resource):
    def image(
        self,
        model: str,
        params: Union[types.GenerationRequestImage, Mapping[str, Any]],
        *,
        idempotency_key: Optional[str] = None,
        wait: Union[bool, float] = False,
        cancel_after: Union[str, int, float, None] = None,
        timeout: Optional[float] = None,
    ) -> types.GenerationCreated:
        """Starts an image generation (202: credits reserved, ``pending``).

        ``wait=True`` (or a number of seconds) waits for the end and returns the record in
        ``generation_record``; ``cancel_after`` ("90s", "5m", or seconds) sets a deadline.
        """
        return self._client._create("createImageGeneration", model, params, idempotency_key, wait, cancel_after, timeout)

    def video(
        self,
        model: str,
        params: Union[types.GenerationRequestVideo, Mapping[str, Any]],
        *,
        idempotency_key: Optional[str] = None,
        wait: Union[bool, float] = False,
        cancel_after: Union[str, int, float, None] = None,
        timeout: Optional[float] = None,
    ) -> types.GenerationCreated:
        """Starts a video generation (``generation_duration`` is required)."""
        return self._client._create("createVideoGeneration", model, params, idempotency_key, wait, cancel_after, timeout)


class Generations(_Resource):
    def get(self, generation_id: str) -> types.GenerationRecord:
        return cast(types.GenerationRecord, self._client.request("getGeneration", params={"generation_id": generation_id}))

    def list(self, *, limit: Optional[int] = None, offset: Optional[int] = None) -> Dict[str, Any]:
        """One page, newest first: ``generations``, ``total``, ``limit``, ``offset``."""
        return self._client.request("listGenerations", query={"limit": limit, "offset": offset})

    def pages(self, *, limit: int = 100, offset: int = 0) -> Iterator[Dict[str, Any]]:
        """Every page from ``offset`` on."""
        while True:
            page = self.list(limit=limit, offset=offset)
            yield page
            offset += len(page["generations"])
            if not page["generations"] or offset >= page["total"]:
                return

    def iterate(self, *, limit: int = 100, offset: int = 0) -> Iterator[types.GenerationRecord]:
        """Every generation from ``offset`` on, fetching pages as the loop goes."""
        for page in self.pages(limit=limit, offset=offset):
            yield from page["generations"]

    def cancel(self, generation_id: str) -> types.GenerationCanceled:
        """Cancels a ``pending`` or ``processing`` generation; refunds what it reserved. ERR1010 once terminal."""
        return cast(types.GenerationCanceled, self._client.request("cancelGeneration", params={"generation_id": generation_id}))

    def delete(self, generation_id: str) -> types.GenerationDeleted:
        """Deletes the output files; the record stays with ``generation_removed: "true"``."""
        return cast(types.GenerationDeleted, self._client.request("deleteGeneration", params={"generation_id": generation_id}))

    def stream(self, generation_id: str, *, last_event_id: Optional[str] = None) -> Iterator[StreamEvent]:
        """The generation's events as they happen: a snapshot first, then processing, attempts,
        and one terminal event that ends it."""
        return _stream(self._client, "streamGenerationEvents", {"generation_id": generation_id}, {}, last_event_id=last_event_id)

    def wait(self, generation_id: str, *, timeout: float = 300.0, poll_interval: float = 1.0) -> types.GenerationRecord:
        """The record once terminal: from the stream, or by polling where the stream is not available."""
        deadline = time.monotonic() + timeout
        last: Optional[Dict[str, Any]] = None
        events = _stream(self._client, "streamGenerationEvents", {"generation_id": generation_id}, {}, deadline=deadline)
        try:
            for event in events:
                if isinstance(event.data, dict) and "generation_status" in event.data:
                    last = event.data
                if event.event in TERMINAL_EVENTS or (last is not None and is_terminal(last)):
                    return cast(types.GenerationRecord, last if last is not None else event.data)
                if time.monotonic() > deadline:
                    raise WaitTimeoutError(generation_id, last, timeout)
        except (AuthenticationError, PermissionDeniedError, WaitTimeoutError):
            raise
        except DarkroomError:
            # No stream route on this server, a proxy that buffers streams: poll instead.
            pass
        finally:
            events.close()
        poll = 0
        while True:
            record = self.get(generation_id)
            if is_terminal(record):
                return record
            interval = min(5.0, poll_interval * 1.5 ** min(poll, 4))
            if time.monotonic() + interval > deadline:
                raise WaitTimeoutError(generation_id, dict(record), timeout)
            time.sleep(interval)
            poll += 1


class Events(_Resource):
    def stream(self, *, last_event_id: Optional[str] = None, model_identifier: Optional[str] = None) -> Iterator[StreamEvent]:
        """Every generation event of the account for as long as the loop runs (reconnecting with Last-Event-ID)."""
        return _stream(self._client, "streamAccountEvents", {}, {"model_identifier": model_identifier}, last_event_id=last_event_id)


class Health(_Resource):
    def providers(self) -> types.ProvidersHealth:
        return cast(types.ProvidersHealth, self._client.request("getProviderHealth"))

    def models(self) -> types.ModelsHealth:
        return cast(types.ModelsHealth, self._client.request("getModelHealth"))

    def storage(self) -> types.StorageHealth:
        return cast(types.StorageHealth, self._client.request("getStorageHealth"))

    def cache(self) -> types.CacheHealth:
        return cast(types.CacheHealth, self._client.request("getCacheHealth"))


class Library(_Resource):
    def providers(self) -> types.LibraryProviderList:
        return cast(types.LibraryProviderList, self._client.request("listProviders"))

    def models(self) -> types.LibraryModelList:
        return cast(types.LibraryModelList, self._client.request("listModels"))


class Darkroom:
    """``Darkroom(api_key=..., base_url=..., region=..., max_retries=2, timeout=60.0)``.

    ``api_key`` defaults to DARKROOM_API_KEY; ``base_url`` (with or without ``/v1``, may hold
    ``{region}``, filled from ``region``) to DARKROOM_BASE_URL, else http://localhost:3000.
    """

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
        self.generate = Generate(self)
        self.generations = Generations(self)
        self.events = Events(self)
        self.health = Health(self)
        self.library = Library(self)
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
            data.update(total=envelope.get("total"), limit=envelope.get("limit"), offset=envelope.get("offset"))
        result = Result(data)
        result.last_response = meta
        return result

    def stream(
        self, operation_id: str, params: Optional[Mapping[str, str]] = None, query: Optional[Mapping[str, Optional[str]]] = None, *, last_event_id: Optional[str] = None
    ) -> Iterator[StreamEvent]:
        """Reads one live stream of the generated table (``types.STREAM_OPERATIONS``), as
        ``generations.stream`` and ``events.stream`` do."""
        return _stream(self, operation_id, params or {}, query or {}, last_event_id=last_event_id)

    def status(self) -> types.KeyStatus:
        """The key and its account."""
        return cast(types.KeyStatus, self.request("getStatus"))

    def usage(self, *, days: Optional[int] = None) -> types.UsageSummary:
        """Requests, generations and spend over the last ``days`` (1-90, default 30)."""
        return cast(types.UsageSummary, self.request("getUsage", query={"days": days}))

    def account(self) -> types.AccountProfile:
        return cast(types.AccountProfile, self.request("getAccount"))

    def billing(self) -> types.BillingSummary:
        return cast(types.BillingSummary, self.request("getBilling"))

    def estimate(self, model: str, *, count: Optional[int] = None, duration: Optional[float] = None, resolution: Optional[str] = None, audio: Optional[bool] = None) -> types.Estimate:
        """What ``count`` outputs (and a video's duration, resolution, audio) would cost."""
        query = {"count": count, "duration": duration, "resolution": resolution, "audio": audio}
        return cast(types.Estimate, self.request("getEstimate", params={"model_identifier": model}, query=query))

    def _create(
        self,
        operation_id: str,
        model: str,
        params: Mapping[str, Any],
        idempotency_key: Optional[str],
        wait: Union[bool, float],
        cancel_after: Union[str, int, float, None],
        timeout: Optional[float],
    ) -> types.GenerationCreated:
        headers = {"Idempotency-Key": idempotency_key or f"sdk-{uuid.uuid4()}", "Cancel-After": _cancel_after(cancel_after)}
        created = self.request(operation_id, params={"model_identifier": model}, body=dict(params), headers=headers, timeout=timeout)
        if wait is not False and wait is not None:
            wait_timeout = 300.0 if wait is True else float(wait)
            created["generation_record"] = self.generations.wait(created["generation_id"], timeout=wait_timeout)
        return cast(types.GenerationCreated, created)
