import { createHash, randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { header, sendJson, sleep, startFakeServer, type FakeServer } from "@/tests/fakes/fake-server";

// A local Resend API (https://resend.com/docs/api-reference/emails/send-email) for the e-mail
// tests: POST /emails with Bearer auth, `{from, to, subject, html, text}` → `{id}`, validated the
// way Resend does, answering with Resend's error bodies `{statusCode, message, name}`: 401
// missing_api_key, 403 invalid_api_key, 422 validation_error / missing_required_field, 429
// rate_limit_exceeded (with Retry-After), 500; `Idempotency-Key` replays the first answer.

export type ResendFakeFailure = "rate_limit" | "server_error";
export type ResendFakeScript = {
  fail?: ResendFakeFailure | null;
  /** Fail only this many requests, then answer normally again (default: until changed). */
  failTimes?: number;
  responseDelayMs?: number;
};

export type ReceivedEmail = {
  id: string;
  from: string;
  to: string[];
  subject: string;
  html?: string;
  text?: string;
  idempotencyKey?: string;
};

export type ResendFake = FakeServer & {
  apiKey: string;
  /** E-mails accepted, in order (an idempotent replay is not a second e-mail). */
  emails: ReceivedEmail[];
  script(script: ResendFakeScript): void;
  reset(): void;
};

const emailPattern = /^[^\s@<>]+@[^\s@<>]+$/;
const fromPattern = /^(?:[^<>]*<([^\s@<>]+@[^\s@<>]+)>|([^\s@<>]+@[^\s@<>]+))$/;

function resendError(response: ServerResponse, statusCode: number, name: string, message: string, headers: Record<string, string> = {}) {
  sendJson(response, statusCode, { statusCode, message, name }, headers);
}

export async function startResendFake(options: { apiKey?: string } = {}): Promise<ResendFake> {
  const apiKey = options.apiKey ?? `re_test_${randomUUID().replace(/-/g, "")}`;
  const emails: ReceivedEmail[] = [];
  const idempotent = new Map<string, { bodyHash: string; id: string }>();
  let current: ResendFakeScript = {};

  const server = await startFakeServer(async (request, response) => {
    if (current.responseDelayMs) await sleep(current.responseDelayMs);
    const authorization = header(request, "authorization");
    if (!authorization?.startsWith("Bearer ")) {
      return resendError(
        response,
        401,
        "missing_api_key",
        "Missing API key in the authorization header. Include the following header in the request: Authorization: Bearer YOUR_API_KEY",
      );
    }
    if (authorization !== `Bearer ${apiKey}`) return resendError(response, 403, "invalid_api_key", "API key is invalid");
    if (request.method !== "POST" || request.path !== "/emails")
      return resendError(response, 404, "not_found", "The requested endpoint does not exist.");

    if (current.fail && (current.failTimes === undefined || current.failTimes > 0)) {
      if (current.failTimes !== undefined) current.failTimes -= 1;
      if (current.fail === "rate_limit") {
        return resendError(
          response,
          429,
          "rate_limit_exceeded",
          "Too many requests. You can only make 2 requests per second. See rate limit response headers for more information.",
          {
            "Retry-After": "1",
            "ratelimit-limit": "2",
            "ratelimit-remaining": "0",
            "ratelimit-reset": "1",
          },
        );
      }
      return resendError(response, 500, "internal_server_error", "An unexpected error occurred.");
    }

    const body = request.body as Record<string, unknown> | null;
    if (!body || typeof body !== "object" || Array.isArray(body))
      return resendError(response, 422, "validation_error", "Invalid JSON body.");
    for (const field of ["from", "to", "subject"]) {
      if (body[field] === undefined || body[field] === null || body[field] === "")
        return resendError(response, 422, "missing_required_field", `Missing \`${field}\` field.`);
    }
    if (typeof body.from !== "string" || !fromPattern.test(body.from.trim())) {
      return resendError(
        response,
        422,
        "validation_error",
        "Invalid `from` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.",
      );
    }
    const to = typeof body.to === "string" ? [body.to] : Array.isArray(body.to) ? body.to : [];
    if (to.length === 0 || to.length > 50 || !to.every((address) => typeof address === "string" && emailPattern.test(address))) {
      return resendError(
        response,
        422,
        "validation_error",
        "Invalid `to` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.",
      );
    }
    if (typeof body.subject !== "string") return resendError(response, 422, "validation_error", "Invalid `subject` field.");
    if (typeof body.html !== "string" && typeof body.text !== "string")
      return resendError(response, 422, "missing_required_field", "Missing `html` or `text` field.");

    const idempotencyKey = header(request, "idempotency-key");
    const bodyHash = createHash("sha256").update(request.rawBody).digest("hex");
    if (idempotencyKey !== undefined) {
      if (idempotencyKey.length < 1 || idempotencyKey.length > 256)
        return resendError(response, 400, "invalid_idempotency_key", "The key must be between 1-256 chars.");
      const seen = idempotent.get(idempotencyKey);
      if (seen && seen.bodyHash !== bodyHash)
        return resendError(response, 409, "invalid_idempotent_request", "Same idempotency key used with a different request payload.");
      if (seen) return sendJson(response, 200, { id: seen.id });
    }

    const id = randomUUID();
    if (idempotencyKey !== undefined) idempotent.set(idempotencyKey, { bodyHash, id });
    emails.push({
      id,
      from: body.from,
      to: to as string[],
      subject: body.subject,
      ...(typeof body.html === "string" ? { html: body.html } : {}),
      ...(typeof body.text === "string" ? { text: body.text } : {}),
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
    });
    return sendJson(response, 200, { id });
  });

  return {
    ...server,
    apiKey,
    emails,
    script(script) {
      current = { ...script };
    },
    reset() {
      current = {};
      emails.length = 0;
      server.requests.length = 0;
      idempotent.clear();
    },
  };
}
