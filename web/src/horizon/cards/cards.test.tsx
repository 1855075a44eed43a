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

const callbacks = () => ({
  onAccept: vi.fn(),
  onReject: vi.fn(),
  conversation: { conversationId: "c1", messageId: "m1", runAction: vi.fn() },
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
    expect(within(change).getByText("Old purpose")).toBeTruthy();
    expect(within(change).getByText("New purpose")).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Name" })).toBeNull();
    expect(screen.getByText("high confidence")).toBeTruthy();
    // The model's reasoning is markdown, rendered safely.
    expect(screen.getByText("purpose").tagName).toBe("STRONG");
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
    expect(screen.getByText("✗ Not ready yet")).toBeTruthy();
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
    const pubmed = screen.getAllByRole("link", { name: "PubMed ↗" });
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
