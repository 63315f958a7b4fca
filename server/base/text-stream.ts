// Text produced piece by piece (an export's lines) as a byte stream that pulls it: the source is
// asked for more only when the reader wants the next chunk, so a slow client holds the source
// back (back-pressure) and the whole text never sits in memory. Pieces are joined into chunks of
// about `chunkBytes`; a reader that cancels (the client hung up) ends the source (its `finally`s run).

const DEFAULT_CHUNK_BYTES = 64 * 1024;

export function textStream(source: AsyncIterable<string>, { chunkBytes = DEFAULT_CHUNK_BYTES } = {}): ReadableStream<Uint8Array> {
  const pieces = source[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk = "";
        while (chunk.length < chunkBytes) {
          const next = await pieces.next();
          if (next.done) {
            if (chunk) controller.enqueue(encoder.encode(chunk));
            controller.close();
            return;
          }
          chunk += next.value;
        }
        controller.enqueue(encoder.encode(chunk));
      },
      async cancel() {
        await pieces.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
