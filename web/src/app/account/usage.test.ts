import { describe, expect, it } from "vitest";
import { GROUPINGS, usageUrl, type UsageRow } from "./accountApi";
import { defaultQuery, formatCount, groupCell, toggleGroup, totals } from "./usage";

const row = (over: Partial<UsageRow>): UsageRow => ({
  user: null,
  model: null,
  day: null,
  purpose: null,
  answers: 0,
  title_calls: 0,
  input_tokens: 0,
  output_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  ...over,
});

describe("the usage page's logic", () => {
  it("asks for the last 30 UTC days by user, model and day", () => {
    expect(defaultQuery(new Date("2026-03-01T23:30:00Z"))).toEqual({ by: ["user", "model", "day"], since: "2026-01-31", until: "2026-03-01" });
  });

  it("writes the report's address with repeated `by`, the days, and the CSV format", () => {
    const query = { by: ["user", "purpose"] as const, since: "2026-01-01", until: "" };
    expect(usageUrl(query, "json")).toBe("/api/admin/usage?by=user&by=purpose&since=2026-01-01");
    expect(usageUrl(query, "csv")).toBe("/api/admin/usage?by=user&by=purpose&since=2026-01-01&format=csv");
  });

  it("keeps the groupings in the report's order whatever order they are ticked in", () => {
    expect(toggleGroup(["day"], "user", true, GROUPINGS)).toEqual(["user", "day"]);
    expect(toggleGroup(["user", "day"], "user", false, GROUPINGS)).toEqual(["day"]);
  });

  it("sums every count, and says what a purpose is in words", () => {
    const rows = [row({ answers: 2, input_tokens: 4000, cache_read_tokens: 3000 }), row({ title_calls: 1, input_tokens: 25, output_tokens: 5 })];
    expect(totals(rows)).toEqual({ answers: 2, title_calls: 1, input_tokens: 4025, output_tokens: 5, cache_read_tokens: 3000, cache_write_tokens: 0 });
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(groupCell(row({ purpose: "title" }), "purpose")).toBe("Conversation titles");
    expect(groupCell(row({}), "model")).toBe("—");
  });
});
