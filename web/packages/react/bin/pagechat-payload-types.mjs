#!/usr/bin/env node
// pagechat-payload-types: an app's payload card types and guards from its pydantic models.
// Run by an app that installed @pagechat/react (npx pagechat-payload-types --help), and by
// this repository's `npm run gen:payload-types`.

import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { dirname, relative } from "node:path";
import { parseArgs } from "node:util";
import { appFrom, dumpSchemas, findPython, payloadTypesFile, readConfig } from "./payload-types.mjs";

const HELP = `Usage:
  pagechat-payload-types --config payload-types.json [--check] [--python PATH]
  pagechat-payload-types --module myapp.payloads --payload recipe=Recipe [--payload ...]
                         --out src/payloads.gen.ts [--pythonpath DIR ...] [--check] [--python PATH]

Writes a TypeScript file per app from its pydantic payload models: an interface per model,
<Name>Payloads (payload type -> data type), a guard per model (isRecipe) and
<name>PayloadGuards (payload type -> guard), to register cards by type.

Options:
  --config FILE       a JSON file: {"module", "payloads": {type: model}, "out", "pythonpath"?,
                      "name"?} or {"apps": [those]}; its paths are relative to its folder
  --module NAME       the Python module that defines the models
  --payload TYPE=MODEL  a payload type and the model of its data (repeat for each)
  --out FILE          the TypeScript file to write
  --pythonpath DIR    a folder Python imports from (repeatable); put before $PYTHONPATH
  --name NAME         the prefix of <Name>Payloads (default: the module's first part, Pascal case)
  --python PATH       the Python that has pydantic and the app. Default: $PAGECHAT_PYTHON, else
                      .venv/bin/python in this folder or the nearest one above it, else python3
  --check             write nothing; exit 1 when a file differs from what would be written
  -h, --help          this text
`;

function fail(message) {
  console.error(`pagechat-payload-types: ${message}`);
  process.exit(2);
}

function appsFrom(values) {
  if (values.config) {
    if (values.module || values.payload || values.out) fail("give --config or --module/--payload/--out, not both");
    return readConfig(values.config);
  }
  if (!values.module) fail("give --config FILE, or --module, --payload and --out (see --help)");
  const payloads = {};
  for (const pair of values.payload ?? []) {
    const [type, model, ...rest] = pair.split("=");
    if (!type || !model || rest.length) fail(`--payload ${pair}: expected TYPE=MODEL`);
    payloads[type] = model;
  }
  return [appFrom({ module: values.module, payloads, out: values.out, pythonpath: values.pythonpath, name: values.name }, process.cwd())];
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      config: { type: "string" },
      module: { type: "string" },
      payload: { type: "string", multiple: true },
      out: { type: "string" },
      pythonpath: { type: "string", multiple: true },
      name: { type: "string" },
      python: { type: "string" },
      check: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  }));
} catch (error) {
  fail(`${error.message}\n\n${HELP}`);
}
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}

let stale = false;
try {
  const python = findPython({ flag: values.python });
  for (const app of appsFrom(values)) {
    const text = payloadTypesFile(app, dumpSchemas(app, python));
    const shown = relative(process.cwd(), app.out);
    if (values.check) {
      if (!existsSync(app.out) || readFileSync(app.out, "utf8") !== text) {
        console.error(`${shown} is stale: run pagechat-payload-types without --check`);
        stale = true;
      }
    } else {
      mkdirSync(dirname(app.out), { recursive: true });
      writeFileSync(app.out, text);
      console.log(`wrote ${shown}`);
    }
  }
} catch (error) {
  fail(error.message);
}
if (values.check && !stale) console.log("payload types are up to date");
process.exit(stale ? 1 : 0);
