import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import sharp from "sharp";

// A Replicate stand-in for the bench's remote-provider figures, run in its own process (so its
// CPU is not the server's): Replicate's prediction protocol as https://replicate.com/docs/reference/http
// publishes it and server/providers/replicate expects it. `POST /v1/models/{owner}/{name}/predictions`
// (Bearer auth) answers 201 with the prediction already `succeeded`, its output one PNG URL on this
// server (~200 KB of noise, which does not compress); `GET /files/{id}.png` serves it. Two requests
// per generation, no polling, no webhook. `GET /v1/predictions/{id}` answers the same prediction.
// Prints `{"url": …}` on stdout once listening. REPLICATE_STAND_IN_TOKEN: the expected token.

const token = process.env.REPLICATE_STAND_IN_TOKEN ?? "r8_bench";
// 256 × 256 RGB noise: 196,608 bytes of pixels, a PNG of about 197 KB.
const png = await sharp(randomBytes(256 * 256 * 3), { raw: { width: 256, height: 256, channels: 3 } })
  .png({ compressionLevel: 1 })
  .toBuffer();
let counter = 0;
let base = "";

function json(response, status, body) {
  const text = JSON.stringify(body);
  response.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  response.end(text);
}

function prediction(id, model, input) {
  const now = new Date().toISOString();
  return {
    id,
    model,
    version: "bench",
    input,
    logs: "",
    output: [`${base}/files/${id}.png`],
    data_removed: false,
    error: null,
    status: "succeeded",
    created_at: now,
    started_at: now,
    completed_at: now,
    urls: { get: `${base}/v1/predictions/${id}`, cancel: `${base}/v1/predictions/${id}/cancel`, stream: null },
    metrics: { predict_time: 0.001 },
  };
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    const path = (request.url ?? "/").split("?")[0];
    const segments = path.split("/").filter(Boolean);
    if (request.method === "GET" && segments[0] === "files") {
      response.writeHead(200, { "Content-Type": "image/png", "Content-Length": png.length });
      response.end(png);
      return;
    }
    if (request.headers.authorization !== `Bearer ${token}`)
      return json(response, 401, { title: "Unauthenticated", detail: "You did not pass a valid authentication token", status: 401 });
    if (request.method === "POST" && segments.length === 5 && segments[1] === "models" && segments[4] === "predictions") {
      let body = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return json(response, 400, { title: "Bad request", detail: "The body is not JSON", status: 400 });
      }
      counter += 1;
      return json(response, 201, prediction(`bench${process.pid}x${counter}`, `${segments[2]}/${segments[3]}`, body?.input ?? {}));
    }
    if (request.method === "GET" && segments.length === 3 && segments[1] === "predictions")
      return json(response, 200, prediction(segments[2], "bench", {}));
    json(response, 404, { title: "Not found", detail: "The requested resource could not be found.", status: 404 });
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  base = `http://127.0.0.1:${server.address().port}`;
  process.stdout.write(`${JSON.stringify({ url: base, png_bytes: png.length })}\n`);
});
process.on("SIGTERM", () => process.exit(0));
