import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { accountWithKey, addTeamMember } from "@/tests/support/fixtures";
import { createImage, waitForStatus } from "@/tests/support/generations";
import { api, expectSuccess } from "@/tests/support/http";
import {
  authorization,
  contentType,
  extraHeaders,
  forwardedFor,
  headerSafe,
  hostileBody,
  hostilePath,
  idempotencyKey,
  judgeV1Reply,
  methods,
  raw,
  wrongValue,
} from "@/tests/support/hostile-requests";
import { signIn } from "@/tests/support/session";
import { callProcedure, judgeTrpcReply, listProcedures, sampleOf } from "@/tests/support/trpc-procedures";
import { drillSize, recordDrill, sized, timed } from "./drill";

// R4 (issue #13), hostile input: requests a property-based fuzzer makes up (paths, methods,
// headers, Authorization values, query strings, JSON and non-JSON bodies, deep nesting, huge
// strings, Unicode, wrong types, bad Idempotency-Keys, oversized bodies) against /v1, and random
// inputs against every tRPC procedure. The promise: no 5xx, every answer a well-formed envelope
// whose code the error table pairs with its status and the operation documents, and a healthy
// server afterwards (a real generation still runs to the end).

const V1_REQUESTS = sized(1_000, 10_000);
const TRPC_CALLS = sized(300, 3_000);

/** Counts by key, for the figures. */
function tally() {
  const counts = new Map<string, number>();
  return {
    add: (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1),
    get: (key: string) => counts.get(key) ?? 0,
    text: () =>
      [...counts.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([key, count]) => `${key}×${count}`)
        .join(", "),
    size: () => counts.size,
  };
}

// Several accounts: the rate limit is per account, so one account would answer mostly ERR1005.
let keys: string[] = [];
let generationIds: string[] = [];

beforeAll(async () => {
  const accounts = await Promise.all(Array.from({ length: 6 }, () => accountWithKey({ plan: "enterprise" })));
  keys = accounts.map((account) => account.key);
  const created = expectSuccess(await createImage(keys[0] as string, { generation_prompt: "a lighthouse at dusk" }), 202);
  generationIds = [created.generation_id];
});

describe("R4 hostile input", () => {
  it(
    `/v1: ${V1_REQUESTS} fuzzed requests, no 5xx, every answer a documented envelope, healthy after`,
    async () => {
      const statuses = tally();
      const codes = tally();
      const problems: string[] = [];
      let bytesSent = 0;
      const { durationMs } = await timed(() =>
        fc.assert(
          fc.asyncProperty(
            // Mostly the methods the routes serve, so most requests reach the handlers (evenly
            // over 17 methods, 57 % ended at the method check); every method still comes up.
            fc.oneof({ arbitrary: fc.constantFrom("GET", "POST"), weight: 3 }, { arbitrary: fc.constantFrom(...methods), weight: 1 }),
            hostilePath(generationIds),
            contentType,
            hostileBody,
            authorization(keys),
            idempotencyKey,
            forwardedFor,
            extraHeaders,
            async (method, target, type, payload, auth, idempotency, forwarded, extra) => {
              const headers: Record<string, string> = { ...extra };
              if (type) headers["content-type"] = type;
              if (auth !== undefined) headers.authorization = auth;
              if (idempotency !== null) headers["idempotency-key"] = idempotency;
              if (forwarded !== null) headers["x-forwarded-for"] = forwarded;
              // What a client can put on the wire: header values are bytes, so Unicode goes as its UTF-8.
              for (const [name, value] of Object.entries(headers)) headers[name] = headerSafe(value);
              const sendsBody = payload !== null && method !== "GET" && method !== "HEAD";
              bytesSent += sendsBody ? Buffer.byteLength(payload) : 0;
              const reply = await raw(method, target, { headers, ...(sendsBody ? { body: payload } : {}) });
              statuses.add(`${Math.floor(reply.status / 100)}xx`);
              const verdict = judgeV1Reply(method, target, reply);
              if (verdict.code) codes.add(verdict.code);
              if (verdict.problem) problems.push(verdict.problem);
            },
          ),
          { seed: 20261313, numRuns: V1_REQUESTS, endOnFailure: true },
        ),
      );

      // Healthy after: the same app answers a key, and a real generation runs to the end.
      const [key] = keys as [string];
      expectSuccess(await api("/v1/status", { key }));
      const created = expectSuccess(await createImage(key, { generation_prompt: "after the storm" }), 202);
      const finished = await waitForStatus(key, created.generation_id);

      recordDrill("v1-fuzz", {
        drill: "R4",
        title: "Hostile input: fuzzed /v1 requests",
        size: drillSize(),
        durationMs,
        figures: {
          "requests sent": V1_REQUESTS,
          "answers 2xx": statuses.get("2xx"),
          "answers 4xx": statuses.get("4xx"),
          "answers 5xx": statuses.get("5xx"),
          "distinct error codes": codes.size(),
          "error codes seen": codes.text(),
          "answers off the contract": problems.length,
          "body bytes sent": bytesSent,
          "requests per second": Math.round((V1_REQUESTS / durationMs) * 1000),
          "generation after the run": finished.generation_status,
        },
        checked: [
          "no answer has a status of 500 or more",
          "every answer but HEAD's is JSON in the success or error envelope, request_id equal to X-Request-Id",
          "every error's status, type and retryable are the error table's for its code, and the code is one the routed operation documents",
          "every 429 carries Retry-After",
          "every success's data matches the operation's response schema",
          "afterwards GET /v1/status answers 200 and a new generation runs to a terminal state",
        ],
      });
      expect(problems.slice(0, 20)).toEqual([]);
      expect(statuses.get("5xx")).toBe(0);
      expect(finished.generation_status).toBe("succeeded");
    },
    sized(120_000, 900_000),
  );

  it(
    `tRPC: ${TRPC_CALLS} fuzzed procedure calls, no 5xx, every error from the table with its status`,
    async () => {
      const owner = await accountWithKey({ plan: "enterprise" });
      let session = await signIn(owner.email);
      const procedures = listProcedures();
      const statuses = tally();
      const codes = tally();
      const called = tally();
      const problems: string[] = [];
      let sessionsRenewed = 0;

      /** An input: the schema's own sample with some fields given wrong values, random JSON, or wire junk. */
      const inputFor = (fields: Record<string, Parameters<typeof sampleOf>[0]>) =>
        fc.oneof(
          {
            weight: 3,
            arbitrary: fc
              .dictionary(fc.constantFrom(...Object.keys(fields), "accountId", "extra"), wrongValue, { maxKeys: 2 })
              .map((wrong) => ({
                wire: undefined as string | undefined,
                input: {
                  ...Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, sampleOf(schema)])),
                  accountId: owner.accountId,
                  ...wrong,
                },
              })),
          },
          { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((input) => ({ input, wire: undefined as string | undefined })) },
          {
            weight: 1,
            arbitrary: fc
              .oneof(
                fc.string({ maxLength: 50 }),
                fc.constantFrom("{", '{"json":', "[]", '{"0":{"json":{}}}', '{"json":{},"meta":{"values":{"a":["Date"]}}}'),
              )
              .map((wire): { input: unknown; wire: string | undefined } => ({ input: null, wire })),
          },
        );

      const { durationMs } = await timed(() =>
        fc.assert(
          fc.asyncProperty(
            fc
              .constantFrom(...procedures)
              .chain((procedure) =>
                fc.tuple(
                  fc.constant(procedure),
                  inputFor(procedure.fields),
                  fc.integer({ min: 0, max: 9 }),
                  fc.integer({ min: 0, max: 9 }),
                  forwardedFor,
                ),
              ),
            async ([procedure, { input, wire }, sessionDie, verbDie, forwarded]) => {
              // One call in ten without a session, one in ten with the wrong verb (a query POSTed, a mutation as GET).
              const withSession = sessionDie > 0;
              const asOtherType = verbDie === 0;
              const type = asOtherType ? (procedure.type === "query" ? "mutation" : "query") : procedure.type;
              const headers: Record<string, string> = forwarded === null ? {} : { "x-forwarded-for": forwarded };
              const reply = await callProcedure(procedure.path, type, input, {
                cookie: withSession ? session.cookie : undefined,
                headers,
                wire,
              });
              called.add(procedure.path);
              statuses.add(`${Math.floor(reply.status / 100)}xx`);
              const verdict = judgeTrpcReply(reply);
              if (verdict.code) codes.add(verdict.code);
              if (verdict.problem)
                problems.push(`${type} ${procedure.path} ${JSON.stringify(input)?.slice(0, 120) ?? wire}: ${verdict.problem}`);
              // settings.signOutEverywhere ends the session; go on as a new owner of the account
              // (sign-in links are limited per address, so not the same person again and again).
              if (withSession && verdict.code === "ERR1002") {
                const renewed = await addTeamMember(owner.accountId, "owner");
                const { email } = await db.user.findUniqueOrThrow({ where: { id: renewed }, select: { email: true } });
                session = await signIn(email as string);
                sessionsRenewed += 1;
              }
            },
          ),
          { seed: 20261314, numRuns: TRPC_CALLS, endOnFailure: true },
        ),
      );

      // Healthy after: a signed-in read answers.
      const after = await callProcedure(
        "account.get",
        "query",
        { accountId: owner.accountId },
        { cookie: (await signIn(owner.email)).cookie },
      );
      recordDrill("trpc-fuzz", {
        drill: "R4",
        title: "Hostile input: fuzzed tRPC procedure calls",
        size: drillSize(),
        durationMs,
        figures: {
          "calls sent": TRPC_CALLS,
          "procedures in the router": procedures.length,
          "procedures called": called.size(),
          "answers 2xx": statuses.get("2xx"),
          "answers 4xx": statuses.get("4xx"),
          "answers 5xx": statuses.get("5xx"),
          "error codes seen": codes.text(),
          "answers off the contract": problems.length,
          "sessions renewed as a new owner (signOutEverywhere)": sessionsRenewed,
          "account.get after the run": after.status,
        },
        checked: [
          "no answer has a status of 500 or more",
          "every error carries an error-table code whose status is the HTTP status and data.httpStatus, with the table's type and retryable",
          "every success carries result.data",
          "afterwards a signed-in account.get answers 200",
        ],
      });
      expect(problems.slice(0, 20)).toEqual([]);
      expect(statuses.get("5xx")).toBe(0);
      expect(after.status).toBe(200);
    },
    sized(120_000, 900_000),
  );
});
