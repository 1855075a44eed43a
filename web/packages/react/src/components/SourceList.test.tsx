// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { sourcesByNumber } from "../citations";
import { emptyMessage } from "../state";
import type { Source } from "../types";
import { Markdown } from "./Markdown";
import { markdownOf } from "./MessageActions";
import { SourceList } from "./SourceList";
import { SourcesContext } from "./SourcesContext";

const sources: Source[] = [
  { id: "11", title: "Prime editing", url: "https://pubmed.ncbi.nlm.nih.gov/11/", detail: "PMID 11 · Nature, 2021", snippet: "It corrects mutations.", number: 1 },
  { id: "x", title: "A bad link", url: "javascript:alert(1)", detail: "", snippet: "", number: 2 },
];

function answer(text: string) {
  return render(
    <SourcesContext.Provider value={{ byNumber: sourcesByNumber(sources), prefix: "a1" }}>
      <Markdown text={text} />
      <SourceList sources={sources} prefix="a1" />
    </SourcesContext.Provider>,
  );
}

describe("citations and the Sources list", () => {
  it("links each [n] of the answer's prose that names a source, and nothing else", () => {
    const { container } = answer("Works [1][2], not [3]. `code [1]` and [a link [1]](https://example.org).\n\n```\n[1]\n```");
    const cites = container.querySelectorAll("a.pc-cite");
    expect([...cites].map((a) => a.getAttribute("aria-label"))).toEqual(["Source 1: Prime editing", "Source 2: A bad link"]);
    expect(cites[0]?.getAttribute("href")).toBe("#a1-source-1");
    expect(container.textContent).toContain("Works [1][2], not [3].");
    expect(within(container.querySelector("code") as HTMLElement).getByText("code [1]")).toBeTruthy();
    expect(screen.getByRole("link", { name: "a link [1]" }).getAttribute("href")).toBe("https://example.org");
  });

  it("is plain text outside an answer", () => {
    const { container } = render(<Markdown text="Data [1]." />);
    expect(container.querySelector("a")).toBeNull();
    expect(container.textContent).toBe("Data [1].");
  });

  it("lists the sources by number; only an http(s) URL is a link, opening in a new tab", () => {
    answer("Works [1].");
    const list = screen.getByRole("region", { name: "Sources" });
    const items = within(list).getAllByRole("listitem");
    expect(items.map((li) => li.id)).toEqual(["a1-source-1", "a1-source-2"]);
    const link = within(items[0] as HTMLElement).getByRole("link", { name: "Prime editing" });
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(items[0]?.textContent).toContain("PMID 11 · Nature, 2021");
    expect(items[0]?.textContent).toContain("It corrects mutations.");
    expect(within(items[1] as HTMLElement).queryByRole("link")).toBeNull();
  });

  it("copies an answer with its Sources list after it", () => {
    const message = { ...emptyMessage("m1", "assistant", "Works [1].[[tool:0]]"), sources };
    expect(markdownOf(message)).toBe(
      "Works [1].\n\nSources:\n[1] Prime editing. PMID 11 · Nature, 2021. https://pubmed.ncbi.nlm.nih.gov/11/\n[2] A bad link",
    );
  });
});
