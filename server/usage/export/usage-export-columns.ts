import { csvRecord } from "../../base/csv";
import type { RegionName } from "../../base/env";
import { millisToDecimalString } from "../../base/money";
import type { UsageExportDay } from "./usage-export-days";

// The two layouts of a usage export row: Darkroom's own columns, and the FinOps FOCUS 1.0 columns
// (one credit is one USD, docs/billing.md). Dates in FOCUS are ISO 8601 UTC instants; charge
// periods are the UTC day, billing periods the UTC calendar month.

export const usageExportFormats = ["csv", "focus"] as const;
export type UsageExportFormat = (typeof usageExportFormats)[number];

export const usageCsvColumns = [
  "date",
  "api_key_id",
  "api_key_name",
  "model",
  "provider",
  "generations",
  "succeeded",
  "failed",
  "canceled",
  "estimated_cost",
] as const;

export const focusColumns = [
  "BilledCost",
  "EffectiveCost",
  "ListCost",
  "ContractedCost",
  "BillingCurrency",
  "BillingPeriodStart",
  "BillingPeriodEnd",
  "ChargePeriodStart",
  "ChargePeriodEnd",
  "ChargeCategory",
  "ChargeDescription",
  "ChargeFrequency",
  "ConsumedQuantity",
  "ConsumedUnit",
  "PricingQuantity",
  "PricingUnit",
  "ProviderName",
  "PublisherName",
  "InvoiceIssuerName",
  "RegionId",
  "RegionName",
  "ResourceId",
  "ResourceName",
  "ResourceType",
  "ServiceCategory",
  "ServiceName",
  "SkuId",
  "SubAccountId",
  "SubAccountName",
  "Tags",
] as const;

/** What every row of one export shares: the account, the region, the key names. */
export type UsageExportContext = {
  accountId: string;
  accountName: string;
  region: RegionName;
  keyName(id: string | null): string;
};

export const regionNames: Record<RegionName, string> = { us: "United States", eu: "Europe", jp: "Japan" };

export function usageCsvRow(row: UsageExportDay, context: UsageExportContext): string {
  return csvRecord([
    row.date,
    row.apiKeyId,
    context.keyName(row.apiKeyId),
    row.model,
    row.provider,
    row.generations,
    row.succeeded,
    row.failed,
    row.canceled,
    millisToDecimalString(row.costMillis),
  ]);
}

const instant = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

export function focusRow(row: UsageExportDay, context: UsageExportContext): string {
  const day = new Date(`${row.date}T00:00:00.000Z`);
  const nextDay = new Date(day.getTime() + 86_400_000);
  const monthStart = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
  const nextMonth = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1));
  const cost = millisToDecimalString(row.costMillis);
  // What was charged or is still reserved: the refunded (failed, canceled) consumed nothing.
  const consumed = row.generations - row.failed - row.canceled;
  const via = row.provider ? ` via ${row.provider}` : "";
  return csvRecord([
    cost,
    cost,
    cost,
    cost,
    "USD",
    instant(monthStart),
    instant(nextMonth),
    instant(day),
    instant(nextDay),
    "Usage",
    `${row.generations} generation${row.generations === 1 ? "" : "s"} of ${row.model}${via}`,
    "Usage-Based",
    consumed,
    "Generations",
    consumed,
    "Generations",
    "Darkroom",
    "Darkroom",
    "Darkroom",
    context.region,
    regionNames[context.region],
    row.apiKeyId,
    row.apiKeyId === null ? null : context.keyName(row.apiKeyId),
    row.apiKeyId === null ? null : "API key",
    "AI and Machine Learning",
    "Darkroom Generation",
    row.model,
    context.accountId,
    context.accountName,
    JSON.stringify({ provider: row.provider }),
  ]);
}
