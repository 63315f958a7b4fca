import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";

/** "← Generations" above a detail page: back to the list it was opened from. */
export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className="inline-flex items-center gap-1.5 text-sm text-zinc-500 transition-colors hover:text-zinc-900">
      <ArrowLeft className="size-4" aria-hidden />
      {children}
    </Link>
  );
}
