import { describe, expect, it } from "vitest";
import { mailboxOf, signInAddress } from "@/server/auth/sign-in-address";

describe("signInAddress", () => {
  it.each([
    ["bob@b.test", "bob@b.test"],
    ["  Bob.Smith+News@Mail.B.Test ", "bob.smith+news@mail.b.test"],
    ["o'brien@xn--bcher-kva.example", "o'brien@xn--bcher-kva.example"],
  ])("%s is one mailbox: %s", (input, address) => {
    expect(signInAddress(input)).toBe(address);
  });

  it.each([
    "victim@v.test,",
    "victim@v.test.",
    '"mallory@evil.test"@b.test',
    "bob@b.test,mallory@evil.test",
    "bob@b.test;mallory@evil.test",
    "bob@b.test mallory@evil.test",
    "bob@evil.test@b.test",
    "Mallory <mallory@evil.test>",
    "victim@v.test (comment)",
    "victim@v.test\r\nbcc: mallory@evil.test",
    "victim\uff20v.test",
    "vict\u0131m@v.test",
    "victim@localhost",
    "victim@[127.0.0.1]",
    "victim@127.0.0.1",
    "victim@v..test",
    "victim@-v.test",
    ".victim@v.test",
    "vic..tim@v.test",
    "@v.test",
    "victim@",
    "",
    `${"a".repeat(65)}@v.test`,
    `a@${"b".repeat(250)}.test`,
  ])("refuses %j", (input) => {
    expect(signInAddress(input)).toBeNull();
  });

  it("refuses what is not a string", () => {
    expect(signInAddress(undefined)).toBeNull();
    expect(signInAddress(["bob@b.test"])).toBeNull();
  });
});

describe("mailboxOf", () => {
  it("folds case, a +tag and trailing dots or separators into one mailbox", () => {
    for (const input of [
      "victim@v.test",
      "VICTIM@V.TEST",
      "victim+1@v.test",
      "Victim+news@v.test.",
      "victim@v.test,",
      " victim@v.test; ",
    ]) {
      expect(mailboxOf(input)).toBe("victim@v.test");
    }
    expect(mailboxOf("other@v.test")).not.toBe("victim@v.test");
    expect(mailboxOf("+tag@v.test")).toBe("+tag@v.test");
  });
});
