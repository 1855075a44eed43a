import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig } from "vite";

// The Python server serves dist/ at `/` with the API under /api on the same origin.
// In development, `npm run dev` proxies /api to a server on PAGECHAT_URL.
export default defineConfig({
  plugins: [react()],
  // The shell builds @pagechat/react from its source (packages/react/src), so a change there
  // needs no package build first; an app outside this repository uses the built dist/.
  resolve: { conditions: ["@pagechat/source", ...defaultClientConditions] },
  // No source maps in the build: they would publish the source; `npm run dev` has its own.
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  server: {
    proxy: { "/api": process.env.PAGECHAT_URL ?? "http://127.0.0.1:8000" },
  },
});
