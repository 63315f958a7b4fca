import { describe, expect, it } from "vitest";
import { ConnectionError, Darkroom, ServerError, ValidationError, type FetchLike } from "@/sdk/typescript/src/index";

// @darkroom/client's download helper (sdk/typescript/src/downloads.ts) without a Darkroom server:
// the file handed over as it streams with its name, the query and Accept sent, retries until the
// file starts, and a refusal's envelope raised as its error family.

const csv = (chunks: string[]) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    }),
    {
      status: 200,
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": 'attachment; filename="darkroom-usage-us-2026-12-01-to-2026-12-02.csv"',
        "x-request-id": "00000000-0000-4000-8000-000000000003",
      },
    },
  );

const refusal = (status: number, code: string, retryable: boolean) =>
  new Response(
    JSON.stringify({
      status: "error",
      request_id: "00000000-0000-4000-8000-000000000001",
      error: { code, type: "x", message: `${code} happened`, retryable, details: { fields: [{ field: "from", message: "bad" }] } },
    }),
    { status, headers: { "content-type": "application/json; charset=utf-8" } },
  );

function scripted(answers: Array<Response | Error>) {
  const calls: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, headers: init.headers as Record<string, string> });
    const answer = answers.shift();
    if (!answer) throw new Error("no answer scripted");
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { calls, client: new Darkroom({ apiKey: "dkr_test", baseUrl: "http://darkroom.test/v1", fetch, maxRetries: 2 }) };
}

describe("downloads", () => {
  it("hands over the file as it streams, with its name, after sending the query", async () => {
    const { calls, client } = scripted([csv(["date,api_key_id\r\n", "2026-12-01,k\r\n", "2026-12-02,k\r\n"])]);
    const file = await client.exportUsage({ from: "2026-12-01", to: "2026-12-02", format: "csv" });
    expect(calls[0]?.url).toBe("http://darkroom.test/v1/usage/export?from=2026-12-01&to=2026-12-02&format=csv");
    expect(calls[0]?.headers).toMatchObject({ authorization: "Bearer dkr_test", accept: "text/csv, application/json" });
    expect(file.filename).toBe("darkroom-usage-us-2026-12-01-to-2026-12-02.csv");
    expect(file.contentType).toBe("text/csv; charset=utf-8");
    expect(file.lastResponse).toMatchObject({ requestId: "00000000-0000-4000-8000-000000000003", status: 200, attempts: 1 });
    const reader = file.body.getReader();
    const pieces: string[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) pieces.push(new TextDecoder().decode(next.value));
    expect(pieces).toEqual(["date,api_key_id\r\n", "2026-12-01,k\r\n", "2026-12-02,k\r\n"]);
  });

  it("retries a retryable refusal and a dropped connection before the file starts", async () => {
    const { calls, client } = scripted([refusal(503, "ERR3001", true), new TypeError("socket hang up"), csv(["date\r\n"])]);
    const file = await client.exportUsage({ from: "2026-12-01" });
    expect(await file.text()).toBe("date\r\n");
    expect(file.lastResponse.attempts).toBe(3);
    expect(calls).toHaveLength(3);
  });

  it("raises a refusal as its family, not retried when it is not retryable", async () => {
    const { calls, client } = scripted([refusal(400, "ERR1001", false)]);
    const error = await client.exportUsage({ from: "nope" }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).code).toBe("ERR1001");
    expect(calls).toHaveLength(1);
    const exhausted = scripted([refusal(503, "ERR3001", true), refusal(503, "ERR3001", true), refusal(503, "ERR3001", true)]);
    expect(await exhausted.client.exportUsage({ from: "2026-12-01" }).catch((thrown: unknown) => thrown)).toBeInstanceOf(ServerError);
    const offline = scripted([new TypeError("down"), new TypeError("down"), new TypeError("down")]);
    expect(await offline.client.exportUsage({ from: "2026-12-01" }).catch((thrown: unknown) => thrown)).toBeInstanceOf(ConnectionError);
  });
});
