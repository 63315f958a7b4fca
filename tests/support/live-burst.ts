import http from "node:http";
import { baseUrl } from "@/tests/support/http";

// Clients that stop reading, for the live streams' memory suites (issue #43); the bursts that
// fill them are event-burst.ts.

export { burstEvents } from "@/tests/support/event-burst";

export type SseBlock = { id: string | null; event: string };

export type PausedStream = {
  status: number;
  /**
   * Reads on, until the server ends the stream or `burst` generation.processing events have come
   * (a stream the server kept, then closed here); answers what was read and which it was.
   */
  resume(burst: number): Promise<{ endedByServer: boolean; bytes: number; events: SseBlock[] }>;
};

/** A stream whose client reads its headers and then nothing (its socket stops reading). */
export function openPausedStream(path: string, key: string): Promise<PausedStream> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${key}`, accept: "text/event-stream" };
    const request = http.get(`${baseUrl()}${path}`, { agent: false, headers }, (response) => {
      response.pause();
      const events: SseBlock[] = [];
      let bytes = 0;
      let processing = 0;
      let partial = "";
      let wanted = Infinity;
      let keptOpen = false;
      const ended = new Promise<void>((done) => {
        response.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          const blocks = (partial + chunk.toString("utf8")).split("\n\n");
          partial = blocks.pop() ?? "";
          const complete = completeEvents(blocks.map((block) => `${block}\n\n`).join(""));
          events.push(...complete);
          processing += complete.filter((event) => event.event === "generation.processing").length;
          if (!keptOpen && processing >= wanted) {
            keptOpen = true;
            request.destroy();
          }
        });
        response.once("close", () => done());
        response.once("error", () => done());
      });
      resolve({
        status: response.statusCode ?? 0,
        resume: async (burst) => {
          wanted = burst;
          response.resume();
          await ended;
          return { endedByServer: !keptOpen, bytes, events };
        },
      });
    });
    request.on("error", reject);
  });
}

/** The complete events of a stream's text (an event cut off by the end is not one), with their ids. */
export function completeEvents(text: string): SseBlock[] {
  const blocks = text.split("\n\n").slice(0, -1);
  return blocks
    .map((block) => ({ id: /^id: (.*)$/m.exec(block)?.[1] ?? null, event: /^event: (.*)$/m.exec(block)?.[1] ?? "" }))
    .filter((event) => event.event !== "");
}
