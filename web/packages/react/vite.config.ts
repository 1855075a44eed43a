import react from "@vitejs/plugin-react";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(readFileSync(resolve(here, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
// An app installs these itself (npm does): the package's bundle holds only its own code.
const external = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)];

// @pagechat/react as a library: dist/index.js (ES module) and dist/style.css; `tsc -b
// tsconfig.build.json` adds the declarations after this has emptied dist/.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: resolve(here, "dist"),
    emptyOutDir: true,
    sourcemap: false,
    lib: { entry: resolve(here, "src/index.ts"), formats: ["es"], fileName: "index", cssFileName: "style" },
    rolldownOptions: {
      external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
    },
  },
});
