// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { emptyMessage } from "../state";
import type { ChatMessage } from "../types";
import { AssistantMessage } from "./AssistantMessage";

const written = '{"title": "Ship", "steps": "several"}';

function answer(): ChatMessage {
  return {
    ...emptyMessage("a1", "assistant", "Here is a plan.\nAsk away."),
    payloads: [
      {
        type: "payload_error",
        data: {
          payload_type: "plan",
          reason: "The plan is not in the form it must have.",
          details: `steps: 'several' is not of type 'integer'\n\nAs written:\n${written}`,
        },
      },
    ],
  };
}

function show(message: ChatMessage) {
  return render(
    <AssistantMessage
      message={message}
      choices={{ mode: "open", selected: null, choose: () => undefined }}
      interactive
      payloadViews={[]}
      onPick={() => undefined}
      isActionAvailable={() => true}
      onRunAction={() => Promise.resolve()}
      onViewPayload={() => undefined}
    />,
  );
}

describe("PayloadErrorCard", () => {
  afterEach(cleanup);

  it("says the proposal could not be shown, with the details folded away", () => {
    show(answer());
    const card = screen.getByRole("note");
    expect(within(card).getByText("Couldn't show this proposal")).toBeTruthy();
    expect(within(card).getByText("The plan is not in the form it must have.")).toBeTruthy();
    const details = card.querySelector("details");
    expect(details).not.toBeNull();
    expect(details?.open).toBe(false);
    expect(details?.querySelector("pre")?.textContent).toContain(written);
  });

  it("never puts the raw JSON in the answer's text", () => {
    const { container } = show(answer());
    const text = container.querySelector(".pc-message-content")?.textContent ?? "";
    expect(text).toContain("Ask away.");
    expect(text).not.toContain("several");
  });

  it("shows nothing for a message without error cards, or with malformed ones", () => {
    show({ ...answer(), payloads: [{ type: "payload_error", data: { reason: 3 } }, { type: "plan", data: {} }] });
    expect(screen.queryByRole("note")).toBeNull();
  });
});
