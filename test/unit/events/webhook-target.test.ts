import { describe, expect, it } from "vitest";
import { checkTarget, TargetRefused } from "../../../src/events/webhook-target.js";
import { OutboundPolicy } from "../../../src/net/outbound-guard.js";

describe("webhook targets", () => {
  it("accepts public HTTPS, refuses private or plain targets unless the operator allows them", async () => {
    const strict = new OutboundPolicy(false);
    await expect(checkTarget("https://8.8.8.8/hooks", strict)).resolves.toBeInstanceOf(URL);
    for (const url of [
      "http://8.8.8.8/hooks",
      "https://127.0.0.1/",
      "https://localhost/",
      "https://[::127.0.0.1]/",
      "https://2130706433/",
      "ftp://8.8.8.8/",
    ]) {
      await expect(checkTarget(url, strict)).rejects.toBeInstanceOf(TargetRefused);
    }
    const open = new OutboundPolicy(true);
    await expect(checkTarget("http://127.0.0.1:9/hooks", open)).resolves.toBeInstanceOf(URL);
    await expect(checkTarget("ftp://127.0.0.1/", open)).rejects.toBeInstanceOf(TargetRefused);
  });
});
