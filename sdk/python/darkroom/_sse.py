"""Server-Sent Events over urllib, reconnecting with Last-Event-ID.

The parser follows the WHATWG format (``id:``, ``event:``, ``data:`` lines, a blank line ends an
event, ``:`` lines are comments such as heartbeats).
"""
from __future__ import annotations

import json
import socket
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, Iterator, Mapping, Optional

from ._errors import DarkroomConnectionError, DarkroomError
from ._transport import Transport, backoff_seconds, error_from_answer, retry_delay

# Heartbeats come every 15 s: a read this long without one means the connection is gone.
STREAM_READ_TIMEOUT = 45.0


@dataclass
class StreamEvent:
    """One event: ``data`` parsed from JSON (text when it is not JSON)."""

    id: Optional[str]
    event: str
    data: Any


@dataclass
class RawEvent:
    id: Optional[str]
    event: str
    data: str
    retry: Optional[int]


def parse_event_stream(lines: Iterable[bytes]) -> Iterator[RawEvent]:
    """Events from the raw lines of a stream (any of CRLF, LF or CR line ends)."""
    last_id: Optional[str] = None
    event, data, retry = "", [], None  # type: str, list, Optional[int]
    for raw in lines:
        text = raw.decode("utf-8", "replace")
        if text.endswith("\n"):
            text = text[:-1]
        if text.endswith("\r"):
            text = text[:-1]
        for line in text.split("\r"):
            if line == "":
                if data:
                    yield RawEvent(last_id, event or "message", "\n".join(data), retry)
                event, data, retry = "", [], None
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
                last_id = value
            elif name == "retry" and value.isdigit():
                retry = int(value)


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
    Past ``deadline`` (``time.monotonic()``), a read that waits raises DarkroomConnectionError.
    """
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
                if raw.id is not None:
                    last_event_id = raw.id
                try:
                    data: Any = json.loads(raw.data)
                except ValueError:
                    data = raw.data
                event = StreamEvent(raw.id, raw.event, data)
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
