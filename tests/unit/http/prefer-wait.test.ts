import { describe, expect, it } from "vitest";
import { ApiError } from "@/server/base/error-table";
import { MAX_WAIT_SECONDS, readPreferWait } from "@/server/edge/http/prefer-wait";

const read = (prefer?: string) => readPreferWait(new Headers(prefer === undefined ? {} : { prefer }));

describe("readPreferWait", () => {
  it("reads wait and wait=N, in any case, among other preferences", () => {
    expect(read()).toBeNull();
    expect(read("wait")).toBe(MAX_WAIT_SECONDS);
    expect(read("wait=5")).toBe(5);
    expect(read("WAIT=60")).toBe(60);
    expect(read(' wait = "7" ')).toBe(7);
    expect(read("respond-async, wait=10")).toBe(10);
    expect(read("wait=3; handling=lenient")).toBe(3);
  });

  it("ignores other preferences", () => {
    expect(read("respond-async")).toBeNull();
    expect(read("return=minimal, handling=strict")).toBeNull();
    expect(read("waiting=5")).toBeNull();
  });

  it.each(["wait=0", "wait=61", "wait=abc", "wait=1.5", "wait=-2", "wait=", "wait=1000"])(
    "refuses %s with ERR1001 naming the Prefer header",
    (prefer) => {
      let thrown: unknown;
      try {
        read(prefer);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      expect((thrown as ApiError).code).toBe("ERR1001");
      expect((thrown as ApiError).details).toEqual({ fields: [{ field: "Prefer", message: "wait must be 1 to 60 seconds" }] });
    },
  );
});
