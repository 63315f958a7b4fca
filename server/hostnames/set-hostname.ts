import "server-only";
import { randomUUID } from "node:crypto";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { Prisma } from "../base/generated/prisma/client";
import { afterCommit } from "../base/transaction";
import { toCustomHostnameRecord, type CustomHostnameRecord } from "./hostname-record";
import { requireEnterprise } from "./require-enterprise";
import { sendVerificationRequested } from "./send-hostname-events";
import { hostnameTarget } from "./service-domains";
import { validateHostname } from "./validate-hostname";

// Attaches the account's one custom hostname, `pending`, and asks for its verification once the
// row is committed. Setting the hostname it already has changes nothing; another one must wait
// until the first is removed. A hostname belongs to one account across all accounts.

const TAKEN = "This hostname is already attached to another account.";

export async function setCustomHostname(
  tx: Tx,
  input: { accountId: string; hostname: string; actor: ActivityActor },
): Promise<CustomHostnameRecord> {
  const hostname = validateHostname(input.hostname);
  await requireEnterprise(tx, input.accountId);

  const current = await tx.customHostname.findUnique({ where: { accountId: input.accountId } });
  if (current?.hostname === hostname && current.status !== "removing") return toCustomHostnameRecord(current);
  if (current?.status === "removing")
    throw invalidRequest(`${current.hostname} is still being removed; set the new hostname in a moment.`, [
      { field: "hostname", message: "previous hostname still being removed" },
    ]);
  if (current)
    throw invalidRequest(`This account already has the custom hostname ${current.hostname}; remove it first.`, [
      { field: "hostname", message: "one custom hostname per account" },
    ]);

  const owner = await tx.customHostname.findUnique({ where: { hostname }, select: { accountId: true } });
  if (owner) throw invalidRequest(TAKEN, [{ field: "hostname", message: "attached to another account" }]);

  const verificationToken = randomUUID();
  let row;
  try {
    row = await tx.customHostname.create({
      data: { accountId: input.accountId, hostname, target: hostnameTarget(), verificationToken, status: "pending" },
    });
  } catch (error) {
    // Two requests raced past the checks above: the unique indexes decide.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      throw invalidRequest(TAKEN, [{ field: "hostname", message: "already attached" }]);
    throw error;
  }
  await recordActivity(tx, {
    accountId: input.accountId,
    actor: input.actor,
    category: "domain",
    action: "domain.added",
    description: `Custom hostname ${hostname} added; waiting for its CNAME to point at ${row.target}`,
    metadata: { hostname, target: row.target },
  });
  afterCommit(tx, "hostname verification requested", () => sendVerificationRequested(row.id, verificationToken));
  return toCustomHostnameRecord(row);
}
