import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";

// The floor of a remote generation on this machine, for the bench's remote-provider row set: the
// least any server must do for one, with none of Darkroom's product. node:http in its own process;
// `POST /v1/generate/image/{owner}/{name}` parses the JSON body, records the generation in one
// autocommit INSERT and answers 202; then, in the background, creates the prediction at the
// Replicate stand-in (fetch), downloads its output (fetch), writes it to a file (a temporary file,
// then a rename) and records the success in one autocommit UPDATE. The same HTTP requests, the same
// bytes and the same two commits a generation costs, and nothing else: no key, no ledger, no
// events, no durable run, no webhook. Any other request: the bare 404 of bare-node-http.mjs.
// Prints `{"url": …}` once listening. Env: DATABASE_URL, REPLICATE_API_BASE_URL, REPLICATE_API_TOKEN.

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const providerBase = process.env.REPLICATE_API_BASE_URL;
const providerToken = process.env.REPLICATE_API_TOKEN;
const filesRoot = await mkdtemp(path.join(os.tmpdir(), "darkroom-bench-floor-"));

await pool.query(`CREATE TABLE IF NOT EXISTS bench_floor_generation (
  id uuid PRIMARY KEY, model text NOT NULL, prompt text NOT NULL, status text NOT NULL,
  output_key text, created_at timestamptz NOT NULL DEFAULT now(), finished_at timestamptz)`);
await pool.query("TRUNCATE bench_floor_generation");

const notFound = JSON.stringify({ error: { code: "ERR1004", message: "Not found" } });

function answer(response, status, text) {
  response.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  response.end(text);
}

async function run(id, model, prompt) {
  const created = await fetch(`${providerBase}/v1/models/${model}/predictions`, {
    method: "POST",
    headers: { authorization: `Bearer ${providerToken}`, "content-type": "application/json" },
    body: JSON.stringify({ input: { prompt } }),
  });
  const prediction = await created.json();
  if (prediction.status !== "succeeded") throw new Error(`prediction ${prediction.status}`);
  const output = await fetch(prediction.output[0]);
  const bytes = new Uint8Array(await output.arrayBuffer());
  const folder = path.join(filesRoot, id);
  await mkdir(folder, { recursive: true });
  const temporary = path.join(folder, `.tmp-${randomUUID()}`);
  await writeFile(temporary, bytes);
  await rename(temporary, path.join(folder, "0.png"));
  await pool.query({
    name: "floor-finish",
    text: "UPDATE bench_floor_generation SET status = 'succeeded', output_key = $2, finished_at = now() WHERE id = $1 AND status = 'pending'",
    values: [id, `${id}/0.png`],
  });
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    const prefix = "/v1/generate/image/";
    if (request.method !== "POST" || !request.url?.startsWith(prefix)) return answer(response, 404, notFound);
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return answer(response, 400, JSON.stringify({ error: { code: "ERR1001", message: "The body is not JSON" } }));
    }
    const id = randomUUID();
    const model = request.url.slice(prefix.length);
    const prompt = String(body.generation_prompt ?? "");
    pool
      .query({
        name: "floor-create",
        text: "INSERT INTO bench_floor_generation (id, model, prompt, status) VALUES ($1, $2, $3, 'pending')",
        values: [id, model, prompt],
      })
      .then(() => {
        answer(response, 202, JSON.stringify({ generation_id: id, status: "pending" }));
        run(id, model, prompt).catch((error) =>
          pool
            .query("UPDATE bench_floor_generation SET status = 'failed', finished_at = now() WHERE id = $1", [id])
            .catch(() => undefined)
            .then(() => console.error(String(error))),
        );
      })
      .catch((error) => answer(response, 500, JSON.stringify({ error: { code: "ERR5000", message: String(error) } })));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`));
process.on("SIGTERM", async () => {
  server.close();
  await pool.end().catch(() => undefined);
  await rm(filesRoot, { recursive: true, force: true });
  process.exit(0);
});
