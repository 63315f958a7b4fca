"""The client against a running Darkroom (the built app that ``npm test`` serves).

``npm test`` runs this through tests/http/sdk/python.test.ts, which makes the accounts, keys and
the webhook endpoint and passes them in DARKROOM_TEST_* variables; without them every test here is
skipped (with the reason printed).
"""
from __future__ import annotations

import http.client
import http.server
import json
import os
import threading
import time
import unittest
import urllib.parse
import uuid
from typing import Any, Dict, List

from darkroom import (
    AuthenticationError,
    ConflictError,
    Darkroom,
    InsufficientCreditsError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ValidationError,
    WebhookVerificationError,
)

ENV = os.environ
BASE = ENV.get("DARKROOM_TEST_BASE_URL")
skip_without_server = unittest.skipUnless(BASE, "DARKROOM_TEST_BASE_URL is not set: run through npm test (tests/http/sdk/python.test.ts)")


def client(key_name: str, **options: Any) -> Darkroom:
    return Darkroom(ENV[key_name], base_url=f"{BASE}/v1", **options)


@skip_without_server
class EveryMethod(unittest.TestCase):
    def test_reads(self) -> None:
        darkroom = client("DARKROOM_TEST_KEY")
        status = darkroom.status()
        self.assertEqual(status["account_id"], ENV["DARKROOM_TEST_ACCOUNT"])
        self.assertRegex(status.request_id, r"^[0-9a-f-]{36}$")  # type: ignore[attr-defined]
        self.assertEqual(darkroom.usage(days=7)["usage_period_days"], 7)
        today = time.strftime("%Y-%m-%d", time.gmtime())
        with darkroom.export_usage(from_=today) as file:
            self.assertEqual(file.filename, f"darkroom-usage-us-{today}-to-{today}.csv")
            self.assertTrue(file.text().startswith("date,api_key_id,api_key_name,model,provider,"))
        with self.assertRaises(ValidationError):
            darkroom.export_usage(from_="yesterday")
        self.assertEqual(darkroom.account()["account_id"], ENV["DARKROOM_TEST_ACCOUNT"])
        self.assertEqual(darkroom.billing()["billing_plan"], "pro")
        estimate = darkroom.estimate("darkroom/lumen-video", count=2, duration=4, resolution="720p", audio=True)
        self.assertEqual((estimate["assets_count"], estimate["credit_balance_can_afford"]), (2, True))
        self.assertEqual(darkroom.health.providers()["service"], "providers")
        self.assertIn("models", darkroom.health.models())
        self.assertIn("healthy", darkroom.health.storage())
        self.assertIn("healthy", darkroom.health.cache())
        self.assertIn("local", [p["provider_id"] for p in darkroom.library.providers()["providers"]])
        self.assertIn("darkroom/lumen-image", [m["model_identifier"] for m in darkroom.library.models()["models"]])

    def test_generations(self) -> None:
        darkroom = client("DARKROOM_TEST_KEY_GENERATIONS")
        waited = darkroom.generate.image("darkroom/lumen-image", {"generation_prompt": "a lighthouse", "generation_output_number": 2}, wait=60)
        self.assertEqual(waited.last_response.status, 202)  # type: ignore[attr-defined]
        self.assertIsNone(waited["generation_prediction_id"])
        record = waited["generation_record"]
        self.assertEqual(record["generation_status"], "succeeded")
        self.assertEqual(len(record["generation_output_file"]), 2)

        video = darkroom.generate.video("darkroom/lumen-video", {"generation_prompt": "waves", "generation_duration": 2})
        self.assertEqual(darkroom.generations.wait(video["generation_id"], timeout=60)["generation_status"], "succeeded")
        self.assertEqual(darkroom.generations.get(video["generation_id"])["generation_id"], video["generation_id"])

        slow = darkroom.generate.image("darkroom/lumen-image", {"generation_prompt": "hold [local:slow=20000]", "generation_provider_order": "local"})
        canceled = darkroom.generations.cancel(slow["generation_id"])
        self.assertEqual((canceled["generation_status"], canceled["credits_refunded"]), ("canceled", True))

        page = darkroom.generations.list(limit=2)
        self.assertEqual((page["total"], page["limit"], page["offset"], len(page["generations"])), (3, 2, 0, 2))
        self.assertEqual((page["has_more"], page["next_cursor"]), (True, page["generations"][1]["generation_id"]))
        rest = darkroom.generations.list(limit=2, starting_after=page["next_cursor"])
        self.assertEqual((rest["has_more"], rest["next_cursor"]), (False, None))
        newest_first = [r["generation_id"] for r in page["generations"] + rest["generations"]]
        self.assertEqual(newest_first, [slow["generation_id"], video["generation_id"], waited["generation_id"]])
        self.assertEqual([r["generation_id"] for r in darkroom.generations.list_all(limit=1)], newest_first)
        self.assertEqual([len(p["generations"]) for p in darkroom.generations.pages(limit=2)], [2, 1])
        ids = sorted(r["generation_id"] for r in darkroom.generations.iterate(limit=1))
        self.assertEqual(ids, sorted([waited["generation_id"], video["generation_id"], slow["generation_id"]]))

        deleted = darkroom.generations.delete(waited["generation_id"])
        self.assertEqual(deleted, {"generation_id": waited["generation_id"], "files_deleted": 2})
        self.assertEqual(darkroom.generations.get(waited["generation_id"])["generation_removed"], "true")

    def test_idempotency_key_replays(self) -> None:
        darkroom = client("DARKROOM_TEST_KEY")
        key = f"sdk-py-{uuid.uuid4()}"
        first = darkroom.generate.image("darkroom/lumen-image", {"generation_prompt": "once"}, idempotency_key=key)
        again = darkroom.generate.image("darkroom/lumen-image", {"generation_prompt": "once"}, idempotency_key=key)
        self.assertEqual(again["generation_id"], first["generation_id"])
        self.assertTrue(again.last_response.idempotency_replayed)  # type: ignore[attr-defined]
        self.assertEqual(again.request_id, first.request_id)  # type: ignore[attr-defined]


@skip_without_server
class ErrorFamilies(unittest.TestCase):
    def test_families_the_server_answers(self) -> None:
        darkroom = client("DARKROOM_TEST_KEY")
        with self.assertRaises(AuthenticationError) as caught:
            Darkroom("dkr_" + "0" * 40, base_url=f"{BASE}/v1").status()
        self.assertEqual((caught.exception.code, caught.exception.status, caught.exception.retryable), ("ERR1002", 401, False))
        self.assertRegex(caught.exception.request_id or "", r"^[0-9a-f-]{36}$")
        with self.assertRaises(PermissionDeniedError) as scope:
            client("DARKROOM_TEST_KEY_MONITOR").status()
        self.assertEqual(scope.exception.details.get("required_scope"), "account:read")
        with self.assertRaises(NotFoundError):
            darkroom.generations.get(str(uuid.uuid4()))
        with self.assertRaises(NotFoundError) as model:
            darkroom.estimate("nobody/nothing")
        self.assertEqual(model.exception.code, "ERR1012")
        with self.assertRaises(ValidationError) as invalid:
            darkroom.generate.image("darkroom/lumen-image", {"generation_prompt": "x", "generation_ratio": "7:5"})
        self.assertEqual([f["field"] for f in invalid.exception.details["fields"]], ["generation_ratio"])
        done = darkroom.generate.image("darkroom/lumen-image", {"generation_prompt": "quick"}, wait=True)
        with self.assertRaises(ConflictError) as conflict:
            darkroom.generations.cancel(done["generation_id"])
        self.assertEqual(conflict.exception.code, "ERR1010")
        with self.assertRaises(InsufficientCreditsError) as poor:
            darkroom.generate.video("google/veo-3", {"generation_prompt": "x", "generation_duration": 8})
        self.assertEqual((poor.exception.code, poor.exception.status), ("ERR1004", 402))

        free = client("DARKROOM_TEST_KEY_FREE", max_retries=0)
        hold = {"generation_prompt": "hold [local:slow=20000]", "generation_provider_order": "local"}
        held = [free.generate.image("darkroom/lumen-image", hold) for _ in range(2)]
        with self.assertRaises(RateLimitError) as capped:
            free.generate.image("darkroom/lumen-image", hold)
        self.assertEqual((capped.exception.code, capped.exception.retryable), ("ERR1009", True))
        self.assertGreaterEqual(capped.exception.retry_after_seconds or 0, 1)
        for generation in held:
            free.generations.cancel(generation["generation_id"])


SLOW = {"generation_prompt": "live [local:slow=3000]", "generation_provider_order": "local"}


@skip_without_server
class Streams(unittest.TestCase):
    def test_generation_stream_and_resume(self) -> None:
        darkroom = client("DARKROOM_TEST_KEY_STREAMS")
        created = darkroom.generate.image("darkroom/lumen-image", SLOW)
        events = list(darkroom.generations.stream(created["generation_id"]))
        names = [e.event for e in events]
        self.assertEqual((names[0], names[-1]), ("generation.snapshot", "generation.completed"))
        self.assertIn("generation.attempt", names)
        self.assertEqual(events[-1].data["generation_status"], "succeeded")
        # Ids are opaque: compared for equality only, never twice.
        ids = [e.id for e in events if e.id is not None]
        self.assertEqual(len(set(ids)), len(ids))

        # Resumed: what came after, each once; a resume snapshot, if any, has none of the ids seen.
        def changes(listed: List[Any]) -> List[Any]:
            return [(e.id, e.event) for e in listed if e.event != "generation.snapshot"]

        resumed = list(darkroom.generations.stream(created["generation_id"], last_event_id=events[1].id))
        self.assertEqual(changes(resumed), changes(events[2:]))
        self.assertEqual([e.id for e in resumed if e.id in (events[0].id, events[1].id)], [])
        # Resumed after its terminal event: at most a snapshot (with no id seen), and the stream ends.
        finished = list(darkroom.generations.stream(created["generation_id"], last_event_id=events[-1].id))
        self.assertEqual(changes(finished), [])
        self.assertEqual([e.id for e in finished if e.id in ids], [])

    def test_account_stream_after_a_mark(self) -> None:
        darkroom = client("DARKROOM_TEST_KEY_STREAMS")
        first = darkroom.generate.image("darkroom/lumen-image", {"generation_prompt": "before"})
        mark = list(darkroom.generations.stream(first["generation_id"]))[-1].id
        second = darkroom.generate.image("darkroom/lumen-image", {"generation_prompt": "after"})
        seen = []
        stream = darkroom.events.stream(last_event_id=mark)
        for event in stream:
            seen.append(event)
            if event.event == "generation.completed" and event.data["generation_id"] == second["generation_id"]:
                break
        stream.close()
        self.assertEqual(seen[0].event, "generation.created")
        self.assertTrue(all(e.data["generation_id"] == second["generation_id"] for e in seen))

    def test_wait_reads_the_stream_without_polling(self) -> None:
        darkroom = client("DARKROOM_TEST_KEY_STREAMS")

        def no_polling(generation_id: str) -> Any:
            raise AssertionError(f"polled {generation_id}")

        darkroom.generations.get = no_polling  # type: ignore[method-assign]
        created = darkroom.generate.image("darkroom/lumen-image", SLOW)
        self.assertEqual(darkroom.generations.wait(created["generation_id"], timeout=60)["generation_status"], "succeeded")
        waited = darkroom.generate.video("darkroom/lumen-video", {"generation_prompt": "waves", "generation_duration": 2}, wait=True)
        self.assertEqual(waited["generation_record"]["generation_status"], "succeeded")


@skip_without_server
class Retries(unittest.TestCase):
    def test_a_create_whose_answer_is_lost_starts_one_generation(self) -> None:
        target = urllib.parse.urlparse(BASE)
        creates: List[str] = []

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: Any) -> None:
                pass

            def _forward(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
                upstream.request(self.command, self.path, body=body or None, headers={k: v for k, v in self.headers.items() if k.lower() != "host"})
                answer = upstream.getresponse()
                payload = answer.read()
                is_create = self.command == "POST" and self.path.startswith("/v1/generate/")
                if is_create:
                    creates.append(self.headers.get("idempotency-key", ""))
                if is_create and len(creates) == 1:
                    # The answer is lost: the connection drops after the server committed.
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(name, value)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_DELETE = _forward

        proxy = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=proxy.serve_forever, daemon=True).start()
        try:
            darkroom = Darkroom(ENV["DARKROOM_TEST_KEY_RETRY"], base_url=f"http://127.0.0.1:{proxy.server_address[1]}/v1", max_retries=2)
            created = darkroom.generate.image("darkroom/lumen-image", {"generation_prompt": "exactly once"})
            self.assertEqual(len(creates), 2)
            self.assertEqual(creates[0], creates[1])
            self.assertEqual(created.last_response.attempts, 2)  # type: ignore[attr-defined]
            self.assertTrue(created.last_response.idempotency_replayed)  # type: ignore[attr-defined]
            page = client("DARKROOM_TEST_KEY_RETRY").generations.list()
            self.assertEqual(page["total"], 1)
            self.assertEqual(page["generations"][0]["generation_id"], created["generation_id"])
        finally:
            proxy.shutdown()
            proxy.server_close()


@skip_without_server
class Webhooks(unittest.TestCase):
    def test_verify_on_a_real_delivery(self) -> None:
        arrivals: List[Dict[str, Any]] = []

        class Receiver(http.server.BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                arrivals.append({"headers": dict(self.headers.items()), "body": body})
                self.send_response(200)
                self.send_header("content-length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

        receiver = http.server.ThreadingHTTPServer(("127.0.0.1", int(ENV["DARKROOM_TEST_WEBHOOK_PORT"])), Receiver)
        threading.Thread(target=receiver.serve_forever, daemon=True).start()
        try:
            darkroom = client("DARKROOM_TEST_KEY_WEBHOOK")
            secret = ENV["DARKROOM_TEST_WEBHOOK_SECRET"]
            created = darkroom.generate.image("darkroom/lumen-image", {"generation_prompt": "signed"}, wait=True)
            deadline = time.monotonic() + 30
            arrival = None
            while arrival is None and time.monotonic() < deadline:
                arrival = next((a for a in arrivals if created["generation_id"].encode() in a["body"]), None)
                time.sleep(0.1)
            self.assertIsNotNone(arrival, "no delivery arrived within 30 s")
            assert arrival is not None
            event = darkroom.webhooks.verify(arrival["body"], arrival["headers"], secret)
            self.assertEqual(event["webhook_event"], "generation.completed")
            self.assertEqual(event["webhook_data"]["generation_id"], created["generation_id"])
            tampered = arrival["body"].replace(b"succeeded", b"failed")
            for body, key in ((tampered, secret), (arrival["body"], "whsec_not_the_secret")):
                with self.assertRaises(WebhookVerificationError) as refused:
                    darkroom.webhooks.verify(body, arrival["headers"], key)
                self.assertEqual(refused.exception.reason, "signature_mismatch")
            with self.assertRaises(WebhookVerificationError) as stale:
                darkroom.webhooks.verify(arrival["body"], arrival["headers"], secret, now=time.time() + 301)
            self.assertEqual(stale.exception.reason, "timestamp_out_of_tolerance")
            self.assertEqual(json.loads(arrival["body"])["webhook_delivery_id"], event["webhook_delivery_id"])
        finally:
            receiver.shutdown()
            receiver.server_close()


if __name__ == "__main__":
    unittest.main()
