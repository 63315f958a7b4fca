import { z } from "zod";
import { focusColumns, usageCsvColumns, usageExportFormats } from "../../usage/export/usage-export-columns";
import { textQueryParam } from "./query";

// GET /v1/usage/export: its query, and the columns of its CSV rows (components of the document,
// so a client knows each column; every cell is text, as CSV is).

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const dateParam = () => z.string().regex(DATE, "must be a date as YYYY-MM-DD (UTC)");

export const usageExportQuerySchema = z.object({
  from: z
    .string({ error: "is required (YYYY-MM-DD)" })
    .regex(DATE, "must be a date as YYYY-MM-DD (UTC)")
    .describe("First UTC day of the range, inclusive (YYYY-MM-DD). Not before the plan keeps generation records."),
  to: textQueryParam(dateParam()).describe("Last UTC day of the range, inclusive (YYYY-MM-DD); today by default, never after today."),
  format: textQueryParam(z.enum(usageExportFormats, { error: "must be one of csv, focus" }))
    .default("csv")
    .describe("`csv`: Darkroom's columns. `focus`: the FinOps FOCUS 1.0 columns (credits as USD)."),
});

const csvDescriptions: Record<(typeof usageCsvColumns)[number], string> = {
  date: "The UTC day, YYYY-MM-DD.",
  api_key_id: "The key that created the generations; empty for the dashboard's runs without a key.",
  api_key_name: "The key's current name; empty once the key is deleted.",
  model: "The model identifier.",
  provider: "The provider that ran them; empty when none did.",
  generations: "Generations created that day.",
  succeeded: "Of them, succeeded.",
  failed: "Of them, failed (refunded).",
  canceled: "Of them, canceled (refunded).",
  estimated_cost: "Credits charged or still reserved, three decimals (failed and canceled cost nothing).",
};

export const usageExportRowSchema = z
  .object(Object.fromEntries(usageCsvColumns.map((column) => [column, z.string().describe(csvDescriptions[column])])))
  .describe("One row of the `csv` format: one UTC day × API key × model × provider, in this column order.");

export const usageExportFocusRowSchema = z
  .object(Object.fromEntries(focusColumns.map((column) => [column, z.string()])))
  .describe(
    "One row of the `focus` format (FinOps FOCUS 1.0), the same grain. Costs are USD (one credit is one USD); charge periods are the UTC day and billing periods the UTC month (ISO 8601 instants); ResourceId is the API key; SkuId the model; SubAccountId the account; Tags a JSON object with the provider.",
  );

export type UsageExportQuery = z.output<typeof usageExportQuerySchema>;
