import "server-only";
import type { Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";

// The signed-in user's display name (teammates see it on the Team page). Empty clears it.

export const MAX_USER_NAME_LENGTH = 100;

export async function updateUserName(tx: Tx, input: { userId: string; name: string }): Promise<{ name: string | null }> {
  const trimmed = input.name.trim();
  if ([...trimmed].length > MAX_USER_NAME_LENGTH) {
    throw invalidRequest(`Your name must be at most ${MAX_USER_NAME_LENGTH} characters.`, [
      { field: "name", message: `must be at most ${MAX_USER_NAME_LENGTH} characters` },
    ]);
  }
  const user = await tx.user.update({
    where: { id: input.userId },
    data: { name: trimmed === "" ? null : trimmed },
    select: { name: true },
  });
  return { name: user.name };
}
