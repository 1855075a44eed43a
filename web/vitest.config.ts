import react from "@vitejs/plugin-react";
import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
  // @pagechat/react from its source, as in vite.config.ts (tests in node resolve as a server).
  resolve: { conditions: ["@pagechat/source", ...defaultClientConditions] },
  ssr: { resolve: { conditions: ["@pagechat/source", ...defaultServerConditions] } },
  test: {
    environment: "node",
    include: ["src/**/*.test.{ts,tsx}", "packages/*/src/**/*.test.{ts,tsx}", "packages/*/bin/*.test.ts"],
    setupFiles: ["src/test/setup.ts"],
    restoreMocks: true,
  },
});
