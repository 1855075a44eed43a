import { describe, expect, it } from "vitest";
import { matchPath } from "./router";

describe("matchPath", () => {
  it("reads named parameters, decoded", () => {
    expect(matchPath("/streams/:id", "/streams/12")).toEqual({ id: "12" });
    expect(matchPath("/articles/:pmid", "/articles/SYN%20001")).toEqual({ pmid: "SYN 001" });
    expect(matchPath("/", "/")).toEqual({});
  });

  it("needs every segment to match", () => {
    expect(matchPath("/streams/:id", "/streams/12/reports")).toBeNull();
    expect(matchPath("/streams/new", "/streams/12")).toBeNull();
    expect(matchPath("/articles/:pmid", "/articles/%E0%A4%A")).toBeNull();
  });
});
