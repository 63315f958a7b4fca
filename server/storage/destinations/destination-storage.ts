import "server-only";
import { env } from "../../base/env";
import { safeFetch } from "../../base/net/safe-fetch";
import { s3Storage, type S3Storage } from "../s3";

// An account's own bucket, spoken to with the S3 driver, every request sent under the outbound
// address policy (server/base/net/safe-fetch.ts: the host resolved and checked, the connection
// pinned to the checked address, no redirect), as webhooks are. STORAGE_ALLOW_LOOPBACK=1 lets
// development and tests use a store on loopback over http; production refuses it.

export type DestinationConnection = {
  endpoint: string;
  region: string;
  bucket: string;
  pathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
};

/** What one request may take: a whole output file (the download cap) up, a small answer back. */
const REQUEST_TIMEOUT_MS = 60_000;
const ANSWER_MAX_BYTES = 1024 * 1024;

export function destinationStorage(connection: DestinationConnection): S3Storage {
  const allowLoopback = env().STORAGE_ALLOW_LOOPBACK;
  return s3Storage(
    {
      endpoint: connection.endpoint,
      region: connection.region,
      bucket: connection.bucket,
      accessKeyId: connection.accessKeyId,
      secretAccessKey: connection.secretAccessKey,
      forcePathStyle: connection.pathStyle,
    },
    {
      transport: async (request) => {
        const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
        const answer = await safeFetch(request.url, {
          method: request.method,
          headers: Object.fromEntries(request.headers.entries()),
          body,
          allowLoopback,
          timeoutMs: REQUEST_TIMEOUT_MS,
          maxBytes: ANSWER_MAX_BYTES,
        });
        const headers = new Headers();
        for (const [name, value] of Object.entries(answer.headers))
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
        const empty = request.method === "HEAD" || answer.status === 204 || answer.status === 304;
        return new Response(empty ? null : new Uint8Array(answer.body), { status: answer.status, headers });
      },
    },
  );
}
