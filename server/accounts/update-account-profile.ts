import "server-only";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { invalidRequest, type FieldErrors } from "../base/error-table";
import { MAX_ACCOUNT_NAME_LENGTH } from "./create-account";
import { lockAccountRow } from "./lock-account-row";

// The account's name and picture, exactly what GET /v1/user/account returns as `account_name`
// and `account_picture_url`. Owners change them (the procedure checks the role); one transaction
// with its `account.updated` event, which names only the fields that changed.

export const MAX_PICTURE_URL_LENGTH = 2048;

export type AccountProfileChange = { accountId: string; actor: string; name?: string; pictureUrl?: string };

function checkedName(name: string, errors: FieldErrors): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || [...trimmed].length > MAX_ACCOUNT_NAME_LENGTH)
    errors.push({ field: "name", message: `must be 1 to ${MAX_ACCOUNT_NAME_LENGTH} characters` });
  return trimmed;
}

/** An absolute https URL of at most 2048 characters, or "" (null: no picture). */
function checkedPictureUrl(value: string, errors: FieldErrors): string | null {
  const trimmed = value.trim();
  if (trimmed === "") return null;
  if (trimmed.length > MAX_PICTURE_URL_LENGTH) {
    errors.push({ field: "pictureUrl", message: `must be at most ${MAX_PICTURE_URL_LENGTH} characters` });
    return null;
  }
  let url: URL | null = null;
  try {
    url = new URL(trimmed);
  } catch {
    url = null;
  }
  if (!url || url.protocol !== "https:" || url.hostname === "" || url.username !== "" || url.password !== "") {
    errors.push({ field: "pictureUrl", message: "must be an absolute https:// URL" });
    return null;
  }
  return trimmed;
}

export async function updateAccountProfile(tx: Tx, input: AccountProfileChange) {
  const errors: FieldErrors = [];
  const name = input.name === undefined ? undefined : checkedName(input.name, errors);
  const pictureUrl = input.pictureUrl === undefined ? undefined : checkedPictureUrl(input.pictureUrl, errors);
  if (errors.length)
    throw invalidRequest(
      errors.map((error) => `${error.field === "name" ? "The account name" : "The picture URL"} ${error.message}.`).join(" "),
      errors,
    );

  const current = await lockAccountRow(tx, input.accountId);
  const changes: { name?: string; pictureUrl?: string | null } = {};
  if (name !== undefined && name !== current.name) changes.name = name;
  if (pictureUrl !== undefined && pictureUrl !== current.pictureUrl) changes.pictureUrl = pictureUrl;

  if (Object.keys(changes).length > 0) {
    await tx.account.update({ where: { id: current.id }, data: changes });
    const said: string[] = [];
    if (changes.name !== undefined) said.push(`name changed from "${current.name}" to "${changes.name}"`);
    if (changes.pictureUrl !== undefined) said.push(changes.pictureUrl === null ? "picture removed" : "picture changed");
    await recordActivity(tx, {
      accountId: current.id,
      actor: input.actor,
      category: "account",
      action: "account.updated",
      description: `Account ${said.join(", ")}`,
      metadata: {
        changed: Object.keys(changes).map((field) => (field === "pictureUrl" ? "picture_url" : "name")),
        ...(changes.name !== undefined ? { previous_name: current.name, name: changes.name } : {}),
        ...(changes.pictureUrl !== undefined ? { picture_url: changes.pictureUrl } : {}),
      },
    });
  }
  return {
    accountId: current.id,
    name: changes.name ?? current.name,
    pictureUrl: changes.pictureUrl !== undefined ? changes.pictureUrl : current.pictureUrl,
    changed: Object.keys(changes).length > 0,
  };
}
