import Link from "next/link";

const features = [
  {
    title: "One schema, many providers",
    body: "Image and video models from several inference providers behind one normalized request and one envelope.",
  },
  {
    title: "Failover and fastest routing",
    body: "A failing provider is skipped; `fastest` ranks providers by recent latency and success.",
  },
  { title: "Credits you can audit", body: "Every reserve, charge, refund and top-up is an append-only ledger entry." },
  { title: "Scoped, regional keys", body: "Keys with presets or custom scopes, expiry, IP allowlists and rotation with grace." },
];

export default function HomePage() {
  return (
    <main className="mx-auto max-w-5xl px-6 py-20">
      <div className="flex items-center gap-2 text-sm font-medium text-zinc-500">
        <span className="inline-block h-2.5 w-2.5 rounded-full bg-emerald-500" />
        API v1 is serving
      </div>
      <h1 className="mt-4 text-5xl font-semibold tracking-tight">Darkroom</h1>
      <p className="mt-4 max-w-2xl text-lg text-zinc-600">
        A media-generation API: image and video generation through several inference providers, with credits, scoped keys, failover routing,
        signed webhooks and an audit trail.
      </p>
      <div className="mt-8 flex gap-3">
        <Link href="/v1/openapi.json" className="rounded-md bg-zinc-900 px-4 py-2 text-sm font-medium text-white hover:bg-zinc-700">
          OpenAPI document
        </Link>
      </div>
      <section className="mt-16 grid gap-4 sm:grid-cols-2">
        {features.map((feature) => (
          <div key={feature.title} className="rounded-xl border border-zinc-200 bg-white p-6 shadow-sm">
            <h2 className="font-medium">{feature.title}</h2>
            <p className="mt-2 text-sm text-zinc-600">{feature.body}</p>
          </div>
        ))}
      </section>
      <section className="mt-16 rounded-xl border border-zinc-200 bg-zinc-900 p-6 font-mono text-sm text-zinc-100">
        <div className="text-zinc-400"># Check your key</div>
        <div>curl -H &quot;Authorization: Bearer $DARKROOM_KEY&quot; {"<this host>"}/v1/status</div>
      </section>
    </main>
  );
}
