import Link from "next/link";

// The frame of the legal pages: the mark, the title with its version and date, plain prose.

export function LegalPage({
  title,
  version,
  effective,
  children,
}: {
  title: string;
  version: string;
  effective: string;
  children: React.ReactNode;
}) {
  return (
    <main className="min-h-screen bg-zinc-50 px-4 py-12">
      <article className="mx-auto max-w-2xl rounded-xl border border-zinc-200 bg-white px-6 py-8 shadow-sm sm:px-10">
        <Link href="/" className="mb-8 flex items-center gap-2 text-base font-semibold tracking-tight text-zinc-900">
          <span className="inline-flex h-6 w-6 items-center justify-center rounded-md bg-zinc-900 text-[11px] font-bold text-white">D</span>
          Darkroom
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{title}</h1>
        <p className="mt-1 text-sm text-zinc-500">
          Version <span className="font-mono">{version}</span>, in effect from {effective}.
        </p>
        <div className="mt-8 space-y-4 text-sm leading-6 text-zinc-700 [&_h2]:mt-8 [&_h2]:text-base [&_h2]:font-semibold [&_h2]:text-zinc-900 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-5">
          {children}
        </div>
        <p className="mt-10 border-t border-zinc-100 pt-4 text-xs text-zinc-500">
          <Link href="/legal/terms" className="underline underline-offset-2">
            Terms of Service
          </Link>{" "}
          ·{" "}
          <Link href="/legal/privacy" className="underline underline-offset-2">
            Privacy Policy
          </Link>{" "}
          ·{" "}
          <Link href="/login" className="underline underline-offset-2">
            Sign in
          </Link>
        </p>
      </article>
    </main>
  );
}
