// The import-circle check that `npm run lint` (and so `make test`) runs: no module in web/
// may reach itself through its imports. Type-only imports count: a circle through
// `import type` still means two modules each need the other to be understood (eslint's
// import-x/no-cycle skips those; the old chartPayload/payloadRegistry circle was one).
import { defineConfig } from "dpdm";

export default defineConfig({
  files: [
    "src/**/*.{ts,tsx}",
    "packages/react/{src,test,bin}/**/*.{ts,tsx,mjs}",
    "examples/*/src/**/*.{ts,tsx}",
    "e2e/**/*.ts",
    "scripts/**/*.mjs",
    "bench/**/*.{ts,tsx,mjs}",
    "*.ts",
  ],
  // Resolves imports as the app's build does (the workspace package by its source condition).
  tsconfig: "tsconfig.app.json",
  exitCode: "circular:1",
  tree: false,
  warning: false,
  progress: false,
});
