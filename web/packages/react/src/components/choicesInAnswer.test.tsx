// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ChoiceContext } from "./ChoiceContext";
import { MessageContent } from "./MessageContent";

const block = '```choices\n{"question":"How should I add it?","options":[{"label":"RSS feed","value":"rss"},{"label":"Agentic","value":"agentic"}]}\n```';

describe("present_choices shown in the answer", () => {
  afterEach(cleanup);

  it("renders the choices as buttons with no tool card for the call", () => {
    const { container } = render(
      <ChoiceContext.Provider value={{ mode: "open", selected: null, choose: () => undefined }}>
        <MessageContent
          content={`Two ways.\n\n${block}`}
          toolHistory={[
            {
              tool_name: "present_choices",
              input: {},
              output: block,
              is_error: false,
              tool_use_id: "t1",
              payload: null,
              approval: null,
              in_answer: true,
              sources: [],
            },
          ]}
        />
      </ChoiceContext.Provider>,
    );
    expect(screen.getByRole("button", { name: "RSS feed" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Agentic" })).toBeTruthy();
    expect(container.querySelector(".pc-tool-card")).toBeNull();
    expect(container.textContent).not.toContain("present_choices");
  });
});
