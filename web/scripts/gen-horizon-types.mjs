#!/usr/bin/env node
// Generates src/horizon/generated/api.ts from Horizon's own definitions, so the web app's
// types never drift from the server:
//
//   * the REST API under /api/horizon: its schemas (the app's OpenAPI `components.schemas`
//     the routes use) and one entry per route (`HorizonRoutes`: path and query parameters,
//     request body, answer);
//   * the server actions' data (src/horizon/actions);
//   * the chat pages (src/horizon/pages): their names, tabs, payloads and actions.
//
//   npm run gen:horizon-types     write the file
//   npm run check:horizon-types   exit 1 when the committed file differs from a fresh one
//
// The definitions come from $HORIZON_SCHEMA (a JSON file, as the Python below prints) when
// set, else from `../.venv/bin/python` (or `python3` when there is no venv).

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { doc, schemaToTs } from "../packages/react/bin/schema-ts.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const webRoot = resolve(here, "..");
const outFile = resolve(webRoot, "src/horizon/generated/api.ts");
const PREFIX = "/api/horizon";

const DUMP = `
import json
from horizon.app import create_app
from horizon.actions import SAVE_ARTICLE_NOTE_SCHEMA, STAR_ARTICLE_SCHEMA
from horizon.pages import PAGE_NAMES
from pagechat.pages import get_page

app = create_app()
pages = {}
for name in PAGE_NAMES:
    page = get_page(name)
    pages[name] = {
        "tabs": [t.name for t in page.tabs],
        "payloads": [p.type for p in page.payloads],
        "client_actions": [a.action for a in page.all_client_actions()],
        "server_actions": [a.action for a in page.server_actions],
    }
print(json.dumps({
    "openapi": app.openapi(),
    "actions": {"star_article": STAR_ARTICLE_SCHEMA, "save_article_note": SAVE_ARTICLE_NOTE_SCHEMA},
    "pages": pages,
}))
`;

function loadDefinitions() {
  const fromEnv = process.env.HORIZON_SCHEMA;
  if (fromEnv) return JSON.parse(readFileSync(fromEnv, "utf8"));
  const venvPython = resolve(webRoot, "../.venv/bin/python");
  const python = existsSync(venvPython) ? venvPython : "python3";
  const out = execFileSync(python, ["-c", DUMP], {
    encoding: "utf8",
    maxBuffer: 32 * 1024 * 1024,
    cwd: resolve(webRoot, ".."),
    // Building the app must touch nothing: an in-memory database, a fixed signing key.
    env: {
      ...process.env,
      DATABASE_URL: "sqlite+aiosqlite://",
      PAGECHAT_SECRET: "type-generation-only-0123456789abcdef0123456789",
      PAGECHAT_PROVIDER: "offline",
    },
  });
  return JSON.parse(out);
}

const pascal = (name) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");

const REF = "#/components/schemas/";

/** Names of the component schemas `value` refers to, directly or through others. */
function collectRefs(value, schemas, found) {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, schemas, found);
  } else if (value && typeof value === "object") {
    if (typeof value.$ref === "string" && value.$ref.startsWith(REF)) {
      const name = value.$ref.slice(REF.length);
      if (!found.has(name)) {
        found.add(name);
        collectRefs(schemas[name], schemas, found);
      }
    }
    for (const v of Object.values(value)) collectRefs(v, schemas, found);
  }
  return found;
}

function jsonBody(content) {
  return content?.["application/json"]?.schema;
}

/** One `HorizonRoutes` entry per method and path under /api/horizon. */
function routes(openapi, ts) {
  const entries = [];
  for (const [path, item] of Object.entries(openapi.paths).sort(([a], [b]) => a.localeCompare(b))) {
    if (!path.startsWith(PREFIX)) continue;
    for (const [method, op] of Object.entries(item)) {
      const params = op.parameters ?? [];
      const group = (where) => {
        const ps = params.filter((p) => p.in === where);
        if (ps.length === 0) return null;
        const schema = {
          type: "object",
          properties: Object.fromEntries(ps.map((p) => [p.name, { ...p.schema, description: p.description }])),
          required: ps.filter((p) => p.required).map((p) => p.name),
        };
        return ts.typeOf(schema, "    ");
      };
      const ok = Object.entries(op.responses ?? {}).find(([code]) => code.startsWith("2"));
      const answer = ok ? jsonBody(ok[1].content) : undefined;
      const body = jsonBody(op.requestBody?.content);
      const lines = [];
      const summary = [op.summary, op.description].filter(Boolean).join(": ");
      lines.push(`${doc(summary, "  ")}  ${JSON.stringify(`${method.toUpperCase()} ${path}`)}: {`);
      const path_ = group("path");
      const query = group("query");
      if (path_) lines.push(`    path: ${path_};`);
      if (query) lines.push(`    query: ${query};`);
      if (body) lines.push(`    body: ${ts.typeOf(body, "    ")};`);
      lines.push(`    response: ${answer ? ts.typeOf(answer, "    ") : "null"};`);
      lines.push("  };");
      entries.push(lines.join("\n"));
    }
  }
  return `/** Every route under ${PREFIX}: \`"METHOD path"\` -> its parameters, body and answer. */\nexport interface HorizonRoutes {\n${entries.join("\n")}\n}\n`;
}

function generate(defs) {
  const { openapi } = defs;
  const schemas = openapi.components.schemas;
  // The schemas the routes' parameters, request bodies and successful answers use.
  const roots = [];
  const bodies = new Set();
  for (const [path, item] of Object.entries(openapi.paths)) {
    if (!path.startsWith(PREFIX)) continue;
    for (const op of Object.values(item)) {
      const body = jsonBody(op.requestBody?.content);
      if (body?.$ref) bodies.add(body.$ref.slice(REF.length));
      const answers = Object.entries(op.responses ?? {}).filter(([code]) => code.startsWith("2"));
      roots.push(op.parameters ?? [], body ?? {}, ...answers.map(([, r]) => jsonBody(r.content) ?? {}));
    }
  }
  const used = [...collectRefs(roots, schemas, new Set())].sort();
  // The server's answers hold every field (defaults included); a request body sent to it
  // may leave out those with a default. A schema used in both is typed as answered.
  const api = schemaToTs({ refPrefix: REF, allRequired: (name) => !bodies.has(name) });
  const plain = schemaToTs({ refPrefix: REF });

  const chunks = [
    "// Generated by scripts/gen-horizon-types.mjs from Horizon's OpenAPI schema, action schemas",
    "// and page registry (its payloads: payloads.gen.ts). Do not edit: change src/horizon and",
    "// run `npm run gen:horizon-types`.",
    "",
    "// --- the REST API ---------------------------------------------------------------",
    "",
  ];
  for (const name of used) chunks.push(api.declaration(name, schemas[name]));
  chunks.push(routes(openapi, api));
  // Runtime lists of the schemas' enumerations, for select boxes: `<Schema>_<PROPERTY>_VALUES`.
  const snake = (name) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
  for (const name of used) {
    for (const [prop, def] of Object.entries(schemas[name].properties ?? {})) {
      if (Array.isArray(def.enum) && def.enum.length > 1) {
        chunks.push(`export const ${snake(name)}_${prop.toUpperCase()}_VALUES = ${JSON.stringify(def.enum)} as const;\n`);
      }
    }
  }

  chunks.push("// --- server actions' data ---------------------------------------------------------\n");
  const actions = Object.keys(defs.actions).sort();
  for (const action of actions) {
    chunks.push(plain.declaration(`${pascal(action)}Data`, { description: `The data of the \`${action}\` server action.`, ...defs.actions[action] }));
  }

  chunks.push("// --- chat pages -------------------------------------------------------------------\n");
  chunks.push("/** Horizon's chat pages (`context.current_page`): tabs, payloads and actions of each. */");
  chunks.push(`export const HORIZON_PAGES = ${JSON.stringify(defs.pages, null, 2)} as const;\n`);
  chunks.push("export type HorizonPage = keyof typeof HORIZON_PAGES;");
  chunks.push('export type PagePayloadType<P extends HorizonPage> = (typeof HORIZON_PAGES)[P]["payloads"][number];');
  chunks.push('export type PageClientAction<P extends HorizonPage> = (typeof HORIZON_PAGES)[P]["client_actions"][number];');
  chunks.push('export type PageServerAction<P extends HorizonPage> = (typeof HORIZON_PAGES)[P]["server_actions"][number];\n');
  return chunks.join("\n");
}

const text = generate(loadDefinitions());
if (process.argv.includes("--check")) {
  const current = existsSync(outFile) ? readFileSync(outFile, "utf8") : "";
  if (current !== text) {
    console.error(
      `${outFile} is stale: it differs from Horizon's definitions. Run \`npm run gen:horizon-types\` in web/ and commit the result.`,
    );
    process.exit(1);
  }
  console.log("Horizon types are up to date");
} else {
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, text);
  console.log(`wrote ${outFile}`);
}
