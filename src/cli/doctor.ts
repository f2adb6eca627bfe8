import type { Command } from "commander";
import type { MoneyIncidentRow } from "../domain/incidents/money-incidents.js";
import { type Output, print, withServices } from "./output.js";

/** One incident as a line an operator can act on: when, what, whose, which labels, how much, why. */
function incidentLine(incident: MoneyIncidentRow): string {
  const fields = [
    `#${incident.id}`,
    incident.created_at,
    incident.kind,
    incident.account_id === null ? null : `account ${incident.account_id} (${incident.mode})`,
    incident.shipment_id === null ? null : `shipment ${incident.shipment_id}`,
    incident.carrier_code,
    incident.tracking_numbers === "[]"
      ? null
      : `labels ${(JSON.parse(incident.tracking_numbers) as string[]).join(", ")}`,
    incident.amount_cents === null ? null : `$${(Number(incident.amount_cents) / 100).toFixed(2)}`,
    incident.job_kind === null
      ? null
      : `job ${incident.job_kind}${incident.job_id === null ? "" : ` ${incident.job_id}`}`,
    incident.failure,
  ];
  return fields.filter((field) => field !== null).join("\t");
}

export function addDoctorCommand(program: Command, out: () => Output): void {
  program
    .command("doctor")
    .description("list the open money incidents: labels not voided, refunds not written, jobs that failed for good")
    .action(() =>
      withServices(async (services) => {
        const { openMoneyIncidents } = await import("../domain/incidents/money-incidents.js");
        const incidents = await openMoneyIncidents(services.db);
        print(out(), incidents, () =>
          incidents.length === 0
            ? "No open money incidents."
            : [`${incidents.length} open money incident(s):`, ...incidents.map(incidentLine)].join("\n"),
        );
      }),
    );
}
