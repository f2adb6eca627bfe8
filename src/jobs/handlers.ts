import type { JobHandlers } from "./worker.js";

/** Every job kind the worker knows, by name. Each capability adds its own here. */
export function jobHandlers(): JobHandlers {
  return {};
}
