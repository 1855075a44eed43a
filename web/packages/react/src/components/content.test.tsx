// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { describe, expect, it, vi } from "vitest";
import type { ToolHistoryEntry } from "../types";
import { ChoiceContext } from "./ChoiceContext";
import { Markdown as BlockMarkdown } from "./Markdown";
import { MessageContent } from "./MessageContent";

const entry = (over: Partial<ToolHistoryEntry> = {}): ToolHistoryEntry => ({
  tool_name: "search_pubmed",
  input: { query: "CRISPR" },
  output: "Found 5 articles",
  is_error: false,
  tool_use_id: "t1",
  payload: null,
  approval: null,
  in_answer: false,
  sources: [],
  ...over,
});

describe("markdown safety", () => {
  const hostile = [
    "Hello <script>window.hacked = true</script> there",
    "",
    '<img src="x" onerror="window.hacked = true">',
    "",
    '<a href="https://evil.example">raw anchor</a>',
    "",
    "[js link](javascript:alert(1)) [data link](data:text/html,hi) [relative](/admin)",
    "",
    "[safe](https://example.com/page) [mail](mailto:a@example.com)",
    "",
    "![tracker](https://example.com/pixel.png)",
  ].join("\n");

  it("never renders raw HTML as elements: it shows as text", () => {
    const { container } = render(<MessageContent content={hostile} toolHistory={[]} />);
    expect(container.querySelector("script")).toBeNull();
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector('a[href="https://evil.example"]')).toBeNull();
    expect(container.textContent).toContain("<script>window.hacked = true</script>");
    expect(container.textContent).toContain('<img src="x" onerror="window.hacked = true">');
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it("makes only http(s) and mailto links clickable, opening in a new tab without opener", () => {
    render(<MessageContent content={hostile} toolHistory={[]} />);
    for (const text of ["js link", "data link", "relative"]) {
      expect(screen.getByText(text).closest("a")).toBeNull();
    }
    const safe = screen.getByRole("link", { name: "safe" });
    expect(safe.getAttribute("href")).toBe("https://example.com/page");
    expect(safe.getAttribute("target")).toBe("_blank");
    expect(safe.getAttribute("rel")).toBe("noopener noreferrer");
    expect(screen.getByRole("link", { name: "mail" }).getAttribute("href")).toBe("mailto:a@example.com");
    expect(screen.getAllByRole("link").map((a) => a.textContent)).toEqual(["safe", "mail", "[image: tracker]"]);
  });
});

describe("code blocks", () => {
  it("have a copy button that copies the code", async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    render(<MessageContent content={"Run:\n\n```bash\nmake test\n```"} toolHistory={[]} />);
    await user.click(screen.getByRole("button", { name: "Copy code" }));
    expect(writeText).toHaveBeenCalledWith("make test");
    expect(await screen.findByText("Copied")).toBeTruthy();
  });
});

describe("tool cards", () => {
  it("stand where their marker is, collapsed to the tool's name, and expand to input and output", async () => {
    const user = userEvent.setup();
    const { container } = render(<MessageContent content={"Before[[tool:0]]After"} toolHistory={[entry()]} />);
    expect(container.textContent).not.toContain("[[tool:0]]");
    const header = screen.getByRole("button", { name: /search_pubmed/ });
    expect(header.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByText("Found 5 articles")).toBeNull();
    const text = container.textContent;
    expect(text.indexOf("Before")).toBeLessThan(text.indexOf("search_pubmed"));
    expect(text.indexOf("search_pubmed")).toBeLessThan(text.indexOf("After"));
    await user.click(header);
    expect(header.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByText("Found 5 articles")).toBeTruthy();
    expect(screen.getByText(/"query": "CRISPR"/)).toBeTruthy();
    await user.click(header);
    expect(screen.queryByText("Found 5 articles")).toBeNull();
  });

  it("show a failed tool call as failed", async () => {
    const user = userEvent.setup();
    render(<MessageContent content={"[[tool:0]]"} toolHistory={[entry({ is_error: true, output: "Timed out" })]} />);
    const header = screen.getByRole("button", { name: /search_pubmed/ });
    expect(within(header).getByText("failed")).toBeTruthy();
    await user.click(header);
    expect(screen.getByText("Error")).toBeTruthy();
    expect(screen.getByText("Timed out")).toBeTruthy();
  });

  it("leave a marker naming no tool call, or not exactly the syntax, as text", () => {
    const { container } = render(
      <MessageContent content={"A [[tool:3]] B [[tool: 0]]"} toolHistory={[entry()]} />,
    );
    expect(screen.queryByRole("button")).toBeNull();
    expect(container.textContent).toContain("[[tool:3]]");
    expect(container.textContent).toContain("[[tool: 0]]");
  });
});

describe("choices", () => {
  const block = (body: string) => `Pick one:\n\n\`\`\`choices\n${body}\n\`\`\``;
  const valid = block('{"question":"Which source?","options":[{"label":"RSS feed","value":"rss"},{"label":"Agentic","value":"agentic"}]}');

  it("render as buttons that send the option's value", async () => {
    const user = userEvent.setup();
    const choose = vi.fn();
    render(
      <ChoiceContext.Provider value={{ mode: "open", selected: null, choose }}>
        <MessageContent content={valid} toolHistory={[]} />
      </ChoiceContext.Provider>,
    );
    expect(screen.getByRole("group", { name: "Which source?" })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "RSS feed" }));
    expect(choose).toHaveBeenCalledWith("rss");
  });

  it("are disabled once answered, the chosen one marked", () => {
    render(
      <ChoiceContext.Provider value={{ mode: "answered", selected: "agentic", choose: vi.fn() }}>
        <MessageContent content={valid} toolHistory={[]} />
      </ChoiceContext.Provider>,
    );
    const rss = screen.getByRole<HTMLButtonElement>("button", { name: "RSS feed" });
    const agentic = screen.getByRole<HTMLButtonElement>("button", { name: "Agentic" });
    expect(rss.disabled && agentic.disabled).toBe(true);
    expect(agentic.hasAttribute("data-selected")).toBe(true);
    expect(rss.hasAttribute("data-selected")).toBe(false);
  });

  it("show a malformed block as an ordinary code block", () => {
    const bad = block('{"question":"Only one","options":[{"label":"A","value":"a"}]}');
    const { container } = render(
      <ChoiceContext.Provider value={{ mode: "open", selected: null, choose: vi.fn() }}>
        <MessageContent content={bad} toolHistory={[]} />
      </ChoiceContext.Provider>,
    );
    expect(screen.queryByRole("group")).toBeNull();
    expect(container.querySelector("pre code")?.textContent).toContain('"question":"Only one"');
  });

  it("never flash raw JSON while the block streams", () => {
    const { container } = render(
      <ChoiceContext.Provider value={{ mode: "streaming", selected: null, choose: vi.fn() }}>
        <MessageContent content={'Pick:\n\n```choices\n{"question":"Which so'} toolHistory={[]} streaming />
      </ChoiceContext.Provider>,
    );
    expect(container.textContent).not.toContain('"question"');
    expect(screen.getByText("Preparing choices…")).toBeTruthy();
  });
});

describe("block-wise markdown", () => {
  const doc = [
    "# Heading",
    "",
    "A paragraph with **bold**, `code` and a [link](https://example.com).",
    "",
    "- one",
    "",
    "- two",
    "  continued",
    "",
    "1. first",
    "2. second",
    "",
    "| a | b |",
    "|---|---|",
    "| 1 | 2 |",
    "",
    "> quoted",
    "",
    "```python",
    "def f():",
    "",
    "    return 1",
    "```",
    "",
    "Last ~~line~~.",
  ].join("\n");

  const normalize = (html: string) => html.replace(/>\s+</g, "><").replace(/\s+/g, " ").trim();

  it("renders exactly what rendering the whole text at once renders", () => {
    const blocks = render(<BlockMarkdown text={doc} />).container.innerHTML;
    const whole = render(
      <div className="pc-markdown">
        <Markdown remarkPlugins={[remarkGfm]}>{doc}</Markdown>
      </div>,
    ).container.innerHTML;
    // Tables are wrapped for scrolling and code blocks get a copy bar; compare the rest.
    const strip = (html: string) =>
      normalize(html)
        .replace(/<div class="pc-table-wrap">(<table>.*?<\/table>)<\/div>/g, "$1")
        .replace(/<div class="pc-code"[^>]*><div class="pc-code-header">.*?<\/div>(<pre>.*?<\/pre>)<\/div>/g, "$1")
        .replace(/<code class="language-python">/, "<code>")
        .replace(/ target="_blank" rel="noopener noreferrer"/g, "")
        .replace(/\s+<\/code>/g, "</code>");
    expect(strip(blocks)).toBe(strip(whole));
  });
});
