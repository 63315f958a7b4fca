"""A small threaded HTTP server for the tests: each test scripts its answers with a handler."""
from __future__ import annotations

import http.server
import json
import threading
from typing import Any, Callable, Dict, List, Optional


class Recorder:
    def __init__(self) -> None:
        self.requests: List[Dict[str, Any]] = []


class LocalServer:
    """``with LocalServer(handler) as server:`` -- ``handler(request_handler, recorder)`` answers."""

    def __init__(self, handle: Callable[[http.server.BaseHTTPRequestHandler, Recorder], None]) -> None:
        self.recorder = Recorder()
        recorder = self.recorder

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: Any) -> None:
                pass

            def _any(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                recorder.requests.append({"method": self.command, "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
                handle(self, recorder)

            do_GET = do_POST = do_DELETE = _any

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> "LocalServer":
        self.thread.start()
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def send_json(handler: http.server.BaseHTTPRequestHandler, status: int, body: Any, headers: Optional[Dict[str, str]] = None) -> None:
    raw = json.dumps(body).encode()
    handler.send_response(status)
    handler.send_header("content-type", "application/json")
    handler.send_header("content-length", str(len(raw)))
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(raw)


def success(data: Any, **extra: Any) -> Dict[str, Any]:
    return {"status": "success", "request_id": "00000000-0000-4000-8000-000000000002", "message": "ok", "timestamp": "", "data": data, **extra}


def error(code: str, type_: str, retryable: bool, details: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    return {"status": "error", "request_id": "00000000-0000-4000-8000-000000000001", "error": {"code": code, "type": type_, "message": f"{code} happened", "retryable": retryable, "details": details or {}}}
