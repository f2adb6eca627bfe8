import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  completeIdempotencyKey,
  releaseIdempotencyKey,
  renewIdempotencyLeases,
  reserveIdempotencyKey,
} from "../../src/domain/idempotency/idempotency.repository.js";
import { buildServer } from "../../src/http/server.js";
import type { FileStore } from "../../src/storage/files/file-store.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, SMALL_BOX } from "../helpers/shipments.js";

const LEASE_MS = 10_000;

/** A disk that never finishes a write: the process is stuck right after the carrier sold. */
function stuckFiles(files: FileStore): { files: FileStore; stuck: Promise<void> } {
  let signal = () => {};
  const stuck = new Promise<void>((resolve) => (signal = resolve));
  return {
    stuck,
    files: {
      put: () => {
        signal();
        return new Promise<never>(() => {});
      },
      putChunks: (name, chunks) => files.putChunks(name, chunks),
      get: (name) => files.get(name),
      open: (name) => files.open(name),
    },
  };
}

describe("a retry after the process holding its Idempotency-Key died", () => {
  let t: TestApp;
  let merchant: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp({ config: { idempotencyLeaseMs: LEASE_MS } });
    merchant = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, merchant.accountId);
  });
  afterAll(() => t.close());

  const shipBody = (reference: string) => ({
    shipment: {
      service_id: 1172,
      label_format: "pdf",
      account_reference: reference,
      from_location: LOS_ANGELES_WAREHOUSE,
      to_location: SALT_LAKE_RESIDENCE,
      parcels: [SMALL_BOX],
    },
  });
  const ship = (app: FastifyInstance, key: string, reference: string) =>
    app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship",
      headers: { ...merchant.auth, "idempotency-key": key },
      payload: shipBody(reference),
    });
  const shipmentsOf = (reference: string) =>
    t.services.db.selectFrom("shipments").selectAll().where("account_reference", "=", reference).execute();
  const labelsOf = async (shipmentId: number) =>
    t.services.db.selectFrom("labels").selectAll().where("shipment_id", "=", shipmentId).execute();

  it("takes the key over once the lease runs out, recovers the purchase left mid-way and buys nothing again", async () => {
    // Another server process on the same database, stuck mid-purchase and then gone.
    const disk = stuckFiles(t.services.files);
    const dying = await buildServer({ ...t.services, files: disk.files }, { logger: false });
    void ship(dying, "crash-1", "crash-1");
    await disk.stuck;
    const [pending] = await shipmentsOf("crash-1");
    expect(pending?.status).toBe("purchasing");
    const [sold] = await t.services.db
      .selectFrom("parcels")
      .select("tracking_number")
      .where("shipment_id", "=", pending?.id ?? 0)
      .execute();
    expect(sold?.tracking_number).toEqual(expect.any(String));
    await dying.close();

    t.clock.advance(LEASE_MS + 1);
    const retry = await ship(t.app, "crash-1", "crash-1");
    expect(retry.statusCode).toBe(409);
    expect(retry.json()).toMatchObject({ status: "error", error_code: "shipment.purchase_interrupted" });
    expect(retry.json().error_message).toContain(`shipment ${pending?.id}`);
    expect(retry.headers["idempotent-replayed"]).toBeUndefined();

    const after = await shipmentsOf("crash-1");
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: "failed" });
    expect(after[0]?.status_reason).toContain(`labels ${sold?.tracking_number} voided`);
    expect(await labelsOf(pending?.id ?? 0)).toEqual([]);
    // The price debited before the carrier was asked went back on the meter: nothing is charged.
    const charges = await t.services.db
      .selectFrom("meter_entries")
      .select(["kind", "amount_cents"])
      .where("shipment_id", "=", pending?.id ?? 0)
      .orderBy("id")
      .execute();
    expect(charges.map((c) => c.kind)).toEqual(["label_purchase", "refund"]);
    expect(charges.reduce((sum, c) => sum + c.amount_cents, 0)).toBe(0);

    // The answer is now the key's: a further retry hears it again, still without buying.
    const again = await ship(t.app, "crash-1", "crash-1");
    expect(again.statusCode).toBe(409);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(await shipmentsOf("crash-1")).toHaveLength(1);
  });

  it("answers the shipment the dead run bought when it died before storing its answer", async () => {
    const first = await ship(t.app, "bought-1", "bought-1");
    expect(first.statusCode).toBe(201);
    // As a process that died between buying and storing the answer leaves the key.
    await t.services.db
      .updateTable("idempotency_keys")
      .set({ state: "in_progress", response_status: null, response_body: null, holder: "gone" })
      .where("idempotency_key", "=", "bought-1")
      .execute();
    t.clock.advance(LEASE_MS + 1);

    const retry = await ship(t.app, "bought-1", "bought-1");
    expect(retry.statusCode).toBe(201);
    expect(retry.json().shipment.id).toBe(first.json().shipment.id);
    expect(retry.json().shipment.parcels[0].tracking_number).toBe(first.json().shipment.parcels[0].tracking_number);
    expect(await shipmentsOf("bought-1")).toHaveLength(1);
  });

  it("answers ship_multiple's shipments bought by a dead run instead of buying them again", async () => {
    const request = () =>
      t.app.inject({
        method: "POST",
        url: "/api/v2/shipments/ship_multiple",
        headers: { ...merchant.auth, "idempotency-key": "multi-1" },
        payload: { shipments: [shipBody("multi-1").shipment, shipBody("multi-1").shipment] },
      });
    const first = await request();
    expect(first.statusCode).toBe(201);
    await t.services.db
      .updateTable("idempotency_keys")
      .set({ state: "in_progress", response_status: null, response_body: null, holder: "gone" })
      .where("idempotency_key", "=", "multi-1")
      .execute();
    t.clock.advance(LEASE_MS + 1);

    const retry = await request();
    expect(retry.statusCode).toBe(201);
    const ids = (body: { shipments: Array<{ id: number }> }) => body.shipments.map((s) => s.id);
    expect(ids(retry.json())).toEqual(ids(first.json()));
    expect(await shipmentsOf("multi-1")).toHaveLength(2);
  });

  it("leaves a key with its holder while the holder renews the lease; a late finish of a taken-over run changes nothing", async () => {
    const scope = { accountId: merchant.accountId, mode: "test" as const, userId: merchant.userId };
    const reserve = (holder: string, hash = "fingerprint") =>
      reserveIdempotencyKey(t.services.db, scope, "lease-1", hash, {
        now: t.clock.now(),
        ttlMs: 24 * 60 * 60 * 1000,
        holder,
        leaseMs: LEASE_MS,
        staleBefore: new Date(t.clock.now().getTime() - 10 * 60 * 1000),
      });
    const later = new Date(t.clock.now().getTime() + 24 * 60 * 60 * 1000);
    const first = await reserve("process-a");
    if (first.outcome !== "reserved") throw new Error(`expected a reservation, got ${first.outcome}`);

    t.clock.advance(LEASE_MS - 1);
    await renewIdempotencyLeases(
      t.services.db,
      "process-a",
      [first.hold.attempt],
      new Date(t.clock.now().getTime() + LEASE_MS),
    );
    t.clock.advance(2);
    expect((await reserve("process-b")).outcome).toBe("in_progress");
    expect((await reserve("process-b", "another request")).outcome).toBe("key_reused");

    t.clock.advance(LEASE_MS);
    const taken = await reserve("process-b");
    if (taken.outcome !== "reserved") throw new Error(`expected a takeover, got ${taken.outcome}`);
    expect(taken.hold.requestId).toBe(first.hold.requestId);
    expect(taken.hold.attempt).not.toBe(first.hold.attempt);

    // The first run wakes up and finishes: neither its answer nor its release counts any more.
    await completeIdempotencyKey(
      t.services.db,
      scope,
      "lease-1",
      first.hold.attempt,
      { status: 201, body: "late" },
      later,
    );
    await releaseIdempotencyKey(t.services.db, scope, "lease-1", first.hold.attempt);
    expect((await reserve("process-c")).outcome).toBe("in_progress");
    await completeIdempotencyKey(
      t.services.db,
      scope,
      "lease-1",
      taken.hold.attempt,
      { status: 201, body: "{}" },
      later,
    );
    expect(await reserve("process-c")).toEqual({ outcome: "replay", response: { status: 201, body: "{}" } });
  });
  it("renews only the runs a holder has in hand: a run that ended without recording so is taken over when its lease ends", async () => {
    const scope = { accountId: merchant.accountId, mode: "test" as const, userId: merchant.userId };
    const reserve = (holder: string) =>
      reserveIdempotencyKey(t.services.db, scope, "lease-2", "fingerprint", {
        now: t.clock.now(),
        ttlMs: 24 * 60 * 60 * 1000,
        holder,
        leaseMs: LEASE_MS,
        staleBefore: new Date(t.clock.now().getTime() - 10 * 60 * 1000),
      });
    const first = await reserve("process-a");
    if (first.outcome !== "reserved") throw new Error(`expected a reservation, got ${first.outcome}`);
    // Process A's answer could not be stored (its database was down): the run is no longer in hand.
    t.clock.advance(LEASE_MS - 1);
    await renewIdempotencyLeases(t.services.db, "process-a", [], new Date(t.clock.now().getTime() + LEASE_MS));
    t.clock.advance(2);
    const taken = await reserve("process-b");
    expect(taken.outcome).toBe("reserved");
  });
});
