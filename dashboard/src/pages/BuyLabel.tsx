import { Stack } from "@mantine/core";
import { LabelForm } from "../LabelForm";
import { PageTitle } from "../PageTitle";
import { go } from "../router";

/** Buying a label: addresses, parcels, format and customs, rated first; the chosen rate is bought. */
export function BuyLabel() {
  return (
    <Stack>
      <PageTitle>Buy a label</PageTitle>
      <LabelForm buyText="Buy label" onBought={async (shipment) => go(`/shipments/${shipment.id}`)} />
    </Stack>
  );
}
