import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { createAccount } from "@/server/accounts/create-account";
import { expireOutputFiles } from "@/server/generations/expire-output-files";
import { getStorage } from "@/server/storage/get-storage";
import { inTransaction } from "@/server/base/transaction";

// Output files are deleted once the plan's output retention has passed, and not before.

async function succeededWithFile(accountId: string, completedAt: Date) {
  const generation = await db.generation.create({
    data: {
      accountId,
      region: "us",
      mediaKind: "image",
      modelIdentifier: "darkroom/lumen-image",
      status: "succeeded",
      estimatedCost: "0.002",
      providerOrder: ["local"],
      completedAt,
    },
  });
  const key = `outputs/${accountId}/${generation.id}/1-0.png`;
  await getStorage().put(key, new Uint8Array([137, 80, 78, 71]), "image/png");
  await db.generation.update({ where: { id: generation.id }, data: { outputKeys: [key] } });
  return { id: generation.id, key };
}

describe("expireOutputFiles", () => {
  it("deletes files past the plan's output retention and keeps younger ones", async () => {
    const { account_id: free } = await inTransaction((tx) =>
      createAccount(tx, { email: `expire-${randomUUID()}@test.local`, plan: "free" }),
    );
    const { account_id: pro } = await inTransaction((tx) => createAccount(tx, { email: `expire-${randomUUID()}@test.local`, plan: "pro" }));
    const now = new Date();
    const hour = 3600_000;
    const freeOld = await succeededWithFile(free, new Date(now.getTime() - 2 * hour)); // Free keeps 1 hour
    const freeYoung = await succeededWithFile(free, new Date(now.getTime() - 0.5 * hour));
    const proTwoHours = await succeededWithFile(pro, new Date(now.getTime() - 2 * hour)); // Pro keeps 1 day

    const result = await expireOutputFiles(now);
    expect(result.generations).toContain(freeOld.id);
    expect(result.generations).not.toContain(freeYoung.id);
    expect(result.generations).not.toContain(proTwoHours.id);

    expect(await getStorage().get(freeOld.key)).toBeNull();
    expect(await getStorage().get(freeYoung.key)).not.toBeNull();
    expect(await getStorage().get(proTwoHours.key)).not.toBeNull();
    expect((await db.generation.findUniqueOrThrow({ where: { id: freeOld.id } })).outputKeys).toEqual([]);

    // A second pass finds nothing more to do for it.
    expect((await expireOutputFiles(now)).generations).not.toContain(freeOld.id);
    for (const item of [freeYoung, proTwoHours]) await getStorage().delete(item.key);
  });
});
