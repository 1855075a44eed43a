// The smallest app on @pagechat/react: a page and the chat tray. A pagechat server serves it
// on the same origin; the tray is signed in by that server's session cookie.
import { ChatTray } from "@pagechat/react";
import "@pagechat/react/style.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

createRoot(document.getElementById("root") ?? document.body).render(
  <StrictMode>
    <h1>My app</h1>
    <ChatTray context={{}} getToken={() => null} defaultOpen />
  </StrictMode>,
);
