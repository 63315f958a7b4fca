"""Server-Sent Events over urllib, reconnecting with Last-Event-ID.

The parser follows the WHATWG format (``id:``, ``event:``, ``data:`` lines, a blank line ends an
event, ``:`` lines are comments such as heartbeats). No event is lost across a reconnect, and no
event id is handed out twice (ids are opaque strings, compared for equality only).
"""
from __future__ import annotations

import json
import re
import socket
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, Iterator, Mapping, Optional

from ._errors import DarkroomConnectionError, DarkroomError
from ._transport import Transport, backoff_seconds, error_from_answer, retry_delay

# Heartbeats come every 15 s: a read this long without one means the connection is gone.
STREAM_READ_TIMEOUT = 45.0
# How many recent ids a stream remembers to drop a repeat (a resume repeats at most a few).
REMEMBERED_IDS = 1024
_RETRY = re.compile(r"[0-9]+", re.ASCII)


@dataclass
class StreamEvent:
    """One event: ``data`` parsed from JSON (text when it is not JSON); ``id`` its own id, None when it has none."""

    id: Optional[str]
    event: str
    data: Any


@dataclass
class RawEvent:
    # The last event id as EventSource keeps it: this event's own, else the one before it.
    id: Optional[str]
    event: str
    data: str
    retry: Optional[int]
    # This event's own ``id:`` line, None when it had none (a resume snapshot may have none).
    own_id: Optional[str] = None


def parse_event_stream(lines: Iterable[bytes]) -> Iterator[RawEvent]:
    """Events from the raw lines of a stream (any of CRLF, LF or CR line ends).

    A last line the stream ended in the middle of (no line end) is dropped, as EventSource does.
    """
    last_id: Optional[str] = None
    own_id: Optional[str] = None
    event, data, retry = "", [], None  # type: str, list, Optional[int]
    for raw in lines:
        text = raw.decode("utf-8", "replace")
        complete = text.endswith(("\n", "\r"))
        if text.endswith("\n"):
            text = text[:-1]
        if text.endswith("\r"):
            text = text[:-1]
        parts = text.split("\r")
        for line in parts if complete else parts[:-1]:
            if line == "":
                if data:
                    yield RawEvent(last_id, event or "message", "\n".join(data), retry, own_id)
                event, data, retry, own_id = "", [], None, None
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            if value.startswith(" "):
                value = value[1:]
            if name == "data":
                data.append(value)
            elif name == "event":
                event = value
            elif name == "id" and "\0" not in value:
                last_id = own_id = value
            elif name == "retry" and _RETRY.fullmatch(value):
                retry = int(value)


class _HandedOutIds:
    """The ids a stream has handed out (and the caller's starting one), the most recent kept."""

    def __init__(self, first: Optional[str]) -> None:
        self._ids: "OrderedDict[str, None]" = OrderedDict()
        if first:
            self._ids[first] = None

    def add(self, event_id: str) -> bool:
        """False when ``event_id`` was handed out already; else remembers it."""
        if event_id in self._ids:
            return False
        self._ids[event_id] = None
        if len(self._ids) > REMEMBERED_IDS:
            self._ids.popitem(last=False)
        return True


def _lines(response: Any, deadline: Optional[float], path: str) -> Iterator[bytes]:
    """The stream's lines; past the deadline (heartbeats keep arriving) it stops with an error."""
    for line in iter(response.readline, b""):
        if deadline is not None and time.monotonic() > deadline:
            raise DarkroomConnectionError(f"The event stream {path} ran past its deadline", code="connection_error", type="connection_error", status=0, retryable=False, request_id=None)
        yield line


def read_event_stream(
    transport: Transport,
    path: str,
    query: Mapping[str, Optional[str]],
    *,
    last_event_id: Optional[str] = None,
    max_reconnects: Optional[int] = None,
    is_last: Callable[[StreamEvent], bool] = lambda _event: False,
    deadline: Optional[float] = None,
    ends_cleanly: Callable[[StreamEvent], bool] = lambda _event: False,
) -> Iterator[StreamEvent]:
    """Reads ``path`` as an event stream, reconnecting with Last-Event-ID when the connection drops.

    Ends when ``is_last(event)`` says so, when the caller stops iterating (``close()`` on the
    generator closes the connection), or on an error before a stream started that is not retryable.
    An event without an id (a resume snapshot) keeps the last one; an event whose id was handed out
    already (or is the caller's ``last_event_id``) is dropped, though it still counts for
    ``is_last`` and ``ends_cleanly``.
    Past ``deadline`` (``time.monotonic()``), a read that waits raises DarkroomConnectionError.
    """
    last_event_id = last_event_id or None
    handed_out = _HandedOutIds(last_event_id)
    limit = transport.max_retries if max_reconnects is None else max_reconnects
    failures = 0
    server_retry: Optional[float] = None
    url = transport.url(path, query)
    while True:
        headers: Dict[str, Optional[str]] = {"Accept": "text/event-stream", "Cache-Control": "no-cache", "Last-Event-ID": last_event_id}
        opened = False
        finished = False
        response = None
        read_timeout = STREAM_READ_TIMEOUT
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise DarkroomConnectionError(f"The event stream {path} ran past its deadline", code="connection_error", type="connection_error", status=0, retryable=True, request_id=None)
            read_timeout = min(read_timeout, remaining)
        try:
            response = transport.open("GET", url, transport.headers(headers), None, read_timeout)
            content_type = response.headers.get("content-type", "")
            if not (200 <= response.status < 300) or "text/event-stream" not in content_type:
                text = response.read().decode("utf-8", "replace")
                try:
                    body = json.loads(text)
                except ValueError:
                    body = None
                raise error_from_answer(response.status, dict(response.headers.items()), body)
            opened = True
            for raw in parse_event_stream(_lines(response, deadline, path)):
                failures = 0
                if raw.retry is not None:
                    server_retry = raw.retry / 1000
                # ``id:`` with no value clears the id (EventSource's rule): the next connection sends none.
                if raw.own_id is not None:
                    last_event_id = raw.own_id or None
                try:
                    data: Any = json.loads(raw.data)
                except ValueError:
                    data = raw.data
                event = StreamEvent(raw.own_id or None, raw.event, data)
                if event.id is None or handed_out.add(event.id):
                    yield event
                if is_last(event):
                    return
                if ends_cleanly(event):
                    finished = True
        except DarkroomError as error:
            if not opened and not error.retryable:
                raise
            if failures >= limit:
                raise
            failures += 1
            time.sleep(retry_delay(error, failures - 1) or backoff_seconds(failures - 1))
            continue
        except (OSError, socket.timeout, ValueError) as cause:
            error = DarkroomConnectionError(
                f"The event stream {path} failed: {cause}", code="connection_error", type="connection_error", status=0, retryable=True, request_id=None
            )
            if failures >= limit:
                raise error from cause
            failures += 1
            time.sleep(backoff_seconds(failures - 1))
            continue
        finally:
            if response is not None:
                response.close()
        # A resumed stream of a generation that had already ended: its snapshot said so.
        if finished:
            return
        # The server ended the stream before its last event (a restart, a proxy's idle cut): resume.
        if failures >= limit:
            raise DarkroomConnectionError(
                f"The event stream {path} kept ending", code="connection_error", type="connection_error", status=0, retryable=True, request_id=None
            )
        failures += 1
        time.sleep(server_retry if server_retry is not None else backoff_seconds(failures - 1))
