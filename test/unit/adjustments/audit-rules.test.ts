import { describe, expect, it } from "vitest";
import { findCarrier } from "../../../src/carriers/registry.js";
import {
  auditFinding,
  differs,
  heavierThanDeclared,
  measuredPackage,
  type PackageFacts,
} from "../../../src/domain/adjustments/audit-rules.js";

const LABELLED: PackageFacts = {
  weightOz: 24,
  lengthIn: 10,
  widthIn: 8,
  heightIn: 4,
  fromPostalCode: "90035",
  serviceCode: "usps_ground_advantage",
  packageType: "parcel",
};
const trackingNumbers = Array.from({ length: 10_000 }, (_, i) => `9400100000000${String(i).padStart(9, "0")}`);

describe("USPS audit findings", () => {
  it("audit about the configured share of parcels, the same parcels every time", () => {
    const found = trackingNumbers.filter((n) => auditFinding(n, LABELLED, 2));
    expect(found.length).toBeGreaterThan(150);
    expect(found.length).toBeLessThan(250);
    expect(trackingNumbers.filter((n) => auditFinding(n, LABELLED, 2))).toEqual(found);
    expect(trackingNumbers.filter((n) => auditFinding(n, LABELLED, 0))).toEqual([]);
    expect(trackingNumbers.every((n) => auditFinding(n, LABELLED, 100))).toBe(true);
  });

  it("find mostly heavier packages, some larger and a few lighter, never the label itself", () => {
    const findings = trackingNumbers.map((n) => auditFinding(n, LABELLED, 100) as PackageFacts);
    const heavier = findings.filter((f) => f.weightOz > LABELLED.weightOz).length;
    const larger = findings.filter((f) => f.lengthIn > LABELLED.lengthIn).length;
    const lighter = findings.filter((f) => f.weightOz < LABELLED.weightOz).length;
    expect(heavier + larger + lighter).toBe(findings.length);
    expect(heavier / findings.length).toBeCloseTo(0.7, 1);
    expect(larger / findings.length).toBeCloseTo(0.2, 1);
    expect(lighter / findings.length).toBeCloseTo(0.1, 1);
    expect(findings.every((f) => differs(LABELLED, f))).toBe(true);
    expect(findings.every((f) => f.serviceCode === LABELLED.serviceCode && f.fromPostalCode === "90035")).toBe(true);
  });

  it("weigh a heavier package past the next whole pound, by a pound at most", () => {
    for (const n of trackingNumbers.slice(0, 500)) {
      const { weightOz } = heavierThanDeclared(n, LABELLED);
      expect(weightOz).toBeGreaterThan(32);
      expect(weightOz).toBeLessThanOrEqual(48);
    }
    expect(heavierThanDeclared("x", { ...LABELLED, weightOz: 3 }).weightOz).toBeGreaterThan(16);
  });

  it("take what was measured over what the label said, and nothing else", () => {
    const measured = measuredPackage(LABELLED, { weightOz: 40, fromPostalCode: "10001", lengthIn: undefined });
    expect(measured).toEqual({ ...LABELLED, weightOz: 40, fromPostalCode: "10001" });
    expect(differs(LABELLED, measuredPackage(LABELLED, {}))).toBe(false);
  });
});

describe("repricing a measured package on the sandbox USPS tariffs", () => {
  const usps = findCarrier("usps");
  const price = async (facts: PackageFacts) => {
    const service = usps?.services.find((s) => s.serviceCode === facts.serviceCode);
    const [rate] = await (usps?.rate({
      from: {
        address1: "1 Main St",
        city: "Los Angeles",
        state: "CA",
        country: "US",
        postal_code: facts.fromPostalCode,
      },
      to: { address1: "220 S State St", city: "Salt Lake City", state: "UT", country: "US", postal_code: "84111" },
      parcels: [
        {
          weightOz: facts.weightOz,
          lengthIn: facts.lengthIn,
          widthIn: facts.widthIn,
          heightIn: facts.heightIn,
          packageType: facts.packageType,
        },
      ],
      residential: true,
      services: service ? [service] : [],
    }) ?? []);
    return rate?.quote?.totalCents;
  };

  it("charges more for every heavier finding and refunds a lighter one", async () => {
    const labelled = (await price(LABELLED)) as number;
    for (const n of trackingNumbers.slice(0, 20)) {
      expect(await price(heavierThanDeclared(n, LABELLED))).toBeGreaterThan(labelled);
    }
    expect(await price({ ...LABELLED, weightOz: 12 })).toBeLessThan(labelled);
  });

  it("charges dimensional weight for a package measured over a cubic foot", async () => {
    const labelled = (await price(LABELLED)) as number;
    expect(await price({ ...LABELLED, lengthIn: 20, widthIn: 16, heightIn: 12 })).toBeGreaterThan(labelled);
  });

  it("charges a farther zone for a parcel entered far from its label's ZIP", async () => {
    expect(await price({ ...LABELLED, fromPostalCode: "10001" })).toBeGreaterThan((await price(LABELLED)) as number);
  });
});
