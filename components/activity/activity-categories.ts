import type { BadgeTone } from "@/components/ui";
import type { ActivityCategory } from "@/server/base/generated/prisma/enums";

// The spec's activity categories (§2) as the feed shows them. A Record, so a category added to
// the schema fails the typecheck here until it has a label.

export const activityCategoryStyles: Record<ActivityCategory, { label: string; tone: BadgeTone }> = {
  api_key: { label: "API key", tone: "blue" },
  webhook: { label: "Webhook", tone: "blue" },
  credit: { label: "Credit", tone: "green" },
  generation: { label: "Generation", tone: "neutral" },
  subscription: { label: "Subscription", tone: "green" },
  membership: { label: "Membership", tone: "neutral" },
  account: { label: "Account", tone: "neutral" },
  invitation: { label: "Invitation", tone: "neutral" },
  order: { label: "Order", tone: "green" },
  billing: { label: "Billing", tone: "green" },
  notification: { label: "Notification", tone: "amber" },
  auth: { label: "Auth", tone: "blue" },
  domain: { label: "Domain", tone: "blue" },
  consent: { label: "Consent", tone: "neutral" },
  bug_report: { label: "Bug report", tone: "amber" },
};

export const activityCategoryList = Object.keys(activityCategoryStyles) as ActivityCategory[];

export type { ActivityCategory };
