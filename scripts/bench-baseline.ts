import Fastify from "fastify";

// The yardstick: a bare Fastify server answering a constant JSON body, in its own process.
const app = Fastify({ logger: false });
app.get("/ping", async () => ({ status: "pong" }));
const port = Number(process.argv[2] ?? 0);
await app.listen({ port, host: "127.0.0.1" });
process.stdout.write("ready\n");
