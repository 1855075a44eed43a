// @vitest-environment jsdom
// Attachments in the tray, on a real ChatApi over a scripted fetch: a file picked, pasted or
// dropped uploads at once and shows a chip; Send waits for it; the sent message shows its files
// as download links, the same after a reload; an edit keeps, removes and adds files.
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stored } from "../../test/fixtures";
import { FakeFetch, json, SseResponse } from "../../test/sse-server";
import { createChatApi } from "../api";
import { ChatTray } from "../ChatTray";
import type { AttachmentRef, ConversationDetail, StreamEvent } from "../types";
import { MessageAttachments } from "./MessageAttachments";

const png = () => new File([new Uint8Array([137, 80, 78, 71])], "screenshot.png", { type: "image/png" });
const pdf = () => new File(["%PDF-1.4 a paper"], "paper.pdf", { type: "application/pdf" });
const shot: AttachmentRef = { id: "a1", name: "screenshot.png", media_type: "image/png", size: 2048 };
const paper: AttachmentRef = { id: "a2", name: "paper.pdf", media_type: "application/pdf", size: 1_572_864 };

const complete = (message: string): StreamEvent => ({
  type: "complete",
  payload: {
    message,
    reasoning: null,
    suggested_values: null,
    suggested_actions: null,
    custom_payload: null,
    payloads: [],
    tool_history: [],
    sources: [],
    conversation_id: "c1",
    message_id: "m2",
    usage: null,
    warnings: [],
    stop_reason: "end_turn",
  },
});

function later() {
  let resolve: (value: Response) => void = () => undefined;
  const promise = new Promise<Response>((r) => (resolve = r));
  return { promise, resolve };
}

function renderTray({ conversation }: { conversation?: ConversationDetail } = {}) {
  const fake = new FakeFetch();
  const api = createChatApi({ getToken: () => "tok", fetch: fake.fetch });
  localStorage.setItem("pagechat.open", "true");
  if (conversation) {
    localStorage.setItem("pagechat.conversation", JSON.stringify(conversation.id));
    fake.always("GET", `/api/conversations/${conversation.id}`, () => json(conversation));
  }
  const user = userEvent.setup();
  const view = render(<ChatTray context={{ current_page: "demo" }} getToken={() => "tok"} api={api} welcome="Hello" />);
  return { fake, user, ...view };
}

const input = () => screen.getByRole<HTMLTextAreaElement>("textbox", { name: "Message" });
const sendButton = () => screen.getByRole<HTMLButtonElement>("button", { name: "Send" });
const chips = () => screen.getByRole("list", { name: "Attached files" });
const picker = (container: HTMLElement) => container.querySelector<HTMLInputElement>("input[data-attach-input]");
const log = () => screen.getByRole("log");

/** The links of the files a sent message shows: [text, href, download name]. */
function sentLinks(): [string, string | null, string | null][] {
  return within(log())
    .getAllByRole("link")
    .map((a) => [a.textContent, a.getAttribute("href"), a.getAttribute("download")]);
}

const revoked = vi.fn();

beforeEach(() => {
  let n = 0;
  URL.createObjectURL = vi.fn(() => `blob:preview-${String((n += 1))}`);
  URL.revokeObjectURL = revoked;
});

afterEach(() => {
  localStorage.clear();
});

describe("attachments in the tray", () => {
  it("uploads a picked file at once, holds Send while it uploads, then sends it with the message", async () => {
    const { fake, user, container } = renderTray();
    const upload = later();
    fake.on("POST", "/api/attachments", () => upload.promise);
    await user.click(screen.getByRole("button", { name: "Attach files" }));
    const field = picker(container);
    expect(field).not.toBeNull();
    await user.upload(field as HTMLInputElement, pdf());
    expect(within(chips()).getByText("paper.pdf")).toBeTruthy();
    expect(within(chips()).getByText("Uploading…")).toBeTruthy();
    expect(within(chips()).getByRole("progressbar", { name: "Uploading paper.pdf" })).toBeTruthy();
    await user.type(input(), "What does it add?");
    expect(sendButton().disabled).toBe(true);
    upload.resolve(json(paper, 201));
    expect(await within(chips()).findByText("PDF · 1.5 MB")).toBeTruthy();
    expect(sendButton().disabled).toBe(false);

    const stream = new SseResponse({ "X-Run-Id": "r1", "X-Conversation-Id": "c1" });
    fake.on("POST", "/api/chat/stream", () => stream.response);
    await user.click(sendButton());
    expect(fake.calls.at(-1)?.body).toMatchObject({ message: "What does it add?", attachments: ["a2"] });
    // The chips leave the composer; the message shows the file as a download link.
    expect(screen.queryByRole("list", { name: "Attached files" })).toBeNull();
    expect(sentLinks()).toEqual([["paper.pdfPDF · 1.5 MB", "/api/attachments/a2", "paper.pdf"]]);
    stream.send(1, complete("It adds a trial."));
    expect(await within(log()).findByText("It adds a trial.")).toBeTruthy();
  });

  it("attaches a pasted image with a thumbnail of the file itself, and sends it without text", async () => {
    const { fake, user } = renderTray();
    fake.on("POST", "/api/attachments", () => json(shot, 201));
    const file = png();
    fireEvent.paste(input(), { clipboardData: { files: [file], items: [], types: ["Files"] } });
    const chip = (await within(chips()).findByText("PNG image · 2 KB")).closest("li");
    expect(chip?.querySelector("img")?.getAttribute("src")).toBe("blob:preview-1");
    expect(input().value).toBe("");
    const stream = new SseResponse({ "X-Run-Id": "r1", "X-Conversation-Id": "c1" });
    fake.on("POST", "/api/chat/stream", () => stream.response);
    await user.click(sendButton());
    expect(fake.calls.at(-1)?.body).toMatchObject({ message: "", attachments: ["a1"] });
    // Sent, the image is read from the server, as after a reload.
    const link = within(log()).getByRole("link");
    expect(link.querySelector("img")?.getAttribute("src")).toBe("/api/attachments/a1");
    expect(revoked).toHaveBeenCalledWith("blob:preview-1");
  });

  it("attaches files dropped anywhere on the tray", async () => {
    const { fake } = renderTray();
    fake.on("POST", "/api/attachments", () => json(paper, 201));
    const tray = screen.getByRole("complementary");
    const data = { files: [pdf()], items: [], types: ["Files"] };
    fireEvent.dragEnter(tray, { dataTransfer: data });
    expect(screen.getByText("Drop files to attach them")).toBeTruthy();
    fireEvent.drop(tray, { dataTransfer: data });
    expect(screen.queryByText("Drop files to attach them")).toBeNull();
    expect(await within(chips()).findByText("PDF · 1.5 MB")).toBeTruthy();
  });

  it("leaves text dragged over the tray alone", () => {
    renderTray();
    const tray = screen.getByRole("complementary");
    fireEvent.dragEnter(tray, { dataTransfer: { files: [], items: [], types: ["text/plain"] } });
    expect(screen.queryByText("Drop files to attach them")).toBeNull();
  });

  it("removes a file before sending (deleting it on the server) with a labelled ×", async () => {
    const { fake, user, container } = renderTray();
    fake.on("POST", "/api/attachments", () => json(paper, 201));
    fake.on("DELETE", "/api/attachments/a2", () => new Response(null, { status: 204 }));
    await user.upload(picker(container) as HTMLInputElement, pdf());
    await within(chips()).findByText("PDF · 1.5 MB");
    await user.click(screen.getByRole("button", { name: "Remove paper.pdf" }));
    expect(screen.queryByRole("list", { name: "Attached files" })).toBeNull();
    await waitFor(() => {
      expect(fake.calls.some((c) => c.method === "DELETE" && c.url === "/api/attachments/a2")).toBe(true);
    });
    expect(sendButton().disabled).toBe(true);
  });

  it("shows what the server says when it refuses a file, next to the chips", async () => {
    const { fake, user, container } = renderTray();
    fake.on("POST", "/api/attachments", () => json({ detail: "Files are limited to 10 MB each." }, 413));
    await user.upload(picker(container) as HTMLInputElement, pdf());
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe("paper.pdf: Files are limited to 10 MB each.");
    await user.click(within(alert).getByRole("button", { name: "Dismiss the error about paper.pdf" }));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows a reloaded message's files exactly as the live one did", async () => {
    const conversation: ConversationDetail = {
      id: "c1",
      title: "A paper",
      created_at: "2025-01-01T00:00:00Z",
      updated_at: "2025-01-01T00:00:00Z",
      older: null,
      active_leaf_id: null,
      messages: [
        stored({ id: "m1", role: "user", content: "What does it add?", attachments: [shot, paper] }),
        stored({ id: "m2", role: "assistant", content: "It adds a trial." }),
      ],
    };
    renderTray({ conversation });
    expect(await within(log()).findByText("It adds a trial.")).toBeTruthy();
    expect(sentLinks()).toEqual([
      ["screenshot.pngPNG image · 2 KB", "/api/attachments/a1", "screenshot.png"],
      ["paper.pdfPDF · 1.5 MB", "/api/attachments/a2", "paper.pdf"],
    ]);
    const [image, file] = within(log()).getAllByRole("link");
    expect(image?.querySelector("img")?.getAttribute("src")).toBe("/api/attachments/a1");
    expect(file?.querySelector("img")).toBeNull();
  });

  it("edits a question keeping one file, removing another (not deleted: the old version has it) and adding one", async () => {
    const conversation: ConversationDetail = {
      id: "c1",
      title: "A paper",
      created_at: "2025-01-01T00:00:00Z",
      updated_at: "2025-01-01T00:00:00Z",
      older: null,
      active_leaf_id: null,
      messages: [
        stored({ id: "m1", role: "user", content: "Compare", attachments: [shot, paper] }),
        stored({ id: "m2", role: "assistant", content: "Done." }),
      ],
    };
    const { fake, user, container } = renderTray({ conversation });
    await within(log()).findByText("Done.");
    await user.click(screen.getByRole("button", { name: "Edit message" }));
    const form = screen.getByRole("form", { name: "Edit message" });
    expect(within(form).getByText("screenshot.png")).toBeTruthy();
    await user.click(within(form).getByRole("button", { name: "Remove paper.pdf" }));
    const added: AttachmentRef = { id: "a3", name: "notes.txt", media_type: "text/plain", size: 12 };
    fake.on("POST", "/api/attachments", () => json(added, 201));
    const inputs = container.querySelectorAll<HTMLInputElement>("input[data-attach-input]");
    await user.upload(inputs[0] as HTMLInputElement, new File(["some notes"], "notes.txt", { type: "text/plain" }));
    await within(form).findByText("Text · 12 B");
    const stream = new SseResponse({ "X-Run-Id": "r2", "X-Conversation-Id": "c1" });
    fake.on("POST", "/api/conversations/c1/messages/m1/edit", () => stream.response);
    await user.click(within(form).getByRole("button", { name: "Submit edit" }));
    const edit = fake.calls.find((c) => c.url.endsWith("/edit"));
    expect(edit?.body).toMatchObject({ message: "Compare", attachments: ["a1", "a3"] });
    expect(fake.calls.some((c) => c.method === "DELETE")).toBe(false);
    expect(sentLinks().map(([text]) => text)).toEqual(["screenshot.pngPNG image · 2 KB", "notes.txtText · 12 B"]);
    await act(async () => {
      stream.send(1, complete("Compared."));
      await Promise.resolve();
    });
  });
});

describe("MessageAttachments", () => {
  it("shows nothing for a message without files", () => {
    const { container } = render(<MessageAttachments attachments={[]} />);
    expect(container.innerHTML).toBe("");
  });

  it("names each file and what it is, as a link that downloads it", () => {
    render(<MessageAttachments attachments={[paper]} />);
    const link = screen.getByRole("link", { name: /paper\.pdf/ });
    expect(link.getAttribute("download")).toBe("paper.pdf");
    expect(link.textContent).toBe("paper.pdfPDF · 1.5 MB");
  });
});
