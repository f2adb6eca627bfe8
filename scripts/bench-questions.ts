/**
 * Distinct rate questions for `POST /rates`: random US ZIP pairs (with their cities and states),
 * box sizes and weights, seeded so every run asks the same ones.
 */
import zipcodes from "zipcodes";
import { seededRandom } from "../src/carriers/sandbox/seeded-random.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE } from "../test/helpers/shipments.js";

/** The 50 states and DC: territories and military ZIPs rate by other rules. */
const STATES = new Set(
  "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split(
    " ",
  ),
);

/** `count` JSON bodies of `POST /rates`, no two alike. */
export function distinctRateQuestions(count: number, seed = "porter-bench"): string[] {
  const zips = Object.values(zipcodes.codes).filter(
    (record): record is zipcodes.ZipCodeRecord =>
      record !== undefined && record.country === "US" && record.latitude !== 0 && STATES.has(record.state),
  );
  const { next, between } = seededRandom(seed);
  const place = () => zips[Math.floor(next() * zips.length)]!;
  const asked = new Set<string>();
  while (asked.size < count) {
    const [to, from] = [place(), place()];
    asked.add(
      JSON.stringify({
        shipment: {
          to_location: { ...SALT_LAKE_RESIDENCE, city: to.city, state: to.state, postal_code: to.zip },
          from_location: { ...LOS_ANGELES_WAREHOUSE, city: from.city, state: from.state, postal_code: from.zip },
          parcels: [{ length: between(4, 24), width: between(4, 18), height: between(2, 12), weight: between(1, 800) }],
        },
      }),
    );
  }
  return [...asked];
}

/** Hands out the questions in turn, over and over. */
export class QuestionCycle {
  #next = 0;

  constructor(readonly questions: readonly string[]) {}

  next(): string {
    const question = this.questions[this.#next % this.questions.length]!;
    this.#next += 1;
    return question;
  }
}
