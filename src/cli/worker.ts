import type { Command } from "commander";

async function runWorker(): Promise<void> {
  const [{ createWebhookDispatcher, openServices, startWorker }, { loadConfig }, { pino }] = await Promise.all([
    import("../app.js"),
    import("../config.js"),
    import("pino"),
  ]);
  const services = await openServices(loadConfig());
  // Without it, failed jobs and the files a job skipped would go unreported.
  const logger = pino({ level: services.config.logLevel });
  services.logger = logger;
  const worker = await startWorker(services, logger);
  const webhooks = createWebhookDispatcher(services, logger);
  webhooks.start();
  const shutdown = async () => {
    await Promise.all([worker.stop(), webhooks.stop()]);
    await services.database.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown());
  process.once("SIGINT", () => void shutdown());
  process.stdout.write(`Worker ${worker.id} is running against ${services.database.dialect}\n`);
}

export function addWorkerCommand(program: Command): void {
  program
    .command("worker")
    .description("run the job worker only")
    .action(() => runWorker());
}
