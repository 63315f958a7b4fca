import { ShieldCheck } from "lucide-react";
import { Card, CardBody, CardHeader } from "@/components/ui";

// How a receiver checks that a request is Darkroom's.

const example = `import { createHmac, timingSafeEqual } from "node:crypto";

// header: X-Service-Signature; rawBody: the body, unparsed

const { t, v1 } = Object.fromEntries(
  header.split(",").map((part) => part.split("=")),
);
const expected = createHmac("sha256", secret)
  .update(\`\${t}.\${rawBody}\`)
  .digest();
const given = Buffer.from(v1 ?? "", "hex");
const valid =
  Math.abs(Date.now() / 1000 - Number(t)) <= 300 &&
  given.length === expected.length &&
  timingSafeEqual(given, expected);`;

export function SigningCard() {
  return (
    <Card>
      <CardHeader
        title="Verifying requests"
        description="Every request is signed with this endpoint's secret, so your receiver can reject anything that did not come from Darkroom."
        actions={<ShieldCheck className="size-4 text-zinc-400" aria-hidden />}
      />
      <CardBody className="grid gap-6 md:grid-cols-2">
        <div className="space-y-4">
          <code className="block rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-xs break-all text-zinc-800">
            X-Service-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;
          </code>
          <ol className="list-decimal space-y-1.5 pl-4 text-[13px] text-zinc-600 marker:text-zinc-400">
            <li>
              Compute the HMAC-SHA256 of <code className="font-mono text-zinc-800">t + &quot;.&quot; + rawBody</code>, keyed with the
              secret, as lowercase hex.
            </li>
            <li>
              Compare it with <code className="font-mono text-zinc-800">v1</code> in constant time.
            </li>
            <li>
              Reject timestamps more than <strong className="font-medium text-zinc-800">300 seconds</strong> away from your clock.
            </li>
          </ol>
          <p className="text-xs text-zinc-500">
            Also sent: <code className="font-mono">X-Service-Event</code>, <code className="font-mono">X-Service-Timestamp</code> and{" "}
            <code className="font-mono">X-Service-Delivery-Id</code>. The secret is shown only when the endpoint is created and when its
            secret is rolled.
          </p>
        </div>
        <div className="min-w-0 space-y-1.5">
          <p className="text-xs font-medium text-zinc-500">Node.js</p>
          <pre className="overflow-x-auto rounded-md bg-zinc-950 p-3.5 font-mono text-[11.5px] leading-relaxed text-zinc-100">
            {example}
          </pre>
        </div>
      </CardBody>
    </Card>
  );
}
