import { spawnSync } from "node:child_process";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox } from "@/e2e/support/sign-in";

// The operator's pause as members see it: a banner on every dashboard page while it lasts, gone
// once the service resumes. The pause is lifted in `finally`, so no later spec runs paused.

function operator(...args: string[]): Record<string, unknown> {
  const result = spawnSync(process.execPath, ["--import", "tsx", "--conditions=react-server", "server/cli/main.ts", ...args], { encoding: "utf8", env: process.env });
  return JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>;
}

test("a paused service shows a banner on the dashboard until it resumes", async ({ page, saveScreenshot }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const { accountId } = await signInThroughMailbox(page);
  await expect(page.getByText("New generations are paused.")).toHaveCount(0);
  try {
    expect(operator("service:pause", "--reason", "planned database upgrade")).toEqual({ paused: true, reason: "planned database upgrade" });
    await page.goto(`/dashboard/${accountId}`);
    const banner = page.getByRole("status").filter({ hasText: "New generations are paused." });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText("Reason: planned database upgrade");
    await saveScreenshot("service-paused-1440");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/dashboard/${accountId}/webhooks`);
    await expect(banner).toBeVisible();
    await saveScreenshot("service-paused-390");
  } finally {
    expect(operator("service:resume")).toEqual({ paused: false, reason: null });
  }
  await page.goto(`/dashboard/${accountId}`);
  await expect(page.getByText("New generations are paused.")).toHaveCount(0);
});
