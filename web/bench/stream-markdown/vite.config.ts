import react from "@vitejs/plugin-react";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = dirname(fileURLToPath(import.meta.url));

// The benchmark page, built in production mode like the real app.
export default defineConfig({
  root: resolve(here, "page"),
  base: "./",
  plugins: [react()],
  logLevel: "warn",
  build: { outDir: resolve(here, "dist"), emptyOutDir: true },
});
