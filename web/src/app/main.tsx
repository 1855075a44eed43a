import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { APPS } from "../apps";
import { App } from "./App";
import "./theme.css";
import "./app.css";
import { applyTheme, storedTheme } from "./theme";

applyTheme(storedTheme());

const root = document.getElementById("root");
if (root === null) throw new Error("no #root element");
createRoot(root).render(
  <StrictMode>
    <App apps={APPS} />
  </StrictMode>,
);
