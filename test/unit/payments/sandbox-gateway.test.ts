import { describe, expect, it } from "vitest";
import {
  SANDBOX_DECLINED_BANK_ACCOUNT,
  SANDBOX_DECLINED_CARD,
  SANDBOX_RETURNED_BANK_ACCOUNT,
  SandboxPaymentGateway,
} from "../../../src/payments/sandbox-gateway.js";

const gateway = new SandboxPaymentGateway();
const card = (number: string) =>
  gateway.tokenize({ type: "cc", number, expiryMonth: 12, expiryYear: 2030, verificationCode: "123" });
const bank = (accountNumber: string) => gateway.tokenize({ type: "ach", routingNumber: "021000021", accountNumber });

describe("the sandbox payment gateway", () => {
  it("accepts ordinary numbers and declines the test numbers, card or bank", async () => {
    expect((await gateway.charge(await card("4242424242424242"), 500, "k1")).status).toBe("accepted");
    expect(await gateway.charge(await card(SANDBOX_DECLINED_CARD), 500, "k2")).toMatchObject({
      status: "rejected",
      reason: expect.stringContaining("Declined"),
    });
    expect((await gateway.charge(await bank(SANDBOX_DECLINED_BANK_ACCOUNT), 500, "k3")).status).toBe("rejected");
  });

  it("charges once per key: the same key answers the same transaction", async () => {
    const token = await card("4242424242424242");
    const first = await gateway.charge(token, 500, "same-key");
    expect(await gateway.charge(token, 500, "same-key")).toEqual(first);
    expect((await gateway.charge(token, 500, "other-key")).reference).not.toBe(first.reference);
  });

  it("accepts the returning bank account's charge, then reports it returned; others settle", async () => {
    const returning = await bank(SANDBOX_RETURNED_BANK_ACCOUNT);
    const charge = await gateway.charge(returning, 500, "k4");
    expect(charge.status).toBe("accepted");
    expect(await gateway.settlement(returning, charge.reference)).toEqual({
      status: "returned",
      reason: expect.stringMatching(/^R01 /),
    });
    const ordinary = await bank("000123456789");
    expect((await gateway.settlement(ordinary, "sbx_txn_x")).status).toBe("settled");
  });

  it("keeps nothing of the number in the token", async () => {
    expect(await card("4242424242424242")).not.toContain("4242");
  });
});
