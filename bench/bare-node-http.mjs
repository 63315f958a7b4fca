import { createServer } from "node:http";

// The ceiling of the read figures: a bare node:http server in its own process answering what the
// bench's bare route answers (a small JSON 404 envelope), with no framework, database or auth.
// Prints `{"url": …}` on stdout once listening.

const body = JSON.stringify({ error: { code: "ERR1004", message: "Not found" } });
const server = createServer((request, response) => {
  request.resume();
  response.writeHead(404, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`));
process.on("SIGTERM", () => process.exit(0));
