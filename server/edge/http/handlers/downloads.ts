import "server-only";
import { accountScope } from "../../../base/account-scope";
import { db } from "../../../base/db";
import { textStream } from "../../../base/text-stream";
import { exportUsage } from "../../../usage/export/export-usage";
import { downloads } from "../operations";
import { withApiKey } from "../with-api-key";
import type { OperationResult } from "../define-operation";

// The downloads: the checkpoint has run (key, scope, rate limit) and writes the request log once,
// as the file starts; the domain checks the range (envelope errors before the file), then the file
// is streamed, pulled from the rows as the client reads.

/** A file answer: streamed (never gzipped or buffered whole), saved under its name. */
export function fileResponse(file: { filename: string; contentType: string; lines: AsyncIterable<string> }): Response {
  return new Response(textStream(file.lines), {
    status: 200,
    headers: {
      "content-type": file.contentType,
      "content-disposition": `attachment; filename="${file.filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

export const exportUsageRoute = withApiKey(downloads.exportUsage, async ({ accountId, key, query }) => {
  const file = await exportUsage(db, accountScope(accountId), {
    from: query.from,
    to: query.to,
    format: query.format,
    // The key works only in its own region: the region this request is served in.
    region: key.region,
  });
  return fileResponse(file) as unknown as OperationResult<typeof downloads.exportUsage>;
});
