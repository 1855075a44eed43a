// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { emptyDraft } from "../draft";
import { ModelNotice } from "../components/ModelNotice";
import { payloadHandler } from "../payloadHandler";
import { PubmedSearchResultsCard } from "./PubmedSearchResultsCard";
import { SchemaProposalCard } from "./SchemaProposalCard";
import { StreamTemplateCard } from "./StreamTemplateCard";
import { TopicSuggestionsCard } from "./TopicSuggestionsCard";
import { ValidationCard } from "./ValidationCard";

const callbacks = ({ canAccept = true }: { canAccept?: boolean } = {}) => ({
  onAccept: vi.fn(),
  onReject: vi.fn(),
  canAccept,
  conversation: { conversationId: "c1", messageId: "m1", runAction: vi.fn(), decide: vi.fn() },
  context: {},
  actions: {},
});

describe("payload cards", () => {
  it("topic suggestions: the user leaves one out and adds the others", async () => {
    const cb = callbacks();
    const data = { topics: [{ name: "Base editing" }, { name: "Prime editing" }, { name: "Safety", description: "Adverse events" }] };
    render(<TopicSuggestionsCard data={data} callbacks={cb} />);
    expect(screen.getByText("— Adverse events")).toBeTruthy();
    await userEvent.click(screen.getByRole("checkbox", { name: /Prime editing/ }));
    await userEvent.click(screen.getByRole("button", { name: "Add 2 topics" }));
    expect(cb.onAccept).toHaveBeenCalledWith({ topics: [{ name: "Base editing" }, { name: "Safety", description: "Adverse events" }] });
  });

  it("a schema proposal shows each change against the form, and nothing it does not change", () => {
    const current = { ...emptyDraft(), name: "Heart", purpose: "Old purpose" };
    render(
      <SchemaProposalCard
        data={{ proposed_changes: { purpose: "New purpose" }, confidence: "high", reasoning: "The **purpose** was vague." }}
        current={current}
        callbacks={callbacks()}
      />,
    );
    const change = screen.getByRole("region", { name: "Purpose" });
    expect(within(change).getByText("Old purpose").tagName).toBe("DEL");
    expect(within(change).getByText("New purpose").tagName).toBe("INS");
    expect(screen.queryByRole("region", { name: "Name" })).toBeNull();
    expect(screen.getByText("high confidence")).toBeTruthy();
    // The model's reasoning is markdown, rendered safely.
    expect(screen.getByText("purpose").tagName).toBe("STRONG");
  });

  it("a schema proposal marks each topic added, removed, changed or kept, with Accept and Reject", async () => {
    const current = {
      ...emptyDraft(),
      semantic_space: {
        ...emptyDraft().semantic_space,
        topics: [
          { name: "Trials", description: "Clinical trials" },
          { name: "Safety", description: "Adverse events" },
          { name: "Cost", description: "" },
        ],
      },
    };
    const cb = callbacks();
    const topics = [{ name: "Trials", description: "Clinical trials" }, { name: "Safety", description: "Adverse events, long term" }, { name: "Dosing" }];
    render(<SchemaProposalCard data={{ proposed_changes: { topics }, confidence: "medium", reasoning: "" }} current={current} callbacks={cb} />);
    const region = screen.getByRole("region", { name: "Topics" });
    expect(within(region).getByRole("heading").textContent).toBe("Topics: 1 added, 1 changed, 1 removed");
    const items = within(region).getAllByRole("listitem").map((li) => [li.getAttribute("data-change"), li.querySelector("strong")?.textContent]);
    expect(items).toEqual([
      ["kept", "Trials"],
      ["changed", "Safety"],
      ["added", "Dosing"],
      ["removed", "Cost"],
    ]);
    await userEvent.click(screen.getByRole("button", { name: "Accept" }));
    expect(cb.onAccept).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole("button", { name: "Reject" }));
    expect(cb.onReject).toHaveBeenCalledOnce();
  });

  it("a proposal on a page that cannot apply it lists what it proposes, and offers only Close", () => {
    render(
      <SchemaProposalCard
        data={{ proposed_changes: { topics: [{ name: "Dosing" }] }, confidence: "low", reasoning: "" }}
        current={null}
        callbacks={callbacks({ canAccept: false })}
      />,
    );
    expect(screen.getByRole("heading", { name: "Topics (1 proposed)" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Accept" })).toBeNull();
    expect(screen.getByRole("button", { name: "Close" })).toBeTruthy();
  });

  it("a template: accepting fills the form", async () => {
    const cb = callbacks();
    render(<StreamTemplateCard data={{ name: "Heart", purpose: "Follow it", topics: [{ name: "Trials" }] }} callbacks={cb} />);
    expect(screen.getByRole("heading", { name: "Heart" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Create stream now" })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Fill the form" }));
    expect(cb.onAccept).toHaveBeenCalledOnce();
  });

  it("a validation card gives the verdict, the issues, and a way to the field", async () => {
    const onField = vi.fn();
    const data = {
      ready: false,
      errors: [{ field: "name", message: "Give the stream a name." }],
      warnings: [],
      suggestions: [{ message: "Add topics." }],
    };
    render(<ValidationCard data={data} callbacks={callbacks()} onField={onField} />);
    expect(screen.getByText("Not ready yet")).toBeTruthy();
    expect(screen.getByRole("region", { name: "Errors" }).textContent).toContain("Give the stream a name.");
    expect(screen.queryByRole("region", { name: "Warnings" })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "name" }));
    expect(onField).toHaveBeenCalledWith("name");
  });

  it("search results link to Horizon's article page, and to PubMed only for real PMIDs", () => {
    const data = {
      query: "gene therapy",
      total: 40,
      articles: [
        { pmid: "123", title: "Real one", authors: ["A B", "C D", "E F", "G H"], journal: "J", year: 2024 },
        { pmid: "SYN000001", title: "Synthetic one" },
      ],
    };
    render(<PubmedSearchResultsCard data={data} callbacks={callbacks()} />);
    expect(screen.getByText(/2 of 40 articles for/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Real one" }).getAttribute("href")).toBe("/articles/123");
    expect(screen.getByText("A B, C D, E F et al. · J · 2024")).toBeTruthy();
    // Each PMID links to Horizon's article page, and (real PMIDs only) to PubMed, in a new tab.
    expect(screen.getByRole("link", { name: "PMID 123" }).getAttribute("href")).toBe("/articles/123");
    expect(screen.getByRole("link", { name: "PMID SYN000001" }).getAttribute("href")).toBe("/articles/SYN000001");
    const pubmed = screen.getAllByRole("link", { name: "PubMed (opens in a new tab)" });
    expect(pubmed).toHaveLength(1);
    expect(pubmed[0]?.getAttribute("rel")).toBe("noopener noreferrer");
  });

  it("search results say where they were searched: the local library or PubMed online", () => {
    const base = { query: "gene therapy", total: 0, articles: [] };
    const { rerender } = render(<PubmedSearchResultsCard data={{ ...base, source: "local" }} callbacks={callbacks()} />);
    expect(screen.getByText(/ in the local library$/)).toBeTruthy();
    rerender(<PubmedSearchResultsCard data={{ ...base, source: "pubmed" }} callbacks={callbacks()} />);
    expect(screen.getByText(/ on PubMed \(online\)$/)).toBeTruthy();
  });

  it("data that is not the payload's shape shows a plain error instead of the card", () => {
    const handler = payloadHandler("stream_template", {
      render: () => <p>card</p>,
      renderOptions: {},
    });
    render(<>{handler.render({ name: "no topics" }, callbacks())}</>);
    expect(screen.getByRole("alert").textContent).toBe("This stream template cannot be shown: its data is incomplete.");
  });
});

describe("which model answers", () => {
  it("the offline model is named plainly, with how to switch", () => {
    render(<ModelNotice model={{ provider: "offline", name: "offline" }} />);
    const notice = screen.getByRole("complementary", { name: "Offline assistant" });
    expect(notice.textContent).toContain("The assistant is offline.");
    expect(notice.textContent).toContain("ANTHROPIC_API_KEY");
  });

  it("a real model is named quietly; an unknown one not at all", () => {
    const { container, rerender } = render(<ModelNotice model={{ provider: "anthropic", name: "claude-sonnet" }} />);
    expect(container.textContent).toBe("Assistant: anthropic · claude-sonnet");
    rerender(<ModelNotice model={null} />);
    expect(container.textContent).toBe("");
  });
});

describe("reading the model from /api/health", () => {
  it("takes either shape, and nothing else", async () => {
    const { readModel } = await import("../useAssistantModel");
    expect(readModel({ status: "ok", model: { provider: "offline", name: "offline" } })).toEqual({ provider: "offline", name: "offline" });
    expect(readModel({ status: "ok", provider: "openai", model: "gpt" })).toEqual({ provider: "openai", name: "gpt" });
    expect(readModel({ status: "ok" })).toBeNull();
    expect(readModel(null)).toBeNull();
  });
});
