import { describe, expect, it } from "vitest";
import { pickApp, type ShellApp } from "./shellApp";

const app = (name: string, pages: string[]): ShellApp => ({ name, pages, Component: () => null });
const APPS = [app("horizon", ["streams", "reports"]), app("notes", ["notes"]), app("demo", ["demo"])];

describe("pickApp", () => {
  it("picks the first app whose pages the server registered", () => {
    expect(pickApp(APPS, ["notes"])?.name).toBe("notes");
    expect(pickApp(APPS, ["demo", "reports"])?.name).toBe("horizon");
  });

  it("picks none for a server with no app's pages (plain pagechat)", () => {
    expect(pickApp(APPS, [])).toBeNull();
    expect(pickApp(APPS, ["something-else"])).toBeNull();
  });
});
