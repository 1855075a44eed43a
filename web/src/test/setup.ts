import { afterEach } from "vitest";

// Component tests run in jsdom (`// @vitest-environment jsdom`); the others in plain node.
if (typeof window !== "undefined") {
  const { cleanup } = await import("@testing-library/react");
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });
}
