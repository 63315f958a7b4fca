import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { listDevMailbox } from "@/server/email/dev-mailbox";
import { queueEmail } from "@/server/email/queue-email";
import { EmailRetryableError, SEND_EMAIL_TRANSACTION, sendEmail as sendInTransaction, throwIfDeferred } from "@/server/email/send-email";
import { resetEnvCache } from "@/server/base/env";
import { inTransaction } from "@/server/base/transaction";
import { startResendFake, type ResendFake } from "@/tests/fakes/resend-fake";

// The outbox delivered through the real Resend SDK against a local Resend (tests/fakes/resend-fake)
// when RESEND_API_KEY is set, and by the dev mailbox (the row itself, plus a log line) when not.

let resend: ResendFake;
const saved = { ...process.env };

function useResend(overrides: Record<string, string> = {}) {
  process.env.RESEND_API_KEY = resend.apiKey;
  process.env.RESEND_BASE_URL = resend.baseUrl;
  delete process.env.EMAIL_FROM;
  Object.assign(process.env, overrides);
  resetEnvCache();
}

function useDevOutbox() {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  delete process.env.EMAIL_FROM;
  resetEnvCache();
}

const queue = (to = `someone-${randomUUID()}@test.local`) =>
  queueEmail(db, {
    to,
    subject: "Low balance: Acme is below 0.500 credits",
    text: "The balance is 0.400. Secret link: https://x.test/abc",
    html: "<p>The balance is 0.400.</p>",
    kind: "test.email",
  });
/** As its callers send: one transaction per e-mail, a deferral thrown once its error committed. */
const sendEmail = async (id: string) => throwIfDeferred(await inTransaction((tx) => sendInTransaction(tx, id), SEND_EMAIL_TRANSACTION));
const row = (id: string) => db.emailOutbox.findUniqueOrThrow({ where: { id } });
/** The row's every column as PostgreSQL prints it. */
const rawRow = async (id: string) =>
  (await db.$queryRaw<Array<{ raw: string }>>`SELECT row_to_json(e)::text AS raw FROM email_outbox e WHERE id = ${id}::uuid`)[0]?.raw ?? "";

/** Log lines (JSON on stderr) written while `action` runs. */
async function captureLogs(action: () => Promise<unknown>): Promise<Array<Record<string, unknown>>> {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  const level = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = "info";
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    lines.push(String(chunk));
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    await action();
  } finally {
    process.stderr.write = write;
    if (level === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = level;
  }
  return lines
    .flatMap((line) => line.split("\n"))
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function expectRetryable(promise: Promise<unknown>): Promise<EmailRetryableError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(EmailRetryableError);
  return error as EmailRetryableError;
}

beforeAll(async () => {
  resend = await startResendFake();
});
afterEach(() => {
  resend.reset();
});
afterAll(async () => {
  for (const name of ["RESEND_API_KEY", "RESEND_BASE_URL", "EMAIL_FROM", "LOG_LEVEL"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetEnvCache();
  await resend.close();
  await disconnectDb();
});

describe("with RESEND_API_KEY: through Resend", () => {
  it("sends the row with Bearer auth, EMAIL_FROM and an idempotency key, and marks it sent with Resend's id", async () => {
    useResend();
    const { id } = await queue("owner@acme.test");
    const result = await sendEmail(id);

    expect(resend.emails).toHaveLength(1);
    const received = resend.emails[0]!;
    expect(result).toEqual({ status: "sent", via: "resend", providerId: received.id });
    expect(received).toMatchObject({
      from: "Darkroom <alerts@darkroom.local>",
      to: ["owner@acme.test"],
      subject: "Low balance: Acme is below 0.500 credits",
      text: "The balance is 0.400. Secret link: https://x.test/abc",
      html: "<p>The balance is 0.400.</p>",
      idempotencyKey: `email-outbox/${id}`,
    });
    expect(resend.requests[0]!.headers.authorization).toBe(`Bearer ${resend.apiKey}`);
    expect(await row(id)).toMatchObject({ status: "sent", providerId: received.id, error: null, sentAt: expect.any(Date) });
  });

  it("keeps the body sealed while queued and removes it once Resend has it: the row keeps who, what and when", async () => {
    useResend();
    const { id } = await queue("owner@acme.test");
    const queued = await rawRow(id);
    expect(queued).not.toContain("Secret link");
    expect(queued).not.toContain("https://x.test/abc");
    expect(await row(id)).toMatchObject({ status: "queued", sealedBody: expect.any(String), bodyKeyId: expect.any(String) });

    await sendEmail(id);
    expect(resend.emails[0]!.text).toBe("The balance is 0.400. Secret link: https://x.test/abc");
    expect(await row(id)).toMatchObject({
      status: "sent",
      to: "owner@acme.test",
      subject: "Low balance: Acme is below 0.500 credits",
      kind: "test.email",
      sealedBody: null,
      bodyKeyId: null,
    });
    expect(await rawRow(id)).not.toContain("x.test/abc");
  });

  it("uses EMAIL_FROM when set", async () => {
    useResend({ EMAIL_FROM: "Alerts <alerts@example.test>" });
    const { id } = await queue();
    await sendEmail(id);
    expect(resend.emails[0]!.from).toBe("Alerts <alerts@example.test>");
  });

  it("sends a row once: a second call, or two at the same time, make one request", async () => {
    useResend();
    const { id } = await queue();
    resend.script({ responseDelayMs: 300 });
    const results = await Promise.all([sendEmail(id), sendEmail(id)]);
    expect(resend.requests).toHaveLength(1);
    expect(results.map((result) => result.status).sort()).toEqual(["sent", "skipped"]);
    expect(await sendEmail(id)).toEqual({ status: "skipped", reason: "already_sent" });
    expect(resend.requests).toHaveLength(1);
  });

  it("marks the row failed on a 422 validation error", async () => {
    useResend();
    const { id } = await queue("not-an-address");
    const result = await sendEmail(id);
    expect(result).toEqual({ status: "failed", error: expect.stringContaining("validation_error (422)") });
    expect(await row(id)).toMatchObject({
      status: "failed",
      providerId: null,
      error: expect.stringContaining("Invalid `to` field"),
      sealedBody: null,
      bodyKeyId: null,
    });
    expect(await sendEmail(id)).toEqual({ status: "skipped", reason: "already_failed" });
  });

  it("marks the row failed when the key is refused (403)", async () => {
    useResend({ RESEND_API_KEY: "re_wrong" });
    const { id } = await queue();
    expect(await sendEmail(id)).toEqual({ status: "failed", error: expect.stringContaining("invalid_api_key (403)") });
    expect((await row(id)).status).toBe("failed");
  });

  it("keeps the row queued on a 429 and says when to retry; the retry sends it", async () => {
    useResend();
    const { id } = await queue();
    resend.script({ fail: "rate_limit", failTimes: 1 });
    const error = await expectRetryable(sendEmail(id));
    expect(error.retryAfterSeconds).toBe(1);
    expect(error.message).toContain("rate_limit_exceeded (429)");
    expect(await row(id)).toMatchObject({
      status: "queued",
      error: expect.stringContaining("rate_limit_exceeded"),
      sealedBody: expect.any(String),
    });

    expect(await sendEmail(id)).toMatchObject({ status: "sent", via: "resend" });
    expect(await row(id)).toMatchObject({ status: "sent", error: null });
    expect(resend.emails).toHaveLength(1);
  });

  it("keeps the row queued on a 500 and when Resend cannot be reached", async () => {
    useResend();
    const { id } = await queue();
    resend.script({ fail: "server_error" });
    await expectRetryable(sendEmail(id));
    expect((await row(id)).status).toBe("queued");

    useResend({ RESEND_BASE_URL: "http://127.0.0.1:9" });
    await expectRetryable(sendEmail(id));
    expect((await row(id)).status).toBe("queued");
  });

  it("skips a row that does not exist", async () => {
    useResend();
    expect(await sendEmail(randomUUID())).toEqual({ status: "skipped", reason: "not_found" });
    expect(resend.requests).toHaveLength(0);
  });
});

describe("without RESEND_API_KEY: the dev outbox", () => {
  it("marks the row sent, logs who and what (never the body), and calls nobody", async () => {
    useDevOutbox();
    const to = `dev-${randomUUID()}@test.local`;
    const { id } = await queue(to);
    let result: unknown;
    const logs = await captureLogs(async () => {
      result = await sendEmail(id);
    });
    expect(result).toEqual({ status: "sent", via: "dev_outbox", providerId: null });
    expect(await row(id)).toMatchObject({ status: "sent", providerId: null, sentAt: expect.any(Date) });
    expect(resend.requests).toHaveLength(0);
    // The row is the delivery: its body stays, sealed, and only the dev mailbox opens it.
    expect(await rawRow(id)).not.toContain("Secret link");
    expect((await listDevMailbox({ to }))[0]).toMatchObject({
      id,
      text: "The balance is 0.400. Secret link: https://x.test/abc",
      html: "<p>The balance is 0.400.</p>",
    });

    const line = logs.find((entry) => entry.message === "email (dev outbox)" && entry.email_id === id);
    expect(line).toMatchObject({ level: "info", to, subject: "Low balance: Acme is below 0.500 credits", kind: "test.email" });
    expect(JSON.stringify(logs)).not.toContain("Secret link");

    expect(await sendEmail(id)).toEqual({ status: "skipped", reason: "already_sent" });
  });
});
