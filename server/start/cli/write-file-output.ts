import { once } from "node:events";
import fs from "node:fs";
import type { Writable } from "node:stream";
import { invalidRequest } from "../../base/error-table";

// An export's lines written as they are read, to stdout or a file, in chunks of about 64 KiB:
// the next chunk is read only once the destination has taken the last (back-pressure), so memory
// holds a chunk, not the file. A file left unfinished by a failure is removed. Answers the bytes.

const CHUNK = 64 * 1024;

async function writeAll(lines: AsyncIterable<string>, destination: Writable): Promise<number> {
  let bytes = 0;
  let pending = "";
  const flush = async () => {
    const chunk = Buffer.from(pending, "utf8");
    pending = "";
    bytes += chunk.length;
    if (!destination.write(chunk)) await once(destination, "drain");
  };
  for await (const line of lines) {
    pending += line;
    if (pending.length >= CHUNK) await flush();
  }
  if (pending) await flush();
  // The callback of a last (empty) write comes once everything before it was handed on.
  await new Promise<void>((resolve, reject) => destination.write("", (error) => (error ? reject(error) : resolve())));
  return bytes;
}

/** The --out file, opened before anything is read: a path that cannot be written is ERR1001. */
async function openOut(out: string) {
  try {
    return await fs.promises.open(out, "w");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? "an error";
    throw invalidRequest(`--out cannot be written (${reason}).`, [{ field: "out", message: `cannot be written (${reason})` }]);
  }
}

export async function writeFileOutput(lines: AsyncIterable<string>, out: string | undefined): Promise<number> {
  if (out === undefined) return writeAll(lines, process.stdout);
  const file = (await openOut(out)).createWriteStream();
  // Write errors reach the writes' callbacks; this keeps one from also being thrown unhandled.
  file.on("error", () => undefined);
  try {
    const bytes = await writeAll(lines, file);
    file.end();
    await once(file, "finish");
    return bytes;
  } catch (error) {
    file.destroy();
    await fs.promises.rm(out, { force: true });
    throw error;
  }
}
