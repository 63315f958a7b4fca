import Link from "next/link";

// The frame of the sign-in pages: the mark, a title and one card.

export function AuthCard({ title, description, children }: { title: string; description?: React.ReactNode; children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-zinc-50 px-4 py-12">
      <Link href="/" className="mb-8 flex items-center gap-2 text-lg font-semibold tracking-tight text-zinc-900">
        <span className="inline-flex h-7 w-7 items-center justify-center rounded-md bg-zinc-900 text-xs font-bold text-white">D</span>
        Darkroom
      </Link>
      <div className="w-full max-w-sm rounded-xl border border-zinc-200 bg-white p-6 shadow-sm">
        <h1 className="text-lg font-semibold text-zinc-900">{title}</h1>
        {description ? <div className="mt-1 text-sm text-zinc-500">{description}</div> : null}
        <div className="mt-6">{children}</div>
      </div>
    </main>
  );
}
