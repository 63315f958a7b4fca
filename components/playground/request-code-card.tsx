"use client";

import { useRef, useState } from "react";
import { Card, CardHeader, CopyButton, cn } from "@/components/ui";
import { codeLanguages, KEY_PLACEHOLDER, requestCode, type CodeLanguage, type RunRequestShape } from "./request-code";

// "Copy as code" for the request the form holds, in cURL, TypeScript and Python. The key stays a
// placeholder: no key is ever in the page.

export function RequestCodeCard({ request }: { request: RunRequestShape }) {
  const [language, setLanguage] = useState<CodeLanguage>("curl");
  const code = requestCode(language, request);
  const pre = useRef<HTMLPreElement>(null);
  return (
    <Card role="region" aria-label="Copy as code">
      <CardHeader
        title="Copy as code"
        description={
          <>
            This exact request. Set <code className="font-mono text-xs">{KEY_PLACEHOLDER.slice(1)}</code> to one of your API keys first.
          </>
        }
        actions={
          <CopyButton value={code} selectTarget={pre} label={`Copy ${codeLanguages.find((item) => item.id === language)?.label} code`} />
        }
      />
      <div role="tablist" aria-label="Language" className="flex gap-1 border-b border-zinc-200 px-3 pt-2">
        {codeLanguages.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            aria-selected={item.id === language}
            onClick={() => setLanguage(item.id)}
            className={cn(
              "-mb-px rounded-t-md border-b-2 px-3 py-1.5 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-zinc-900/10",
              item.id === language ? "border-zinc-900 text-zinc-900" : "border-transparent text-zinc-500 hover:text-zinc-800",
            )}
          >
            {item.label}
          </button>
        ))}
      </div>
      <pre
        ref={pre}
        data-language={language}
        className="max-h-80 overflow-auto rounded-b-lg bg-zinc-950 p-4 font-mono text-xs leading-relaxed text-zinc-100"
      >
        {code}
      </pre>
    </Card>
  );
}
