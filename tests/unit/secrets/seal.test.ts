import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "@/server/base/env";
import { currentKey, keyIdOf } from "@/server/base/secrets/encryption-keys";
import { seal, SecretUnavailable, unseal } from "@/server/base/secrets/seal";

// Sealing secrets at rest: AES-256-GCM under ENCRYPTION_KEY, bound to where the value lives, with
// the key id beside it so a rotated key still opens what it sealed.

const saved = { key: process.env.ENCRYPTION_KEY, previous: process.env.ENCRYPTION_KEYS_PREVIOUS };
const hexKey = () => randomBytes(32).toString("hex");

function useKeys(current: string, previous: string[] = []) {
  setRuntimeEnv("ENCRYPTION_KEY", current);
  setRuntimeEnv("ENCRYPTION_KEYS_PREVIOUS", previous.join(","));
}

afterEach(() => {
  setRuntimeEnv("ENCRYPTION_KEY", saved.key ?? "");
  setRuntimeEnv("ENCRYPTION_KEYS_PREVIOUS", saved.previous ?? "");
});

describe("seal and unseal", () => {
  it("round-trips, never shows the plaintext, and differs each time (random nonce)", () => {
    useKeys(hexKey());
    const secret = `whsec_${randomBytes(32).toString("base64url")}`;
    const first = seal(secret, "webhook_endpoint.secret:a");
    const second = seal(secret, "webhook_endpoint.secret:a");
    expect(first.value).not.toContain(secret);
    expect(first.value).not.toBe(second.value);
    expect(first.keyId).toBe(currentKey().id);
    expect(unseal(first, "webhook_endpoint.secret:a")).toBe(secret);
  });

  it("refuses a value moved to another row, altered, or sealed under a key that is not configured", () => {
    useKeys(hexKey());
    const sealed = seal("whsec_x", "webhook_endpoint.secret:a");
    expect(() => unseal(sealed, "webhook_endpoint.secret:b")).toThrow(SecretUnavailable);
    const [iv, tag, body] = sealed.value.split(".");
    const flipped = Buffer.from(body!, "base64url");
    flipped[0] = flipped[0]! ^ 1;
    expect(() => unseal({ ...sealed, value: [iv, tag, flipped.toString("base64url")].join(".") }, "webhook_endpoint.secret:a")).toThrow(
      SecretUnavailable,
    );
    expect(() => unseal({ ...sealed, value: "not.sealed" }, "webhook_endpoint.secret:a")).toThrow(SecretUnavailable);
    useKeys(hexKey());
    expect(() => unseal(sealed, "webhook_endpoint.secret:a")).toThrow(/No encryption key with id/);
  });

  it("opens values of a previous key after rotation, and seals new ones under the current key", () => {
    const old = hexKey();
    useKeys(old);
    const sealed = seal("whsec_old", "ctx");
    const next = hexKey();
    useKeys(next, [old]);
    expect(unseal(sealed, "ctx")).toBe("whsec_old");
    expect(seal("whsec_new", "ctx").keyId).toBe(keyIdOf(Buffer.from(next, "hex")));
  });

  it("reads 64 hex digits or base64, and refuses anything that is not 32 bytes", () => {
    const bytes = randomBytes(32);
    useKeys(bytes.toString("base64"));
    expect(currentKey().id).toBe(keyIdOf(bytes));
    useKeys(bytes.toString("base64url"));
    expect(currentKey().id).toBe(keyIdOf(bytes));
    useKeys("too-short");
    expect(() => currentKey()).toThrow(/32 bytes/);
  });
});
