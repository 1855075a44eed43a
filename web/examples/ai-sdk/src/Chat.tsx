// The chat: useChat with DefaultChatTransport against pagechat's `/api/ai-sdk/{page}`.
import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  getToolName,
  isToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
} from "ai";
import { useEffect, useRef, useState, type SubmitEvent } from "react";
import { pagechatDataPartSchemas } from "./generated/pagechat";
import type { ChatMessage } from "./history";
import { MessageView } from "./MessageView";

const PAGE = "desk";
const API = `/api/ai-sdk/${PAGE}`;

/** The CSRF token pagechat's sign-in set beside its session cookie. */
function csrfToken(): string {
  return /(?:^|; )pagechat_csrf=([^;]*)/.exec(document.cookie)?.[1] ?? "";
}

// The app's own tool, run in the browser: pagechat pauses the answer until its output comes.
const CLIENT_TOOLS = [
  {
    name: "read_title",
    description: "Read the title of the page the user is on.",
    parameters: { type: "object", properties: {} },
  },
];

export function Chat({ chatId, initial, resumable }: { chatId: string; initial: ChatMessage[]; resumable: boolean }) {
  const [input, setInput] = useState("");
  const { messages, sendMessage, status, error, stop, addToolApprovalResponse, addToolOutput } = useChat<ChatMessage>({
    id: chatId,
    messages: initial,
    resume: resumable,
    dataPartSchemas: pagechatDataPartSchemas,
    transport: new DefaultChatTransport({
      api: API,
      headers: () => ({ "X-CSRF-Token": csrfToken() }),
      // The page context, the client's tools and the resumable opt-in ride along.
      body: { context: { screen: "ledger" }, tools: CLIENT_TOOLS, resumable },
    }),
    sendAutomaticallyWhen: (options) =>
      lastAssistantMessageIsCompleteWithApprovalResponses(options) || lastAssistantMessageIsCompleteWithToolCalls(options),
    onToolCall: ({ toolCall }) => {
      if (toolCall.toolName === "read_title") runClientTool(toolCall.toolCallId);
    },
  });

  function runClientTool(toolCallId: string) {
    void addToolOutput({ tool: "read_title", toolCallId, output: document.title });
  }

  // A call of the app's tool the stored answer still waits for (the page was closed before
  // its output was sent): onToolCall fires only for streamed calls, so run it here, once.
  const rerun = useRef(false);
  useEffect(() => {
    if (rerun.current) return;
    rerun.current = true;
    for (const part of initial.at(-1)?.parts ?? []) {
      if (isToolUIPart(part) && part.state === "input-available" && getToolName(part) === "read_title") runClientTool(part.toolCallId);
    }
  });
  const busy = status === "submitted" || status === "streaming";

  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!input.trim()) return;
    void sendMessage({ text: input });
    setInput("");
  }

  async function onStop() {
    // A resumable answer runs on without its connection: the stop route stops it.
    if (resumable) await fetch(`${API}/${encodeURIComponent(chatId)}/stop`, { method: "POST", headers: { "X-CSRF-Token": csrfToken() } });
    await stop();
  }

  return (
    <section aria-label="Chat">
      {messages.map((message) => (
        <MessageView
          key={message.id}
          message={message}
          onDecide={(id, approved) => void addToolApprovalResponse({ id, approved, reason: approved ? undefined : "Not now" })}
          onSend={(text) => void sendMessage({ text })}
        />
      ))}
      {error && <p role="alert">Error: {error.message}</p>}
      <p aria-live="polite" data-testid="status">{status}</p>
      <form onSubmit={submit}>
        <input type="text" aria-label="Message" value={input} onChange={(e) => { setInput(e.target.value); }} />
        <button type="submit" disabled={busy}>Send</button>
        <button type="button" onClick={() => void onStop()} disabled={!busy}>Stop</button>
      </form>
      {toolNames(messages).length > 0 && <p className="hint">Tools used: {toolNames(messages).join(", ")}</p>}
    </section>
  );
}

function toolNames(messages: ChatMessage[]): string[] {
  return [...new Set(messages.flatMap((m) => m.parts.filter(isToolUIPart).map((p) => getToolName(p))))];
}
