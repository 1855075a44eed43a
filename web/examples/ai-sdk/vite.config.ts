import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// `npm run dev` proxies /api to a pagechat server on PAGECHAT_URL.
export default defineConfig({
  plugins: [react()],
  server: { proxy: { "/api": process.env.PAGECHAT_URL ?? "http://127.0.0.1:8000" } },
});
