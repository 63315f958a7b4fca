import "server-only";
import { recordActivity } from "../../activity/record-activity";
import type { OneAccount } from "../../base/account-scope";
import type { Db, Tx } from "../../base/db";
import { env } from "../../base/env";
import { ApiError, invalidRequest } from "../../base/error-table";
import { seal, unseal } from "../../base/secrets/seal";
import type { S3Storage } from "../s3";
import { destinationStorage } from "./destination-storage";
import { API_FIELDS, parseDestination, type DestinationFields, type DestinationRequest, type ParsedDestination } from "./parse-destination";
import { testDestination, type DestinationTest } from "./test-destination";

// An account's storage destination: saved only after its test write passed, the secret sealed
// under ENCRYPTION_KEY and bound to the account (a database dump alone cannot use it), never shown
// again: the view shows the access key id's last four characters. One per account.

const contextOf = (accountId: string) => `storage_destination.secret:${accountId}`;

export type DestinationView = {
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  access_key_id: string;
  path_style: boolean;
  links: { kind: "presigned"; ttl_seconds: number } | { kind: "public"; base_url: string };
  fallback: "fail" | "darkroom";
  verified_at: string;
  updated_at: string;
};

type Row = NonNullable<Awaited<ReturnType<Db["storageDestination"]["findUnique"]>>>;

function viewOf(row: Row): DestinationView {
  return {
    endpoint: row.endpoint,
    region: row.region,
    bucket: row.bucket,
    prefix: row.prefix,
    access_key_id: `…${row.accessKeyId.slice(-4)}`,
    path_style: row.pathStyle,
    links: row.publicBaseUrl
      ? { kind: "public", base_url: row.publicBaseUrl }
      : { kind: "presigned", ttl_seconds: row.linkTtlSeconds ?? 3600 },
    fallback: row.fallback,
    verified_at: row.verifiedAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const connectionOf = (
  destination: Pick<ParsedDestination, "endpoint" | "region" | "bucket" | "pathStyle" | "accessKeyId" | "secretAccessKey">,
) => ({
  endpoint: destination.endpoint,
  region: destination.region,
  bucket: destination.bucket,
  pathStyle: destination.pathStyle,
  accessKeyId: destination.accessKeyId,
  secretAccessKey: destination.secretAccessKey,
});

/** Parses and tests a destination (no database): ERR1001 naming the field, or what the test write found. */
export async function prepareDestination(request: DestinationRequest, fields: DestinationFields = API_FIELDS): Promise<ParsedDestination> {
  const parsed = parseDestination(request, fields, { allowLoopback: env().STORAGE_ALLOW_LOOPBACK });
  const test = await testDestination(connectionOf(parsed), parsed.prefix, fields);
  if (!test.ok)
    throw invalidRequest(`The test write to the bucket failed at ${test.step}: ${test.message}`, [
      { field: test.field, message: test.reason },
    ]);
  return parsed;
}

export async function saveDestination(tx: Tx, scope: OneAccount, destination: ParsedDestination, actor: string): Promise<DestinationView> {
  const { accountId } = scope;
  const sealed = seal(destination.secretAccessKey, contextOf(accountId));
  const values = {
    endpoint: destination.endpoint,
    region: destination.region,
    bucket: destination.bucket,
    prefix: destination.prefix,
    accessKeyId: destination.accessKeyId,
    secretAccessKey: sealed.value,
    secretKeyId: sealed.keyId,
    pathStyle: destination.pathStyle,
    linkTtlSeconds: destination.linkTtlSeconds,
    publicBaseUrl: destination.publicBaseUrl,
    fallback: destination.fallback,
    verifiedAt: new Date(),
  };
  const row = await tx.storageDestination.upsert({ where: { accountId }, create: { accountId, ...values }, update: values });
  await recordActivity(tx, {
    accountId,
    actor,
    category: "account",
    action: "storage.destination_set",
    description: `Outputs now go to the bucket ${destination.bucket} at ${new URL(destination.endpoint).host}${destination.prefix ? ` under ${destination.prefix}/` : ""}`,
    metadata: { endpoint: destination.endpoint, bucket: destination.bucket, prefix: destination.prefix, fallback: destination.fallback },
  });
  return viewOf(row);
}

export async function showDestination(client: Db | Tx, scope: OneAccount): Promise<DestinationView | null> {
  const row = await client.storageDestination.findUnique({ where: { accountId: scope.accountId } });
  return row ? viewOf(row) : null;
}

export async function removeDestination(tx: Tx, scope: OneAccount, actor: string): Promise<{ removed: boolean }> {
  const removed = await tx.storageDestination.deleteMany({ where: { accountId: scope.accountId } });
  if (removed.count > 0)
    await recordActivity(tx, {
      accountId: scope.accountId,
      actor,
      category: "account",
      action: "storage.destination_removed",
      description: "Outputs go to Darkroom's storage again (files already in the bucket stay there)",
      metadata: {},
    });
  return { removed: removed.count > 0 };
}

/** The destination a generation's outputs go to, opened for writing; null: Darkroom's own storage. */
export type AccountDestination = { row: Row; storage: S3Storage };

export async function openDestination(client: Db | Tx, accountId: string): Promise<AccountDestination | null> {
  const row = await client.storageDestination.findUnique({ where: { accountId } });
  if (!row) return null;
  const secretAccessKey = unseal({ value: row.secretAccessKey, keyId: row.secretKeyId }, contextOf(accountId));
  return { row, storage: destinationStorage({ ...row, secretAccessKey }) };
}

/** `storage:test`: the saved destination's test write again. */
export async function retestDestination(client: Db | Tx, scope: OneAccount): Promise<DestinationTest> {
  const opened = await openDestination(client, scope.accountId);
  if (!opened) throw new ApiError("ERR1006", "This account has no storage destination.", { account_id: scope.accountId });
  const secretAccessKey = unseal({ value: opened.row.secretAccessKey, keyId: opened.row.secretKeyId }, contextOf(scope.accountId));
  const test = await testDestination({ ...opened.row, secretAccessKey }, opened.row.prefix, {
    endpoint: "endpoint",
    region: "region",
    bucket: "bucket",
    accessKeyId: "access_key_id",
  });
  if (test.ok) await client.storageDestination.updateMany({ where: { accountId: scope.accountId }, data: { verifiedAt: new Date() } });
  return test;
}
