"use client";

import { CopyButton, SecretReveal } from "@/components/ui";
import type { RegionName } from "@/server/base/env";
import type { ApiBaseUrls } from "./key-types";

// A key's full value, shown once (after create or rotate), with a request to try it on its
// region's address (a key works only there).

export function KeyReveal({
  apiKey,
  region,
  apiBaseUrls,
  scopes,
}: {
  apiKey: string;
  region: RegionName;
  apiBaseUrls: ApiBaseUrls;
  scopes: readonly string[];
}) {
  const curl = `curl -H "Authorization: Bearer ${apiKey}" ${apiBaseUrls[region]}/v1/status`;
  return (
    <div className="space-y-4 pb-2">
      <SecretReveal label="API key" value={apiKey} />
      <div className="space-y-2">
        <div className="text-sm font-medium text-zinc-900">Try it</div>
        <div className="flex items-start gap-1 rounded-md bg-zinc-900 py-1 pr-1 pl-3">
          <code className="min-w-0 flex-1 py-1.5 font-mono text-xs leading-5 break-all text-zinc-100">{curl}</code>
          <CopyButton value={curl} label="Copy curl command" className="text-zinc-400 hover:bg-zinc-800 hover:text-white" />
        </div>
        {!scopes.includes("account:read") && (
          <p className="text-xs text-zinc-500">
            This key has no <code className="font-mono">account:read</code> scope, so <code className="font-mono">/v1/status</code> answers
            ERR1003; the key itself is valid.
          </p>
        )}
      </div>
    </div>
  );
}
