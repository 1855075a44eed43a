// A `useChat` app (the Vercel AI SDK) on pagechat's server-owned runs. A pagechat server serves
// it on the same origin; the requests carry that server's session cookie and its CSRF token.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import "./app.css";

createRoot(document.getElementById("root") ?? document.body).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
