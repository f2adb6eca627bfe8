import fs from "node:fs";
import Fastify from "fastify";

/**
 * The yardstick, in its own process: a bare Fastify server answering a constant JSON body on
 * `GET /ping`, and on `POST /rates` (JSON body parsed) the rate answer in the file named by the
 * second argument, serialised anew for every request as Porter's would be.
 */
const app = Fastify({ logger: false });
app.get("/ping", async () => ({ status: "pong" }));
const answerFile = process.argv[3];
if (answerFile) {
  const answer = JSON.parse(fs.readFileSync(answerFile, "utf8")) as object;
  app.post("/rates", async () => answer);
}
const port = Number(process.argv[2] ?? 0);
await app.listen({ port, host: "127.0.0.1" });
process.stdout.write("ready\n");
