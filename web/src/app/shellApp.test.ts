import { describe, expect, it } from "vitest";
import { currentPage, pageTitle } from "./GenericApp";
import { pickApp, type ShellApp } from "./shellApp";

const app = (name: string, pages: string[]): ShellApp => ({ name, pages, Component: () => null });
const GENERIC: ShellApp = { ...app("generic", []), anyPages: true };
const APPS = [app("horizon", ["streams", "reports"]), app("notes", ["notes"]), GENERIC, app("demo", ["demo"])];

describe("pickApp", () => {
  it("picks the first app whose pages the server registered", () => {
    expect(pickApp(APPS, ["notes"])?.name).toBe("notes");
    expect(pickApp(APPS, ["demo", "reports"])?.name).toBe("horizon");
  });

  it("picks the generic app for pages no app claims, and none for a server with no pages (plain pagechat)", () => {
    expect(pickApp(APPS, ["recipes"])?.name).toBe("generic");
    expect(pickApp(APPS, ["recipes", "demo"])?.name).toBe("demo");
    expect(pickApp(APPS, [])).toBeNull();
    expect(pickApp(APPS.filter((a) => a !== GENERIC), ["something-else"])).toBeNull();
  });
});

describe("the generic app", () => {
  it("shows the page the address names, else the first", () => {
    expect(currentPage(["menu", "recipes"], "/pages/recipes")).toBe("recipes");
    expect(currentPage(["menu", "recipes"], "/")).toBe("menu");
    expect(currentPage(["menu", "recipes"], "/pages/elsewhere")).toBe("menu");
    expect(currentPage([], "/")).toBeUndefined();
    expect(pageTitle("shopping_list")).toBe("Shopping list");
  });
});
