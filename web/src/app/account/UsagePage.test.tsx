// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeFetch } from "../../test/fakeFetch";
import { UsagePage } from "./UsagePage";

afterEach(() => {
  vi.unstubAllGlobals();
});

const ROW = {
  user: "alice@example.com",
  model: "anthropic/claude-haiku-4-5",
  day: "2026-11-28",
  purpose: null,
  answers: 2,
  title_calls: 1,
  input_tokens: 8225,
  output_tokens: 12,
  cache_read_tokens: 4000,
  cache_write_tokens: 4100,
};

describe("the usage page", () => {
  it("shows the server's rows and their totals, and refetches grouped as ticked", async () => {
    const sent = fakeFetch({
      "GET /api/admin/usage": ({ url }) =>
        url.includes("by=purpose")
          ? { body: { by: ["purpose"], rows: [{ ...ROW, user: null, model: null, day: null, purpose: "title", answers: 0 }] } }
          : { body: { by: ["user", "model", "day"], rows: [ROW] } },
    });
    render(<UsagePage />);
    const table = await screen.findByRole("table");
    const cells = within(table).getAllByRole("row")[1]?.textContent;
    expect(cells).toBe("alice@example.comanthropic/claude-haiku-4-52026-11-282" + "1" + "8,225" + "12" + "4,000" + "4,100");
    expect(within(table).getByRole("rowheader", { name: "Total" })).toBeTruthy();
    expect(sent[0]?.url).toMatch(/^\/api\/admin\/usage\?by=user&by=model&by=day&since=\d{4}-\d\d-\d\d&until=\d{4}-\d\d-\d\d$/);
    expect(screen.getByRole("link", { name: "Download CSV" }).getAttribute("href")).toContain("format=csv");

    await userEvent.click(screen.getByRole("checkbox", { name: "Purpose" }));
    for (const name of ["User", "Model", "Day"]) await userEvent.click(screen.getByRole("checkbox", { name }));
    expect(sent.at(-1)?.url).toMatch(/^\/api\/admin\/usage\?by=purpose&since=/);
    expect(await screen.findByRole("cell", { name: "Conversation titles" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Download CSV" }).getAttribute("href")).toContain("by=purpose");
  });

  it("keeps the last grouping: a report grouped by nothing is the totals row", async () => {
    fakeFetch({ "GET /api/admin/usage": { body: { by: ["user"], rows: [] } } });
    render(<UsagePage />);
    await userEvent.click(screen.getByRole("checkbox", { name: "Model" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Day" }));
    expect(screen.getByRole<HTMLInputElement>("checkbox", { name: "User" }).disabled).toBe(true);
    expect(await screen.findByText("No tokens were used in these days.")).toBeTruthy();
  });

  it("tells a user who is not an admin that the page is not for them", async () => {
    fakeFetch({ "GET /api/admin/usage": { status: 403, body: { detail: "This is for administrators" } } });
    render(<UsagePage />);
    const refusal = await screen.findByRole("alert");
    expect(within(refusal).getByRole("heading", { name: "Not allowed" })).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Download CSV" })).toBeNull();
  });

  it("says what failed otherwise, with a retry", async () => {
    let calls = 0;
    fakeFetch({
      "GET /api/admin/usage": () => (++calls === 1 ? { status: 500, body: null } : { body: { by: ["user"], rows: [] } }),
    });
    render(<UsagePage />);
    expect((await screen.findByRole("alert")).textContent).toContain("The server failed (500)");
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("No tokens were used in these days.")).toBeTruthy();
  });
});
