import "server-only";
import type { ProviderId } from "../catalog/providers";
import { describeFailure, type ProviderResponse } from "./http-errors";
import { ProviderError, type ProviderCheck } from "./types";

// The one way an adapter's check() reads the provider's answers, so every provider is judged
// alike: 401/403 (or the provider's own refusal) → credential refused; no answer, 408, 429 or 5xx
// → unreachable; 404 on a model's read endpoint → that model is missing; any other answer, or a
// body not in the documented shape, is reported as not understood, naming the provider.

/** A GET on the provider's API with the adapter's credential, the path under its base URL. */
export type ReadOnlyGet = (path: string) => Promise<ProviderResponse>;

/** One read-only call: what it asks for, in words ("GET /v1/account"), and how to send it. */
export type CheckCall = { what: string; send: () => Promise<ProviderResponse> };

export type CheckPlan = {
  provider: ProviderId;
  /** The cheapest read-only call that needs the credential; `understood` checks its 2xx body. */
  credential: CheckCall & { understood: (body: unknown) => boolean };
  /**
   * How each model id is confirmed: by its own read endpoint (`lookup`: 404 → missing, a 2xx body
   * → `found`, null when the body is not understood), or from the credential call's answer
   * (`listed`). Neither: the provider has no model read endpoint, only the credential is checked.
   */
  models?:
    | { lookup: (providerModelId: string) => CheckCall; found: (body: unknown, providerModelId: string) => boolean | null }
    | { listed: (body: unknown, providerModelId: string) => boolean };
  /** An answer the provider words its own way (Gemini's 400 API_KEY_INVALID, MiniMax's base_resp codes in an HTTP 200): its state and code, or null. */
  classify?: (response: ProviderResponse) => { state: "refused" | "unreachable"; code: string } | null;
};

type Answer = { state: "ok"; body: unknown } | { state: "refused" | "unreachable" | "not_understood" | "missing"; detail: string };

export async function checkProvider(plan: CheckPlan, providerModelIds: string[]): Promise<ProviderCheck> {
  const credential = await ask(plan, plan.credential, plan.credential.understood);
  if (credential.state !== "ok") {
    const models = plan.models ? providerModelIds.map((providerModelId) => ({ providerModelId, found: null })) : "not_checkable";
    return { credential: credential.state === "refused" ? "refused" : "unreachable", models, detail: credential.detail };
  }
  if (!plan.models)
    return {
      credential: "ok",
      models: "not_checkable",
      detail: `${plan.provider} has no model read endpoint: only the credential was checked`,
    };
  const spec = plan.models;
  if ("listed" in spec)
    return {
      credential: "ok",
      models: providerModelIds.map((providerModelId) => ({ providerModelId, found: spec.listed(credential.body, providerModelId) })),
    };

  const models: { providerModelId: string; found: boolean | null }[] = [];
  const details: string[] = [];
  // One after another: a check should not burst a provider's rate limit.
  for (const providerModelId of providerModelIds) {
    const answer = await ask(plan, spec.lookup(providerModelId), (body) => spec.found(body, providerModelId) !== null);
    models.push({
      providerModelId,
      found: answer.state === "ok" ? spec.found(answer.body, providerModelId) : answer.state === "missing" ? false : null,
    });
    if (answer.state !== "ok" && answer.state !== "missing") details.push(answer.detail);
  }
  return details.length > 0 ? { credential: "ok", models, detail: details.join("; ") } : { credential: "ok", models };
}

async function ask(plan: CheckPlan, call: CheckCall, understood: (body: unknown) => boolean): Promise<Answer> {
  const where = `${plan.provider}: ${call.what}`;
  let response: ProviderResponse;
  try {
    response = await call.send();
  } catch (error) {
    return { state: "unreachable", detail: `${where}: ${error instanceof ProviderError ? error.message : String(error)}` };
  }
  const own = plan.classify?.(response) ?? null;
  const { code, message } = describeFailure(response.body, response.headers);
  const said = `HTTP ${response.status}${own ? ` ${own.code}` : code ? ` ${code}` : ""}`;
  // The provider's message is left out of a refusal: some echo part of the key.
  if (own?.state === "refused" || response.status === 401 || response.status === 403)
    return { state: "refused", detail: `${where} refused the credential (${said})` };
  if (own?.state === "unreachable") return { state: "unreachable", detail: `${where} answered ${said}` };
  if (response.status === 408 || response.status === 429 || response.status >= 500)
    return { state: "unreachable", detail: `${where} answered ${said}${message ? `: ${message}` : ""}` };
  if (response.status === 404) return { state: "missing", detail: `${where} answered ${said}` };
  if (!response.ok || !understood(response.body))
    return { state: "not_understood", detail: `${where}: the answer (${said}) is not understood` };
  return { state: "ok", body: response.body };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
