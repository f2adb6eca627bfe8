import { describe, expect, it } from "vitest";
import { planDocuments } from "../../../src/domain/batches/document-plan.js";

describe("planDocuments", () => {
  const domestic = (shipmentId: number, trackingNumbers = 1) => ({
    shipmentId,
    scope: "domestic" as const,
    trackingNumbers,
  });
  const abroad = (shipmentId: number) => ({ shipmentId, scope: "international" as const, trackingNumbers: 1 });

  it("keeps domestic and international shipments on separate documents, domestic first", () => {
    expect(planDocuments([abroad(1), domestic(2), abroad(3), domestic(4)], 100)).toEqual([
      { scope: "domestic", shipmentIds: [2, 4] },
      { scope: "international", shipmentIds: [1, 3] },
    ]);
  });

  it("splits at the carrier's document limit without parting a shipment's parcels", () => {
    expect(planDocuments([domestic(1, 2), domestic(2, 2), domestic(3, 1), domestic(4, 3)], 4)).toEqual([
      { scope: "domestic", shipmentIds: [1, 2] },
      { scope: "domestic", shipmentIds: [3, 4] },
    ]);
  });

  it("makes 115 shipments, 41 domestic and 74 international, into two documents (the DHL example)", () => {
    const shipments = [
      ...Array.from({ length: 41 }, (_, i) => domestic(i + 1)),
      ...Array.from({ length: 74 }, (_, i) => abroad(100 + i)),
    ];
    expect(planDocuments(shipments, 10_000).map((d) => d.shipmentIds.length)).toEqual([41, 74]);
  });
});
