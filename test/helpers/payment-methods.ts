/** Payment methods the sandbox gateway accepts: the OpenAPI examples show the same. */
export { BANK, BILLING, VISA } from "../../src/http/openapi/fixtures.js";
