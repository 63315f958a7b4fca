import { serve } from "inngest/next";
import { inngest } from "@/server/events/client";
import { registerServeHandler } from "@/server/inngest/executor/in-process-handler";
import { functions } from "@/server/inngest/functions";
import { inngestMode } from "@/server/events/mode";

// The Inngest serve endpoint. Every request is signature-checked by the SDK: with INNGEST_SIGNING_KEY
// against Inngest; in embedded mode against a key derived from AUTH_SECRET that only the
// in-process executor signs with (so syncs, too, must be signed there).

export const dynamic = "force-dynamic";

export const { GET, POST, PUT } = serve({
  client: inngest,
  functions,
  ...(inngestMode() === "embedded" ? { enableUnauthedSync: false } : {}),
});

// The embedded executor in this process calls POST directly (server/inngest/executor/in-process-handler.ts).
if (inngestMode() === "embedded") registerServeHandler(inngest.id, (request) => POST(request as never, undefined) as Promise<Response>);
