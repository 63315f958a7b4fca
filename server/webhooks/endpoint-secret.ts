import { randomBytes } from "node:crypto";
import { seal, unseal } from "../base/secrets/seal";

// A signing secret: `whsec_` + 32 random bytes, base64url. Shown once (create and roll). Signing
// needs the secret itself, so it is stored sealed (AES-256-GCM under ENCRYPTION_KEY, bound to its
// endpoint), never in plain text: a database dump alone cannot sign events.

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

const contextOf = (endpointId: string) => `webhook_endpoint.secret:${endpointId}`;

/** The columns to store for an endpoint's secret. */
export function sealedSecretColumns(endpointId: string, secret: string): { secret: string; secretKeyId: string } {
  const sealed = seal(secret, contextOf(endpointId));
  return { secret: sealed.value, secretKeyId: sealed.keyId };
}

/** The secret to sign with. A row without a key id is plain text from before sealing (sealed at boot). */
export function openEndpointSecret(endpoint: { id: string; secret: string; secretKeyId: string | null }): string {
  if (endpoint.secretKeyId === null) return endpoint.secret;
  return unseal({ value: endpoint.secret, keyId: endpoint.secretKeyId }, contextOf(endpoint.id));
}
