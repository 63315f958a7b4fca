import { redirect } from "next/navigation";
import { listMemberships } from "@/server/accounts/find-membership";
import { currentUserId } from "@/server/auth";

export const dynamic = "force-dynamic";

// /dashboard lands on the user's first account.
export default async function DashboardIndex() {
  const userId = await currentUserId();
  if (!userId) redirect("/login?callbackUrl=/dashboard");
  const [first] = await listMemberships(userId);
  if (!first) redirect("/login?error=AccessDenied");
  redirect(`/dashboard/${first.accountId}`);
}
