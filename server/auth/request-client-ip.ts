import "server-only";
import { headers } from "next/headers";
import { clientIpOf } from "../base/net/client-ip";

/** The client address of the request being served (Auth.js callbacks run inside it), by the rules of client-ip.ts. */
export async function requestClientIp(): Promise<string> {
  try {
    return clientIpOf(new Request("http://auth.local", { headers: await headers() }));
  } catch {
    // Called outside a request (a script, a test): no client to name.
    return "0.0.0.0";
  }
}
