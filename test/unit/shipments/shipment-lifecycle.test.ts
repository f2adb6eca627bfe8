import { describe, expect, it } from "vitest";
import {
  canMove,
  movesInto,
  SHIPMENT_STATUSES,
  type ShipmentStatus,
  statusAfterEvent,
} from "../../../src/domain/shipments/shipment-status.js";

/** The lifecycle as docs/shipments.md states it, one move a line. */
const LIFECYCLE = `
  purchasing → shipped failed
  shipped → manifested cancel_pending in_transit out_for_delivery available_for_pickup delivered returned exception
  manifested → cancel_pending in_transit out_for_delivery available_for_pickup delivered returned exception
  in_transit → out_for_delivery available_for_pickup delivered returned exception
  out_for_delivery → available_for_pickup delivered returned exception
  available_for_pickup → delivered returned exception
  exception → in_transit out_for_delivery available_for_pickup delivered returned
  cancel_pending → cancelled
`;

const allowed = new Set(
  LIFECYCLE.trim()
    .split("\n")
    .flatMap((line) => {
      const [from, tos] = line.split("→").map((part) => part.trim()) as [string, string];
      return tos.split(" ").map((to) => `${from} → ${to}`);
    }),
);

const pairs = SHIPMENT_STATUSES.flatMap((from) => SHIPMENT_STATUSES.map((to) => [from, to] as const));

describe("the shipment lifecycle table", () => {
  it("allows exactly the documented moves, walking every pair of statuses", () => {
    const accepted = pairs.filter(([from, to]) => canMove(from, to)).map(([from, to]) => `${from} → ${to}`);
    expect(accepted.sort()).toEqual([...allowed].sort());
    const guarded = pairs.filter(([from, to]) => movesInto(to).includes(from)).map(([from, to]) => `${from} → ${to}`);
    expect(guarded.sort()).toEqual(accepted);
  });

  it("allows every move tracking makes (a carrier may skip stages; an exception is left for any later stage)", () => {
    const reported: string[] = [...SHIPMENT_STATUSES, "pre_transit"];
    const refused = SHIPMENT_STATUSES.flatMap((from) =>
      reported
        .map((event) => statusAfterEvent(from, event) as ShipmentStatus)
        .filter((to) => to !== from && !canMove(from, to))
        .map((to) => `${from} → ${to}`),
    );
    expect([...new Set(refused)]).toEqual([]);
  });
});
