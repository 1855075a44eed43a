// The Python servers the browser tests run against: started with the project's Python,
// ready once they print `PORT <n>`, stopped with SIGTERM (SIGKILL if they linger).
import { spawn, type ChildProcess } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const webRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export interface PythonServer {
  port: number;
  url: string;
  /** Everything it printed up to its `PORT` line. */
  out: string;
  stop: () => Promise<void>;
}

/** Runs `e2e/<script>` with `args`; `graceMs` is how long a stop waits before SIGKILL. */
export async function startPythonServer(
  script: string,
  args: string[],
  { name, timeoutMs, graceMs }: { name: string; timeoutMs: number; graceMs: number },
): Promise<PythonServer> {
  const python = process.env.PAGECHAT_PYTHON ?? resolve(webRoot, "../.venv/bin/python");
  const server: ChildProcess = spawn(python, [resolve(webRoot, "e2e", script), ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  const port = await new Promise<number>((done, fail) => {
    const timer = setTimeout(() => {
      fail(new Error(`${name} did not start: ${out}`));
    }, timeoutMs);
    server.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /PORT (\d+)/.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        done(Number(match[1]));
      }
    });
    server.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`${name} exited with ${String(code)}: ${out}`));
    });
  });
  return {
    port,
    url: `http://127.0.0.1:${String(port)}`,
    out,
    stop: async () => {
      const exited = new Promise<void>((done) => server.once("exit", () => { done(); }));
      server.kill("SIGTERM");
      await Promise.race([exited, new Promise((done) => setTimeout(done, graceMs))]);
      if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
    },
  };
}
