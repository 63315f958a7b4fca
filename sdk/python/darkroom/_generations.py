"""The generated ``generations`` resource and the helpers written by hand: ``wait`` and ``list_all``."""
from __future__ import annotations

import time
from typing import Any, Dict, Iterator, Optional, cast

from . import _generated as types
from ._core import is_terminal
from ._darkroom_error import DarkroomError
from ._error_families import AuthenticationError, PermissionDeniedError
from ._errors import WaitTimeoutError
from ._generated import STREAM_OPERATIONS
from ._resources import Generations as _GeneratedGenerations

TERMINAL_EVENTS = tuple(STREAM_OPERATIONS["streamGenerationEvents"]["endsAfter"])


class Generations(_GeneratedGenerations):
    def list_all(self, *, limit: int = 100, starting_after: Optional[str] = None) -> Iterator[types.GenerationRecord]:
        """Every generation of the account, newest first (after ``starting_after`` when given), read
        page after page by cursor: none is repeated or skipped while new ones are created meanwhile
        (those are newer than the first page and not listed), unlike paging by ``offset``."""
        while True:
            page = self.list(limit=limit, starting_after=starting_after)
            for generation in page["generations"]:
                yield cast(types.GenerationRecord, generation)
            if not page.get("has_more") or not page.get("next_cursor"):
                return
            starting_after = page["next_cursor"]

    def wait(self, generation_id: str, *, timeout: float = 300.0, poll_interval: float = 1.0) -> types.GenerationRecord:
        """The record once terminal: from the stream, or by polling where the stream is not available."""
        deadline = time.monotonic() + timeout
        last: Optional[Dict[str, Any]] = None
        events = self._client.stream("streamGenerationEvents", {"generation_id": generation_id}, {}, deadline=deadline)
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
