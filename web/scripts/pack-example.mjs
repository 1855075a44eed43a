#!/usr/bin/env node
// `npm run build:example`: builds examples/minimal as an app outside this repository would,
// so that e2e/minimal.spec.ts tests what npm would deliver, not the workspace's links:
//
//   1. builds @pagechat/react and packs it (`npm pack`) into a temporary folder;
//   2. copies the example's sources to a fresh folder there, pointed at the tarball;
//   3. installs it from the registry (the npm cache first), checks the installed package
//      (check-packed.mjs), generates card types with its bin from a pydantic model (with the
//      Python pagechat-payload-types finds from web/: this checkout's .venv) and builds the
//      app (tsc -b, which checks those types, && vite build);
//   4. copies the app's dist/ to examples/minimal/dist, with packed.json saying where from.
//
//   --keep   leave the temporary folder (its path is printed)

import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findPython } from "../packages/react/bin/payload-types.mjs";
import { checkPacked } from "./check-packed.mjs";

const webRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pkgDir = resolve(webRoot, "packages/react");
const example = resolve(webRoot, "examples/minimal");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(cwd, command, args, quiet = false) {
  console.log(`$ (${cwd === webRoot ? "web" : cwd}) ${[command, ...args].join(" ")}`);
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", quiet ? "pipe" : "inherit", "inherit"] });
}

const RECIPES = `from typing import Literal
from pydantic import BaseModel

class Ingredient(BaseModel):
    name: str
    grams: float

class Recipe(BaseModel):
    title: str
    kind: Literal["main", "dessert"]
    ingredients: list[Ingredient]
`;

const started = Date.now();
const tmp = mkdtempSync(join(tmpdir(), "pagechat-minimal-"));
try {
  run(pkgDir, npm, ["run", "build"]);
  const [packed] = JSON.parse(run(pkgDir, npm, ["pack", "--json", "--loglevel=error", "--pack-destination", tmp], true));
  const tarball = join(tmp, packed.filename);

  const app = join(tmp, "app");
  cpSync(example, app, { recursive: true, filter: (src) => !/[\\/](node_modules|dist)$/.test(src) });
  const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
  manifest.dependencies["@pagechat/react"] = `file:${tarball}`;
  writeFileSync(join(app, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);

  run(app, npm, ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"]);
  checkPacked(join(app, "node_modules/@pagechat/react"), join(app, "node_modules"));
  // The app's card types from its pydantic model, by the installed bin; tsc -b checks them.
  writeFileSync(join(app, "recipes.py"), RECIPES);
  const python = findPython({ cwd: webRoot });
  const generate = ["--module", "recipes", "--payload", "recipe=Recipe", "--out", "src/recipes.gen.ts", "--python", python];
  run(app, join(app, "node_modules/.bin/pagechat-payload-types"), generate);
  run(app, npm, ["run", "build"]);

  const dist = join(example, "dist");
  rmSync(dist, { recursive: true, force: true });
  cpSync(join(app, "dist"), dist, { recursive: true });
  writeFileSync(join(dist, "packed.json"), `${JSON.stringify({ tarball: basename(tarball), files: packed.files.length }, null, 2)}\n`);
  console.log(`examples/minimal/dist: built from ${basename(tarball)} in ${String(Math.round((Date.now() - started) / 1000))} s`);
} finally {
  if (process.argv.includes("--keep")) console.log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
