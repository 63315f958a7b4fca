import "server-only";
import { inngest } from "../base/events/client";
import { hostnameRemovalRequested, hostnameVerificationRequested } from "../base/events/definitions";

/** One event per verification token: sending it again (the sweep does) never starts a second run. */
export async function sendVerificationRequested(hostnameId: string, verificationToken: string) {
  await inngest.send(
    hostnameVerificationRequested.create({ hostnameId, verificationToken }, { id: `hostname-verification:${verificationToken}` }),
  );
}

export async function sendRemovalRequested(hostnameId: string, actor: string) {
  await inngest.send(hostnameRemovalRequested.create({ hostnameId, actor }, { id: `hostname-removal:${hostnameId}` }));
}
