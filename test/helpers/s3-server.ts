import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { FileStoreSetting } from "../../src/config.js";
import { S3FileStore, s3Client } from "../../src/storage/files/s3-file-store.js";
import { exited, READINESS_LIMIT_MS } from "./processes.js";

/** The keys s3rver checks every request's signature against. */
const S3RVER_KEYS = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" };
const BIN = path.join(path.dirname(createRequire(import.meta.url).resolve("s3rver/package.json")), "bin/s3rver.js");

export interface TestS3Server {
  /** `http://127.0.0.1:<port>`, what AWS_ENDPOINT_URL_S3 is set to. */
  endpoint: string;
  bucket: string;
  /** Where s3rver keeps the objects (a temporary directory, removed by `close`). */
  directory: string;
  /** The environment a Porter process needs to keep its files in this server's bucket under `prefix`. */
  env(prefix?: string): Record<string, string>;
  /** FILE_STORE_URL's setting for an in-process store, as loadConfig would read `env(prefix)`. */
  setting(prefix?: string): Extract<FileStoreSetting, { kind: "s3" }>;
  /** A store keeping its files in this server's bucket under `prefix`, its endpoint and keys given directly. */
  store(prefix?: string, options?: { bucket?: string; timeoutMs?: number }): S3FileStore;
  /** Freezes the server (SIGSTOP): connections are accepted by the kernel but never answered, a hung store. */
  pause(): void;
  resume(): void;
  /** Stops the server (SIGKILL: an outage, not a shutdown); `start` brings it back on the same port and data. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver, from the npm registry) in its own process on a free
 * loopback port, with one bucket in a temporary directory. Resolves once it accepts requests.
 */
export async function startS3Server(bucket = "porter-files"): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "porter-s3-"));
  let child: ChildProcess | undefined;
  let port = 0;

  const launch = async () => {
    const started = spawn(
      process.execPath,
      [BIN, "--directory", directory, "--address", "127.0.0.1", "--port", String(port), "--silent"].concat([
        "--no-vhost-buckets",
        "--configure-bucket",
        bucket,
      ]),
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child = started;
    port = await listening(started);
  };
  await launch();

  const server: TestS3Server = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    directory,
    env: (prefix = "") => ({
      ...S3RVER_KEYS,
      AWS_REGION: "us-east-1",
      AWS_ENDPOINT_URL_S3: server.endpoint,
      FILE_STORE_URL: `s3://${bucket}/${prefix}`,
    }),
    setting: (prefix = "") => ({
      kind: "s3",
      location: { bucket, prefix: prefix ? `${prefix.replace(/\/+$/, "")}/` : "" },
      region: "us-east-1",
      forcePathStyle: true,
      timeoutMs: 5000,
    }),
    store: (prefix = "", options = {}) => {
      const setting = server.setting(prefix);
      setting.location.bucket = options.bucket ?? bucket;
      setting.timeoutMs = options.timeoutMs ?? setting.timeoutMs;
      const client = s3Client(setting, {
        endpoint: server.endpoint,
        credentials: { accessKeyId: S3RVER_KEYS.AWS_ACCESS_KEY_ID, secretAccessKey: S3RVER_KEYS.AWS_SECRET_ACCESS_KEY },
      });
      return new S3FileStore(client, setting.location);
    },
    pause: () => {
      child?.kill("SIGSTOP");
    },
    resume: () => {
      child?.kill("SIGCONT");
    },
    stop: async () => {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null || (running.signalCode !== null && running.signalCode !== "SIGSTOP"))
        return;
      running.kill("SIGKILL");
      await exited(running);
    },
    start: async () => {
      if (!child) await launch();
    },
    close: async () => {
      await server.stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
  return server;
}

/**
 * The in-process S3 client finds its endpoint and keys where every AWS tool does, in the
 * environment: set for this test file's process while the server runs.
 */
export function useS3ServerEnvironment(server: TestS3Server): () => void {
  const names = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_ENDPOINT_URL_S3"] as const;
  const saved = names.map((name) => process.env[name]);
  const env = server.env();
  for (const name of names) process.env[name] = env[name];
  return () => {
    names.forEach((name, index) => {
      if (saved[index] === undefined) delete process.env[name];
      else process.env[name] = saved[index];
    });
  };
}

/** The port s3rver prints once it listens ("S3rver listening on 127.0.0.1:<port>"). */
function listening(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`s3rver did not start within ${READINESS_LIMIT_MS} ms: ${output.slice(-2000)}`));
    }, READINESS_LIMIT_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on [\d.]+:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout?.off("data", read);
        // Drained from here on, so a chatty server never blocks on a full pipe.
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited (${code ?? signal}) before listening: ${output.slice(-2000)}`));
    });
  });
}
