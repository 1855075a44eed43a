// Starts the scripted pagechat server once for all browser tests; its URL reaches the
// tests as E2E_BASE_URL. The returned function stops it.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const webRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export default async function globalSetup(): Promise<() => Promise<void>> {
  const python = process.env.PAGECHAT_PYTHON ?? resolve(webRoot, "../.venv/bin/python");
  const dist = resolve(webRoot, "dist");
  if (!existsSync(resolve(dist, "index.html"))) throw new Error("web/dist is missing: run `npm run build` first");
  const server = spawn(python, [resolve(webRoot, "e2e/scripted_server.py"), "--static", dist], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolvePort, reject) => {
    let out = "";
    const timer = setTimeout(() => {
      reject(new Error(`the e2e server did not start: ${out}`));
    }, 30_000);
    server.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /PORT (\d+)/.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolvePort(Number(match[1]));
      }
    });
    server.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the e2e server exited with ${String(code)}: ${out}`));
    });
  });
  process.env.E2E_BASE_URL = `http://127.0.0.1:${String(port)}`;
  return async () => {
    server.kill("SIGTERM");
    await new Promise((done) => setTimeout(done, 200));
    if (server.exitCode === null) server.kill("SIGKILL");
  };
}
