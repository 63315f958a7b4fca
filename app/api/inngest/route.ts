import { serve } from "inngest/next";
import { inngest } from "@/server/base/events/client";
import { inProcessServeHandler, registerServeHandler } from "@/server/jobs/executor/in-process-handler";
import { functions } from "@/server/jobs/functions";
import { inngestMode } from "@/server/base/events/mode";

// The Inngest serve endpoint. Every request is signature-checked by the SDK: with INNGEST_SIGNING_KEY
// against Inngest; in embedded mode against a key derived from AUTH_SECRET that only the
// in-process executor signs with (so syncs, too, must be signed there).

export const dynamic = "force-dynamic";

export const { GET, POST, PUT } = serve({
  client: inngest,
  functions,
  ...(inngestMode() === "embedded" ? { enableUnauthedSync: false } : {}),
});

// The embedded executor in this process calls a handler of the same functions directly
// (server/jobs/executor/in-process-handler.ts): a function call that no request from outside can
// reach, so it neither signs nor is signature-checked (two HMACs through WebCrypto per Call Request,
// about 6 % of a generation's CPU). Everything that arrives over HTTP goes to POST above, checked.
if (inngestMode() === "embedded") {
  // skipSignatureValidation is the comm handler's own option, which serve() passes through (its type leaves it out).
  const inProcess = serve({ client: inngest, functions, ...{ skipSignatureValidation: true } });
  registerServeHandler(inngest.id, inProcessServeHandler(inProcess.POST));
}
