"""The hand-written core without a Darkroom server: error families, retries (Retry-After,
max_retries, one Idempotency-Key across attempts), Cancel-After, the SSE parser, list_all (cursor paging), the streams
against a local server speaking the wire format of issue #31, and webhook verification."""
from __future__ import annotations

import concurrent.futures
import hashlib
import hmac
import json
import time
import unittest
import urllib.parse
from typing import List

import darkroom
from darkroom import (
    AuthenticationError,
    ConflictError,
    Darkroom,
    DarkroomConnectionError,
    InsufficientCreditsError,
    NotFoundError,
    PermissionDeniedError,
    ProviderError,
    RateLimitError,
    ServerError,
    SpendLimitError,
    ValidationError,
    WebhookVerificationError,
    StreamEvent,
    error_class_for,
    parse_event_stream,
)

from .support import LocalServer, error, send_json, success

CREATED = {"model_identifier": "darkroom/lumen-image", "generation_provider_order": ["local"], "generation_prediction_id": None, "generation_id": "g-1", "generation_initialized": True}


class ErrorFamilies(unittest.TestCase):
    def test_every_code_maps_to_its_family(self) -> None:
        expected = {
            "ERR1001": ValidationError, "ERR1002": AuthenticationError, "ERR1003": PermissionDeniedError, "ERR1004": InsufficientCreditsError,
            "ERR1005": RateLimitError, "ERR1006": NotFoundError, "ERR1007": PermissionDeniedError, "ERR1008": ValidationError,
            "ERR1009": RateLimitError, "ERR1010": ConflictError, "ERR1011": ValidationError, "ERR1012": NotFoundError,
            "ERR1014": SpendLimitError, "ERR1015": ValidationError, "ERR2014": ValidationError, "ERR2015": ConflictError,
            "ERR2016": ConflictError, "ERR3001": ServerError, "ERR4001": ProviderError, "ERR4004": ProviderError,
            "ERR4006": ProviderError, "ERR5000": ServerError,
        }  # fmt: skip
        for code, family in expected.items():
            self.assertIs(error_class_for(code, 400), family, code)
        self.assertIs(error_class_for("http_401", 401), AuthenticationError)
        self.assertIs(error_class_for("http_503", 503), ServerError)

    def test_spend_limit_from_a_create_is_not_retried(self) -> None:
        details = {"scope": "apikey", "limit": 5, "used": 4.5, "requested": 1, "resets_at": None}
        with LocalServer(lambda h, _r: send_json(h, 402, error("ERR1014", "spend_limit_exceeded", False, details))) as server:
            client = Darkroom("dkr_x", base_url=server.base_url)
            with self.assertRaises(SpendLimitError) as caught:
                client.generate.image("darkroom/lumen-image", {"generation_prompt": "x"})
            self.assertEqual((caught.exception.code, caught.exception.status, caught.exception.retryable), ("ERR1014", 402, False))
            self.assertEqual(caught.exception.details, details)
            self.assertEqual(caught.exception.request_id, "00000000-0000-4000-8000-000000000001")
            self.assertEqual(len(server.recorder.requests), 1)

    def test_an_answer_outside_the_envelope(self) -> None:
        def handle(h, _r):  # type: ignore[no-untyped-def]
            h.send_response(502)
            h.send_header("content-length", "3")
            h.send_header("x-request-id", "from-the-proxy")
            h.end_headers()
            h.wfile.write(b"bad")

        with LocalServer(handle) as server:
            with self.assertRaises(ServerError) as caught:
                Darkroom("dkr_x", base_url=server.base_url, max_retries=0).status()
            self.assertEqual((caught.exception.code, caught.exception.retryable, caught.exception.request_id), ("http_502", True, "from-the-proxy"))


class Retries(unittest.TestCase):
    def test_retry_after_is_honoured_and_the_idempotency_key_kept(self) -> None:
        def handle(h, recorder):  # type: ignore[no-untyped-def]
            if len(recorder.requests) == 1:
                send_json(h, 429, error("ERR1005", "rate_limit_exceeded", True), {"retry-after": "1"})
            else:
                send_json(h, 202, success(CREATED))

        with LocalServer(handle) as server:
            started = time.monotonic()
            created = Darkroom("dkr_x", base_url=server.base_url).generate.image("darkroom/lumen-image", {"generation_prompt": "x"})
            self.assertGreaterEqual(time.monotonic() - started, 1.0)
            self.assertEqual(created.last_response.attempts, 2)  # type: ignore[attr-defined]
            keys = [request["headers"]["idempotency-key"] for request in server.recorder.requests]
            self.assertRegex(keys[0], r"^sdk-[0-9a-f-]{36}$")
            self.assertEqual(keys[1], keys[0])

    def test_at_most_max_retries_and_none_for_a_refusal(self) -> None:
        with LocalServer(lambda h, _r: send_json(h, 500, error("ERR5000", "internal_error", True))) as server:
            with self.assertRaises(ServerError):
                Darkroom("dkr_x", base_url=server.base_url, max_retries=2).account()
            self.assertEqual(len(server.recorder.requests), 3)
        with LocalServer(lambda h, _r: send_json(h, 400, error("ERR1001", "invalid_request", False))) as server:
            with self.assertRaises(ValidationError):
                Darkroom("dkr_x", base_url=server.base_url, max_retries=5).usage(days=0)
            self.assertEqual(len(server.recorder.requests), 1)

    def test_no_server_is_a_connection_error_after_the_retries(self) -> None:
        with LocalServer(lambda h, _r: None) as server:
            base = server.base_url
        with self.assertRaises(DarkroomConnectionError) as caught:
            Darkroom("dkr_x", base_url=base, max_retries=1).account()
        self.assertEqual((caught.exception.code, caught.exception.status, caught.exception.retryable), ("connection_error", 0, True))


class Requests(unittest.TestCase):
    def test_headers_paths_and_query(self) -> None:
        def handle(h, recorder):  # type: ignore[no-untyped-def]
            send_json(h, 202 if h.command == "POST" else 200, success(CREATED if h.command == "POST" else {}))

        with LocalServer(handle) as server:
            client = Darkroom("dkr_key", base_url=server.base_url.replace("127.0.0.1", "{region}"), region="127.0.0.1")
            client.generate.image("darkroom/lumen-image", {"generation_prompt": "x"}, cancel_after="1h30m", idempotency_key="mine-1")
            client.generate.video("darkroom/lumen-video", {"generation_prompt": "x", "generation_duration": 2}, cancel_after=90)
            client.estimate("darkroom/lumen-video", count=2, audio=False)
            first, second, third = server.recorder.requests
            self.assertEqual(first["path"], "/v1/generate/image/darkroom/lumen-image")
            self.assertEqual(first["headers"]["authorization"], "Bearer dkr_key")
            self.assertEqual((first["headers"]["cancel-after"], first["headers"]["idempotency-key"]), ("1h30m", "mine-1"))
            self.assertEqual(json.loads(first["body"]), {"generation_prompt": "x"})
            self.assertEqual(second["headers"]["cancel-after"], "90s")
            self.assertEqual(third["path"], "/v1/estimate/darkroom/lumen-video?count=2&audio=false")


def cursor_paged_list(count: int):  # type: ignore[no-untyped-def]
    """A list served the way /v1/content/list pages by cursor: newest first, ``starting_after`` = an
    id of the list, and a new generation created (at the front) after every answer."""
    id_of = lambda index: f"00000000-0000-4000-8000-{index:012d}"  # noqa: E731
    items = [id_of(count - index) for index in range(count)]
    created = [count]

    def handle(h, _recorder):  # type: ignore[no-untyped-def]
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(h.path).query)
        limit = int(query["limit"][0])
        after = query.get("starting_after", [None])[0]
        start = 0 if after is None else items.index(after) + 1
        page = items[start : start + limit]
        has_more = start + limit < len(items)
        body = success({"generations": [{"generation_id": i} for i in page]}, total=len(items), limit=limit, offset=0, has_more=has_more, next_cursor=page[-1] if has_more else None)
        created[0] += 1
        items.insert(0, id_of(created[0]))
        send_json(h, 200, body)

    return list(items), handle


class ListAll(unittest.TestCase):
    def test_every_generation_once_newest_first_while_new_ones_are_created(self) -> None:
        initial, handle = cursor_paged_list(7)
        with LocalServer(handle) as server:
            seen = [g["generation_id"] for g in Darkroom("dkr_x", base_url=server.base_url).generations.list_all(limit=3)]
            self.assertEqual(seen, initial)
            paths = [r["path"] for r in server.recorder.requests]
            self.assertEqual(paths, ["/v1/content/list?limit=3", f"/v1/content/list?limit=3&starting_after={initial[2]}", f"/v1/content/list?limit=3&starting_after={initial[5]}"])

    def test_after_the_callers_id_100_a_page_lazily_and_the_servers_err1001(self) -> None:
        initial, handle = cursor_paged_list(5)
        with LocalServer(handle) as server:
            client = Darkroom("dkr_x", base_url=server.base_url)
            self.assertEqual([g["generation_id"] for g in client.generations.list_all(starting_after=initial[1])], initial[2:])
            self.assertEqual(server.recorder.requests[0]["path"], f"/v1/content/list?limit=100&starting_after={initial[1]}")
            first = next(client.generations.list_all(limit=1))
            self.assertIn("generation_id", first)
            self.assertEqual(len(server.recorder.requests), 2)
        details = {"fields": [{"field": "starting_after", "message": "is not a generation of this account"}]}
        with LocalServer(lambda h, _r: send_json(h, 400, error("ERR1001", "invalid_request", False, details))) as server:
            with self.assertRaises(ValidationError) as caught:
                next(Darkroom("dkr_x", base_url=server.base_url).generations.list_all(starting_after=initial[0]))
            self.assertEqual((caught.exception.code, caught.exception.details), ("ERR1001", details))


def redirect_to(location: str):  # type: ignore[no-untyped-def]
    def handle(h, _r):  # type: ignore[no-untyped-def]
        h.send_response(307)
        h.send_header("location", location + h.path)
        h.send_header("content-length", "0")
        h.end_headers()

    return handle


class Redirects(unittest.TestCase):
    def test_a_redirect_to_another_origin_is_refused_and_the_key_never_leaves(self) -> None:
        with LocalServer(lambda h, _r: send_json(h, 200, success({"account_id": "a"}))) as other:
            other_origin = other.base_url[: -len("/v1")]
            other_port = other.httpd.server_address[1]
            # Another port, another host (localhost is not 127.0.0.1), another scheme (https on the same port).
            for target in (other_origin, f"http://localhost:{other_port}", f"https://127.0.0.1:{other_port}"):
                with LocalServer(redirect_to(target)) as api:
                    client = Darkroom("dkr_secret", base_url=api.base_url, max_retries=2)
                    with self.assertRaises(ServerError, msg=target) as caught:
                        client.status()
                    self.assertEqual((caught.exception.code, caught.exception.type, caught.exception.retryable), ("http_307", "redirect_refused", False))
                    self.assertEqual(caught.exception.details, {"location": f"{target}/v1/status"})
                    with self.assertRaises(ServerError):
                        list(client.events.stream())
                    # Not retried either: one request each, both to the API's own origin.
                    self.assertEqual(len(api.recorder.requests), 2)
            self.assertEqual(other.recorder.requests, [])

    def test_a_redirect_within_the_origin_is_followed_with_the_key(self) -> None:
        def handle(h, _r):  # type: ignore[no-untyped-def]
            if h.path == "/v1/status":
                h.send_response(307)
                h.send_header("location", "/v1/status/here")
                h.send_header("content-length", "0")
                h.end_headers()
                return
            send_json(h, 200, success({"account_id": "a"}))

        with LocalServer(handle) as api:
            self.assertEqual(Darkroom("dkr_secret", base_url=api.base_url).status()["account_id"], "a")
            self.assertEqual([r["path"] for r in api.recorder.requests], ["/v1/status", "/v1/status/here"])
            self.assertEqual(api.recorder.requests[1]["headers"]["authorization"], "Bearer dkr_secret")


class SseParser(unittest.TestCase):
    def test_line_ends_comments_multiline_data_and_kept_id(self) -> None:
        text = b': heartbeat\r\nid: 1\r\nevent: generation.snapshot\r\ndata: {"a":\r\ndata: 1}\r\n\r\n:hb\n\nevent: ping\ndata: x\n\nid: 2\revent: generation.completed\rdata: {"b":2}\r\r'
        lines = [line + b"\n" for line in text.split(b"\n")]
        events = [(e.id, e.event, e.data) for e in parse_event_stream(lines)]
        self.assertEqual(events, [("1", "generation.snapshot", '{"a":\n1}'), ("1", "ping", "x"), ("2", "generation.completed", '{"b":2}')])


def record(status: str) -> dict:
    return {"generation_id": "g-1", "generation_status": status}


FRAMES = [
    ("1", "generation.snapshot", record("pending")),
    ("2", "generation.processing", record("processing")),
    ("3", "generation.attempt", {"generation_id": "g-1", "provider": "local", "attempt": 1, "outcome": "started"}),
    ("4", "generation.completed", record("succeeded")),
]


def frame(event_id: str, name: str, data: object) -> bytes:
    return f"id: {event_id}\nevent: {name}\ndata: {json.dumps(data)}\n\n".encode()


def open_stream(h) -> None:  # type: ignore[no-untyped-def]
    h.send_response(200)
    h.send_header("content-type", "text/event-stream")
    h.send_header("cache-control", "no-cache")
    h.send_header("connection", "close")
    h.end_headers()


class Streams(unittest.TestCase):
    def test_generation_stream_resumes_after_a_drop_and_ends_at_the_terminal_event(self) -> None:
        def handle(h, recorder):  # type: ignore[no-untyped-def]
            if h.headers.get("authorization") != "Bearer dkr_sse":
                return send_json(h, 401, error("ERR1002", "authentication_failed", False))
            after = int(h.headers.get("last-event-id") or 0)
            frames = [f for f in FRAMES if int(f[0]) > after]
            open_stream(h)
            if len(recorder.requests) == 1:
                h.wfile.write(b": heartbeat\n\n" + b"".join(frame(*f) for f in frames[:2]) + b": heartbeat\n\n")
                h.wfile.flush()
                h.close_connection = True  # the connection drops before the terminal event
                return
            h.wfile.write(b"".join(frame(*f) for f in frames))

        with LocalServer(handle) as server:
            events = list(Darkroom("dkr_sse", base_url=server.base_url).generations.stream("g-1"))
            self.assertEqual([(e.id, e.event) for e in events], [(f[0], f[1]) for f in FRAMES])
            self.assertEqual(events[0].data, record("pending"))
            self.assertEqual([r["headers"].get("last-event-id") for r in server.recorder.requests], [None, "2"])
            with self.assertRaises(AuthenticationError):
                list(Darkroom("dkr_other", base_url=server.base_url).generations.stream("g-1"))
            # The same stream through the generated table, by its operation id.
            by_id = Darkroom("dkr_sse", base_url=server.base_url).stream("streamGenerationEvents", {"generation_id": "g-1"}, last_event_id="2")
            self.assertEqual([e.id for e in by_id], ["3", "4"])
            self.assertEqual(server.recorder.requests[-1]["path"], "/v1/content/g-1/events")

    def test_a_resumed_stream_with_only_a_finished_snapshot_ends_there(self) -> None:
        snapshot = f"event: generation.snapshot\ndata: {json.dumps(record('succeeded'))}\n\n".encode()

        def handle(h, _r):  # type: ignore[no-untyped-def]
            open_stream(h)
            # A resume snapshot without an id; then, from an older server, one repeating the cursor's.
            h.wfile.write(snapshot if h.path.startswith("/v1/content/g-1/") else frame("9", "generation.snapshot", record("succeeded")))

        with LocalServer(handle) as server:
            events = list(Darkroom("dkr_sse", base_url=server.base_url).generations.stream("g-1", last_event_id="9"))
            self.assertEqual([(e.id, e.event) for e in events], [(None, "generation.snapshot")])
            self.assertEqual(events[0].data, record("succeeded"))
            # The repeated id is not handed out again, and the stream still ends at that snapshot.
            self.assertEqual(list(Darkroom("dkr_sse", base_url=server.base_url).generations.stream("g-2", last_event_id="9")), [])
            self.assertEqual(len(server.recorder.requests), 2)

    def test_account_stream_resumes_from_last_event_id_and_stops_when_the_loop_stops(self) -> None:
        def handle(h, recorder):  # type: ignore[no-untyped-def]
            open_stream(h)
            if len(recorder.requests) == 1:
                h.wfile.write(frame("e-11", "generation.created", record("pending")))
                h.close_connection = True
                return
            h.wfile.write(frame("e-12", "generation.completed", record("succeeded")) + frame("e-13", "generation.created", record("pending")))
            h.wfile.flush()
            time.sleep(0.5)  # held open, as a live stream is

        with LocalServer(handle) as server:
            stream = Darkroom("dkr_sse", base_url=server.base_url).events.stream(last_event_id="e-10", model_identifier="darkroom/lumen-image")
            ids = []
            for event in stream:
                ids.append(event.id)
                if len(ids) == 3:
                    break
            stream.close()
            self.assertEqual(ids, ["e-11", "e-12", "e-13"])
            self.assertEqual([r["headers"].get("last-event-id") for r in server.recorder.requests], ["e-10", "e-11"])
            self.assertEqual(server.recorder.requests[0]["path"], "/v1/content/events?model_identifier=darkroom%2Flumen-image")

    def test_wait_reads_the_stream_and_falls_back_to_polling(self) -> None:
        def streamed(h, _r):  # type: ignore[no-untyped-def]
            open_stream(h)
            h.wfile.write(frame(*FRAMES[0]) + frame(*FRAMES[3]))

        with LocalServer(streamed) as server:
            self.assertEqual(Darkroom("dkr_sse", base_url=server.base_url).generations.wait("g-1")["generation_status"], "succeeded")

        polls = []

        def polled(h, _r):  # type: ignore[no-untyped-def]
            if h.path.endswith("/events"):
                return send_json(h, 404, error("ERR1006", "not_found", False))
            polls.append(h.path)
            send_json(h, 200, success(record("processing" if len(polls) < 3 else "failed")))

        with LocalServer(polled) as server:
            finished = Darkroom("dkr_sse", base_url=server.base_url).generations.wait("g-1", poll_interval=0.01)
            self.assertEqual(finished["generation_status"], "failed")
            self.assertEqual(len(polls), 3)


# Opaque ids, in stream order (not sortable): the client compares them for equality only.
CUT_FRAMES = [
    ("q7:x", "generation.snapshot", record("pending")),
    ("a3:x", "generation.processing", record("processing")),
    ("m9:x", "generation.attempt", {"generation_id": "g-1", "provider": "local", "attempt": 1, "outcome": "started"}),
    ("b1:x", "generation.attempt", {"generation_id": "g-1", "provider": "local", "attempt": 1, "outcome": "succeeded"}),
    ("z0:x", "generation.completed", record("succeeded")),
]
CUT_STREAM = b": heartbeat\n\n" + b"".join(frame(*f) for f in CUT_FRAMES)


class ReconnectAtEveryByte(unittest.TestCase):
    """The first stream is cut after N bytes, for every N across its events; the client resumes with
    Last-Event-ID and hands out every id once, in order. A resume snapshot comes without an id
    (``/v1/content/new-N``) or, as an older server sent it, with the cursor's id (``old-N``)."""

    def test_a_stream_cut_at_any_byte_resumes_with_every_id_once_in_order(self) -> None:
        first_seen = set()

        def handle(h, _r):  # type: ignore[no-untyped-def]
            target = h.path.split("/")[3]
            style, offset = target.split("-")
            cursor = h.headers.get("last-event-id")
            open_stream(h)
            if target not in first_seen:
                first_seen.add(target)
                assert cursor is None, cursor
                h.wfile.write(CUT_STREAM[: int(offset)])
                h.wfile.flush()
                if int(offset) % 2:
                    h.connection.shutdown(2)  # abrupt, else the server ends the stream cleanly
                return
            if cursor is None:
                return h.wfile.write(CUT_STREAM)
            after = [f[0] for f in CUT_FRAMES].index(cursor) + 1
            resumed = f"event: generation.snapshot\ndata: {json.dumps(record('processing'))}\n\n".encode() if style == "new" else frame(cursor, "generation.snapshot", record("processing"))
            h.wfile.write(resumed + b"".join(frame(*f) for f in CUT_FRAMES[after:]))

        def run(target: str) -> List[StreamEvent]:
            return list(Darkroom("dkr_sse", base_url=server.base_url, max_retries=3).generations.stream(target))

        targets = [f"{style}-{offset}" for style in ("new", "old") for offset in range(len(CUT_STREAM))]
        with LocalServer(handle) as server:
            with concurrent.futures.ThreadPoolExecutor(max_workers=64) as pool:
                streams = dict(zip(targets, pool.map(run, targets)))
        expected = [f[0] for f in CUT_FRAMES]
        for target, events in streams.items():
            ids = [e.id for e in events if e.id is not None]
            self.assertEqual(ids, expected, target)
            self.assertEqual([e.event for e in events if e.id is None], ["generation.snapshot"] * len([e for e in events if e.id is None]), target)
            self.assertEqual(events[-1].event, "generation.completed", target)
            if target.startswith("old-"):
                self.assertTrue(all(e.id is not None for e in events), target)


class WaitTimeout(unittest.TestCase):
    def test_wait_gives_up_at_its_timeout_with_the_last_record(self) -> None:
        def handle(h, _r):  # type: ignore[no-untyped-def]
            if not h.path.endswith("/events"):
                return send_json(h, 200, success(record("processing")))
            open_stream(h)
            h.wfile.write(frame("1", "generation.snapshot", record("processing")))
            for _ in range(20):  # heartbeats only, for longer than the wait
                h.wfile.write(b": heartbeat\n\n")
                h.wfile.flush()
                time.sleep(0.2)

        with LocalServer(handle) as server:
            with self.assertRaises(darkroom.WaitTimeoutError) as caught:
                Darkroom("dkr_sse", base_url=server.base_url).generations.wait("g-1", timeout=1.0, poll_interval=0.2)
            self.assertEqual(caught.exception.last_record, record("processing"))


class Webhooks(unittest.TestCase):
    secret = "whsec_test"
    body = json.dumps({"webhook_event": "generation.completed", "webhook_delivery_id": "d-1", "webhook_data": {"generation_status": "succeeded"}})

    def sign(self, secret: str, timestamp: int) -> str:
        return hmac.new(secret.encode(), f"{timestamp}.{self.body}".encode(), hashlib.sha256).hexdigest()

    def reason(self, *args, **kwargs) -> str:  # type: ignore[no-untyped-def]
        try:
            darkroom.verify_webhook(*args, **kwargs)
            return "accepted"
        except WebhookVerificationError as refused:
            return refused.reason

    def test_verify(self) -> None:
        now = int(time.time())
        header = f"t={now},v1={self.sign(self.secret, now)}"
        event = Darkroom("dkr_x").webhooks.verify(self.body.encode(), {"X-Service-Signature": header}, self.secret)
        self.assertEqual(event["webhook_event"], "generation.completed")
        self.assertEqual(self.reason(self.body.replace("succeeded", "failed"), {"x-service-signature": header}, self.secret), "signature_mismatch")
        self.assertEqual(self.reason(self.body, header, "whsec_other"), "signature_mismatch")
        self.assertEqual(self.reason(self.body, header, self.secret, now=now + 301), "timestamp_out_of_tolerance")
        self.assertEqual(self.reason(self.body, header, self.secret, now=now + 400, tolerance_seconds=600), "accepted")
        self.assertEqual(self.reason(self.body, {}, self.secret), "malformed_header")
        rotated = f"t={now},v1={self.sign('whsec_old', now)},v1={self.sign(self.secret, now)}"
        self.assertEqual(self.reason(self.body, rotated, self.secret), "accepted")

    def test_a_tolerance_that_is_not_a_finite_number_at_least_0_raises(self) -> None:
        # A 30-day-old delivery, correctly signed: a NaN tolerance (an unset variable) let it through.
        old = int(time.time()) - 30 * 86400
        header = f"t={old},v1={self.sign(self.secret, old)}"
        for tolerance in (float("nan"), float("inf"), -1, True, "300", None):
            with self.assertRaises(ValueError, msg=repr(tolerance)):
                darkroom.verify_webhook(self.body, header, self.secret, tolerance_seconds=tolerance)  # type: ignore[arg-type]
            with self.assertRaises(ValueError, msg=repr(tolerance)):
                Darkroom("dkr_x").webhooks.verify(self.body, header, self.secret, tolerance_seconds=tolerance)  # type: ignore[arg-type]
        with self.assertRaises(ValueError):
            darkroom.verify_webhook(self.body, header, self.secret, now=float("nan"))
        self.assertEqual(self.reason(self.body, header, self.secret), "timestamp_out_of_tolerance")
        self.assertEqual(self.reason(self.body, header, self.secret, tolerance_seconds=31 * 86400.0), "accepted")
        self.assertEqual(self.reason(self.body, header, self.secret, now=old, tolerance_seconds=0), "accepted")

    def test_the_timestamp_is_ascii_digits_only(self) -> None:
        now = int(time.time())
        signature = self.sign(self.secret, now)
        # The same number in Arabic-Indic and fullwidth digits: int() reads both, the header must not.
        for digits in ("".join(chr(0x0660 + int(c)) for c in str(now)), "".join(chr(0xFF10 + int(c)) for c in str(now))):
            self.assertEqual(int(digits), now)
            self.assertEqual(self.reason(self.body, f"t={digits},v1={signature}", self.secret), "malformed_header")
        self.assertEqual(self.reason(self.body, f"t=+{now},v1={signature}", self.secret), "malformed_header")
        self.assertEqual(self.reason(self.body, f"t={now},v1={signature}", self.secret), "accepted")


if __name__ == "__main__":
    unittest.main()


def _csv(handler, chunks: List[bytes]) -> None:  # type: ignore[no-untyped-def]
    handler.send_response(200)
    handler.send_header("content-type", "text/csv; charset=utf-8")
    handler.send_header("content-disposition", 'attachment; filename="darkroom-usage-us-2026-12-01-to-2026-12-02.csv"')
    handler.send_header("x-request-id", "00000000-0000-4000-8000-000000000003")
    handler.send_header("transfer-encoding", "chunked")
    handler.end_headers()
    for chunk in chunks:
        handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    handler.wfile.write(b"0\r\n\r\n")


class Downloads(unittest.TestCase):
    def test_the_file_as_it_streams_with_its_name(self) -> None:
        chunks = [b"date,api_key_id\r\n", b"2026-12-01,k\r\n", b"2026-12-02,k\r\n"]
        with LocalServer(lambda h, _r: _csv(h, chunks)) as server:
            client = Darkroom("dkr_x", base_url=server.base_url)
            with client.export_usage(from_="2026-12-01", to="2026-12-02", format="csv") as file:
                self.assertEqual(file.filename, "darkroom-usage-us-2026-12-01-to-2026-12-02.csv")
                self.assertEqual(file.last_response.request_id, "00000000-0000-4000-8000-000000000003")
                self.assertEqual(b"".join(file.iter_bytes(chunk_size=8)), b"".join(chunks))
            sent = server.recorder.requests[0]
            self.assertEqual(sent["path"], "/v1/usage/export?from=2026-12-01&to=2026-12-02&format=csv")
            self.assertEqual(sent["headers"]["accept"], "text/csv, application/json")

    def test_retries_until_the_file_starts_and_raises_a_refusal_as_its_family(self) -> None:
        answers = [
            lambda h: send_json(h, 503, error("ERR3001", "service_paused", True)),
            lambda h: _csv(h, [b"date\r\n"]),
        ]
        with LocalServer(lambda h, _r: answers.pop(0)(h)) as server:
            client = Darkroom("dkr_x", base_url=server.base_url)
            file = client.export_usage(from_="2026-12-01")
            self.assertEqual(file.text(), "date\r\n")
            self.assertEqual(file.last_response.attempts, 2)
        details = {"fields": [{"field": "from", "message": "must be a date as YYYY-MM-DD (UTC)"}]}
        with LocalServer(lambda h, _r: send_json(h, 400, error("ERR1001", "invalid_request", False, details))) as server:
            with self.assertRaises(ValidationError) as caught:
                Darkroom("dkr_x", base_url=server.base_url).export_usage(from_="nope")
            self.assertEqual(caught.exception.code, "ERR1001")
            self.assertEqual(len(server.recorder.requests), 1)

    def test_save_writes_the_file(self) -> None:
        import os
        import tempfile

        with LocalServer(lambda h, _r: _csv(h, [b"a,b\r\n", b"1,2\r\n"])) as server:
            path = os.path.join(tempfile.mkdtemp(), "usage.csv")
            written = Darkroom("dkr_x", base_url=server.base_url).export_usage(from_="2026-12-01").save(path)
            with open(path, "rb") as saved:
                self.assertEqual(saved.read(), b"a,b\r\n1,2\r\n")
            self.assertEqual(written, 10)
