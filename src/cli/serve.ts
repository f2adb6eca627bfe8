import type { Command } from "commander";

async function serve(options: { worker: boolean }): Promise<void> {
  // Loaded here, not with the CLI: other commands and `porter --help` need none of the server.
  const [app_, { loadConfig }, { buildServer }, { demoAccountNotice, existingDatabaseNotice }] = await Promise.all([
    import("../app.js"),
    import("../config.js"),
    import("../http/server.js"),
    import("./startup-notice.js"),
  ]);
  const { createWebhookDispatcher, ensureDemoAccount, openServices, startWorker } = app_;
  const services = await openServices(loadConfig());
  const app = await buildServer(services);
  services.logger = app.log;
  const demo = await ensureDemoAccount(services);
  process.stdout.write(demo ? demoAccountNotice(demo) : await existingDatabaseNotice(services));
  const worker = options.worker ? await startWorker(services, app.log) : undefined;
  const webhooks = options.worker ? createWebhookDispatcher(services, app.log) : undefined;
  webhooks?.start();
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    await app.close();
    await Promise.all([worker?.stop(), webhooks?.stop()]);
    if (worker) app.log.info({ worker: worker.id }, "the job worker stopped");
    // The server's close flushed the log before the worker stopped: what it logged since is written now.
    app.flushLogs();
    await services.database.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
  const address = await app.listen({ port: services.config.port, host: services.config.host });
  const reach = reachOf(services.config.host);
  app.log.info({ address, reach, database: services.database.dialect, worker: Boolean(worker) }, "Porter is listening");
}

/** Who can connect, in words for the operator reading the start-up line. */
export function reachOf(host: string): string {
  if (host === "127.0.0.1" || host === "::1" || host === "localhost") {
    return "this machine only; set HOST=0.0.0.0 to accept connections from other machines";
  }
  if (host === "0.0.0.0" || host === "::") return "every network interface: reachable from other machines";
  return `the interface of ${host} only`;
}

export function addServeCommand(program: Command): void {
  program
    .command("serve")
    .description("start the HTTP API (and, unless --no-worker, the job worker in the same process)")
    .option("--no-worker", "do not run jobs in this process")
    .action((options: { worker: boolean }) => serve(options));
}
