"use client";

import {
  Bell,
  Boxes,
  ChartColumn,
  Columns3,
  CreditCard,
  Globe,
  History,
  Images,
  KeyRound,
  LayoutDashboard,
  ScrollText,
  Settings,
  Users,
  Webhook,
} from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui";

// The dashboard's sections, Settings last.

const sections = [
  { href: "", label: "Overview", icon: LayoutDashboard },
  { href: "/generations", label: "Generations", icon: Images },
  { href: "/models", label: "Models", icon: Boxes },
  { href: "/compare", label: "Compare", icon: Columns3 },
  { href: "/usage", label: "Usage", icon: ChartColumn },
  { href: "/keys", label: "API keys", icon: KeyRound },
  { href: "/logs", label: "Logs", icon: ScrollText },
  { href: "/team", label: "Team", icon: Users },
  { href: "/webhooks", label: "Webhooks", icon: Webhook },
  { href: "/domain", label: "Custom domain", icon: Globe },
  { href: "/alerts", label: "Alerts", icon: Bell },
  { href: "/activity", label: "Activity", icon: History },
  { href: "/billing", label: "Billing", icon: CreditCard },
  { href: "/settings", label: "Settings", icon: Settings },
] as const;

export function SidebarNav({ accountId, orientation = "vertical" }: { accountId: string; orientation?: "vertical" | "horizontal" }) {
  const pathname = usePathname();
  const base = `/dashboard/${accountId}`;
  return (
    <nav aria-label="Dashboard" className={cn("flex gap-0.5", orientation === "vertical" ? "flex-col" : "flex-row overflow-x-auto")}>
      {sections.map((section) => {
        const href = `${base}${section.href}`;
        const active = section.href === "" ? pathname === base : pathname === href || pathname.startsWith(`${href}/`);
        const Icon = section.icon;
        return (
          <Link
            key={section.label}
            href={href}
            aria-current={active ? "page" : undefined}
            className={cn(
              "flex items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm font-medium whitespace-nowrap transition-colors",
              active ? "bg-zinc-900/5 text-zinc-900" : "text-zinc-500 hover:bg-zinc-900/5 hover:text-zinc-900",
            )}
          >
            <Icon className="size-4" aria-hidden />
            {section.label}
          </Link>
        );
      })}
    </nav>
  );
}
