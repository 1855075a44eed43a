// @vitest-environment jsdom
// One set of controls: the approval card's, the feedback form's and the edit form's buttons are
// the one Button, each with the variant of what it does; badges are coloured by meaning.
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { createChatApi } from "../api";
import { AttachmentDrafts } from "../controller/attachments";
import type { ApprovalPublic, ToolHistoryEntry } from "../types";
import { ApprovalCard } from "./ApprovalCard";
import { Button } from "./Button";
import { EditMessage } from "./EditMessage";
import { FeedbackButtons } from "./FeedbackButtons";
import { ToolCallCard } from "./ToolCallCard";

const variant = (name: string) => screen.getByRole("button", { name }).getAttribute("data-variant");

const approval = (status: ApprovalPublic["status"]): ApprovalPublic => ({
  id: "a1",
  kind: "approval",
  tool: "delete_report",
  tool_use_id: "call_1",
  input: { report_id: 3 },
  reason: "Deleting a report cannot be undone.",
  status,
  note: null,
  expires_at: "2030-01-01T00:00:00Z",
});

describe("Button", () => {
  it("is a plain button of the secondary variant unless told otherwise", () => {
    render(
      <>
        <Button>Plain</Button>
        <Button variant="danger" size="sm" type="submit">
          Delete
        </Button>
      </>,
    );
    const plain = screen.getByRole("button", { name: "Plain" });
    expect(plain.getAttribute("type")).toBe("button");
    expect(plain.className).toBe("pc-btn");
    expect(plain.dataset).toMatchObject({ variant: "secondary", size: "md" });
    expect(screen.getByRole("button", { name: "Delete" }).dataset).toMatchObject({ variant: "danger", size: "sm" });
  });
});

describe("the tray's forms", () => {
  it("makes Approve the main action and Deny a danger one, on both steps", async () => {
    render(<ApprovalCard approval={approval("pending")} enabled onDecide={() => Promise.resolve()} />);
    expect(variant("Approve")).toBe("primary");
    expect(variant("Deny…")).toBe("danger");
    await userEvent.click(screen.getByRole("button", { name: "Deny…" }));
    expect(variant("Deny")).toBe("danger");
    expect(variant("Back")).toBe("secondary");
  });

  it("offers no Approve or Deny for a call the app's own tool runs", () => {
    render(<ApprovalCard approval={{ ...approval("pending"), kind: "frontend_tool" }} enabled onDecide={() => Promise.resolve()} />);
    expect(screen.getByRole("region", { name: "Waiting for delete_report" }).textContent).toContain("waits for the app to run delete_report");
    expect(screen.queryAllByRole("button")).toHaveLength(0);
  });

  it("styles Save feedback, Close, Submit edit and Cancel", async () => {
    render(
      <>
        <FeedbackButtons feedback={null} onRate={() => Promise.resolve(true)} />
        <EditMessage initial="hi" drafts={new AttachmentDrafts({ api: createChatApi({ getToken: () => null }) })} onSend={() => undefined} onCancel={() => undefined} />
      </>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Good answer" }));
    expect(variant("Save feedback")).toBe("primary");
    expect(variant("Close")).toBe("quiet");
    expect(variant("Submit edit")).toBe("primary");
    expect(variant("Cancel")).toBe("secondary");
  });
});

describe("status badges", () => {
  const entry = (status: ApprovalPublic["status"] | null, isError = false): ToolHistoryEntry => ({
    tool_name: "delete_report",
    input: {},
    output: "",
    is_error: isError,
    tool_use_id: "t1",
    payload: null,
    approval: status === null ? null : approval(status),
    in_answer: false,
    sources: [],
  });

  it.each([
    ["approved", false, "success", "approved"],
    ["denied", true, "danger", "denied"],
    ["expired", true, "danger", "not approved in time"],
    ["pending", false, "warning", "waiting for approval"],
    ["approved", true, "danger", "approved, failed"],
  ] as const)("shows a %s call (error %s) as %s", (status, isError, tone, text) => {
    const { container } = render(<ToolCallCard entry={entry(status, isError)} />);
    const badge = container.querySelector(".pc-tool-card-badge");
    expect(badge?.getAttribute("data-tone")).toBe(tone);
    expect(badge?.textContent).toBe(text);
  });

  it("shows a failed call without approval as danger", () => {
    const { container } = render(<ToolCallCard entry={entry(null, true)} />);
    expect(container.querySelector(".pc-tool-card-badge")?.getAttribute("data-tone")).toBe("danger");
  });
});
