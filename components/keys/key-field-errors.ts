import { apiErrorFields, asSentence } from "@/components/trpc/api-error";
import { errorMessage } from "@/components/trpc/react";
import type { CreateKeyFormProps } from "./create-key-form";

// The server's field names (the domain's snake_case, or the router's input names) → the create
// form's fields. Allowlist errors show the whole message, which names the refused entry.

type FormField = keyof CreateKeyFormProps["fieldErrors"];

function formFieldOf(field: string): FormField | null {
  if (field === "name") return "name";
  if (field === "scopes" || field === "preset") return "scopes";
  if (field === "expires_at" || field === "expiresAt") return "expiresAt";
  if (field.startsWith("ip_allowlist") || field.startsWith("ipAllowlist")) return "ipAllowlist";
  if (field === "region") return "region";
  if (field === "spend_limit" || field === "spendLimit" || field === "spend_period") return "spendLimit";
  return null;
}

export function createKeyFieldErrors(error: unknown): { fields: CreateKeyFormProps["fieldErrors"]; general: string | null } {
  if (!error) return { fields: {}, general: null };
  const fields: CreateKeyFormProps["fieldErrors"] = {};
  for (const [field, message] of Object.entries(apiErrorFields(error))) {
    const formField = formFieldOf(field);
    if (formField) fields[formField] ??= formField === "ipAllowlist" ? errorMessage(error) : asSentence(message);
  }
  return { fields, general: Object.keys(fields).length === 0 ? errorMessage(error) : null };
}
