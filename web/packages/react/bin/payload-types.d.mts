// Types of payload-types.mjs, for its tests (the command itself is plain JavaScript).

export type JsonSchema = Record<string, unknown>;

export interface PayloadApp {
  module: string;
  payloads: Record<string, string>;
  out: string;
  pythonpath: string[];
  name?: string;
  cwd: string;
}

export function findPython(options?: {
  flag?: string | undefined;
  env?: Record<string, string | undefined>;
  cwd?: string;
  exists?: (path: string) => boolean;
}): string;

export function readConfig(file: string): PayloadApp[];

export function appFrom(app: Partial<PayloadApp>, base: string): PayloadApp;

export function dumpSchemas(app: PayloadApp, python: string): Record<string, JsonSchema>;

export function payloadTypesFile(
  app: Pick<PayloadApp, "module" | "payloads" | "name">,
  schemas: Record<string, JsonSchema>,
): string;
