// What an installed @pagechat/react tarball must hold for an app to use it: every export and
// bin it names, the peers an app provides, and dependencies that are exactly what its code
// imports (or what those imports need as peers). Throws a list of what is wrong.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

// Only this repository's tools resolve this condition (to src/, which is not packed).
const SOURCE_CONDITION = "@pagechat/source";

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

function targets(entry) {
  if (typeof entry === "string") return [entry];
  return Object.entries(entry)
    .filter(([condition]) => condition !== SOURCE_CONDITION)
    .flatMap(([, value]) => targets(value));
}

/** The packages a file imports by bare name (`react/jsx-runtime` counts as `react`). */
function imports(file) {
  const text = readFileSync(file, "utf8");
  const found = new Set();
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"'./][^"']*)["']/g)) {
    const parts = m[1].split("/");
    found.add(m[1].startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]);
  }
  return found;
}

/** `pkg` is the installed package's folder; `nodeModules` the app's node_modules. */
export function checkPacked(pkg, nodeModules) {
  const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
  const problems = [];
  const files = walk(pkg).map((f) => relative(pkg, f));
  for (const target of [manifest.types, ...targets(manifest.exports), ...Object.values(manifest.bin ?? {})]) {
    if (!target || !existsSync(join(pkg, target))) problems.push(`${String(target)} is named in package.json but not packed`);
  }
  for (const file of files.filter((f) => f.startsWith("src/") || /\.test\.|tsbuildinfo/.test(f))) {
    problems.push(`${file} is packed but no app needs it`);
  }
  for (const peer of ["react", "react-dom"]) {
    if (!manifest.peerDependencies?.[peer]) problems.push(`${peer} is not a peer dependency`);
  }
  const deps = Object.keys(manifest.dependencies ?? {});
  const provided = new Set([...deps, ...Object.keys(manifest.peerDependencies ?? {}), "node"]);
  const used = new Set(
    files.filter((f) => /^(dist|bin)\/.*\.(m?js|d\.ts)$/.test(f)).flatMap((f) => [...imports(join(pkg, f))]),
  );
  for (const name of used) {
    if (!provided.has(name) && !name.startsWith("node:")) problems.push(`the code imports ${name}, which is not a dependency`);
  }
  // A dependency nothing imports is still needed when an imported one wants it as a peer.
  const peersOfUsed = new Set(
    [...used]
      .filter((name) => deps.includes(name))
      .flatMap((name) => Object.keys(JSON.parse(readFileSync(join(nodeModules, name, "package.json"), "utf8")).peerDependencies ?? {})),
  );
  for (const name of deps) {
    if (!used.has(name) && !peersOfUsed.has(name)) problems.push(`${name} is a dependency that nothing imports`);
  }
  if (problems.length) throw new Error(`the packed @pagechat/react is not right:\n  ${problems.join("\n  ")}`);
}
