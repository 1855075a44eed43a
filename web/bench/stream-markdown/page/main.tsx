// The benchmark page: streams a long markdown answer through the real chat UI (ChatController,
// useChat, MessageList with block-memoized markdown) or through a naive component that
// re-renders the whole markdown on every update, and reports when the answer is on screen.
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import type { ChatApi, StreamItem } from "../../../packages/react/src/api";
import { MessageList } from "../../../packages/react/src/components/MessageList";
import type { ChatResponsePayload } from "../../../packages/react/src/types";
import { useChat } from "../../../packages/react/src/useChat";
import "../../../packages/react/src/chat.css";

/** A deterministic markdown answer of about `tokens` tokens (one token ≈ one word piece). */
export function makeAnswer(tokens: number): string[] {
  const words = "the gene edits were measured across several cohorts with careful controls".split(" ");
  const pieces: string[] = [];
  let section = 0;
  const push = (text: string) => {
    // Split into word-sized deltas, the way a model streams.
    for (const part of text.match(/\s*\S+|\s+/g) ?? []) pieces.push(part);
  };
  while (pieces.length < tokens) {
    section += 1;
    push(`\n\n## Section ${String(section)}\n\n`);
    for (let p = 0; p < 2; p++) {
      push(
        Array.from({ length: 40 }, (_, i) => (i % 9 === 0 ? `**${words[i % words.length] ?? ""}**` : words[(i + p) % words.length]))
          .join(" ") + ".\n\n",
      );
    }
    push("- first finding with `inline code`\n- second finding\n- third finding with a [link](https://example.com)\n\n");
    push("```python\nfor i in range(10):\n    print(i * i)\n```\n\n");
    push("| cohort | n | effect |\n|---|---|---|\n| A | 120 | 0.4 |\n| B | 98 | 0.2 |\n\n");
  }
  return pieces.slice(0, tokens);
}

const TOKENS_PER_CHUNK = 10;
const CHUNKS_PER_FRAME = 4;

const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();
/** A new macrotask, as the next network chunk would be. */
const nextTask = () =>
  new Promise<void>((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => { resolve(); }));

/** Delivers the deltas like a fast model: network chunks of a few tokens, a few chunks a frame. */
async function* deltas(pieces: string[]): AsyncGenerator<string[]> {
  for (let i = 0; i < pieces.length; i += TOKENS_PER_CHUNK) {
    if ((i / TOKENS_PER_CHUNK) % CHUNKS_PER_FRAME === 0) await nextFrame();
    await nextTask();
    yield pieces.slice(i, i + TOKENS_PER_CHUNK);
  }
}

function payload(message: string): ChatResponsePayload {
  return {
    message,
    suggested_values: null,
    suggested_actions: null,
    custom_payload: null,
    payloads: [],
    tool_history: [],
    reasoning: null,
    sources: [],
    conversation_id: "c",
    message_id: "m",
    usage: null,
    warnings: [],
    stop_reason: "end_turn",
  };
}

function fakeApi(pieces: string[]): ChatApi {
  const unused = () => Promise.reject(new Error("not in the bench"));
  return {
    async *chatStream(): AsyncGenerator<StreamItem> {
      yield { kind: "run", runId: "r", conversationId: "c" };
      let id = 0;
      for await (const chunk of deltas(pieces)) {
        for (const text of chunk) yield { kind: "event", id: ++id, event: { type: "text_delta", text } };
      }
      yield { kind: "event", id: id + 1, event: { type: "complete", payload: payload(pieces.join("")) } };
    },
    // eslint-disable-next-line require-yield
    async *resumeRun(): AsyncGenerator<StreamItem> {
      await unused();
    },
    cancelRun: unused,
    // eslint-disable-next-line require-yield
    async *branchStream(): AsyncGenerator<StreamItem> {
      await unused();
    },
    selectBranch: unused,
    setFeedback: unused,
    listConversations: unused,
    searchConversations: unused,
    decideApproval: unused,
    getConversation: unused,
    renameConversation: unused,
    deleteConversation: unused,
    decidePayload: unused,
    runAction: unused,
    payloadTypes: unused,
    uploadAttachment: unused,
    deleteAttachment: unused,
    attachmentUrl: (id) => `/api/attachments/${id}`,
    fetchAttachment: unused,
    login: unused,
    me: unused,
    logout: unused,
  };
}

function Ours({ api, onDone }: { api: ChatApi; onDone: () => void }) {
  const chat = useChat({ api, context: {} });
  const { send, status, messages } = chat;
  useEffect(() => {
    void send("go");
  }, [send]);
  useEffect(() => {
    if (status === "ready" && messages.length === 2) onDone();
  }, [status, messages, onDone]);
  return (
    <MessageList
      chat={chat}
      welcome=""
      onSend={() => undefined}
      isActionAvailable={() => false}
      onRunAction={() => Promise.resolve()}
      resolveHandler={() => undefined}
      onViewPayload={() => undefined}
    />
  );
}

function Naive({ pieces, onDone }: { pieces: string[]; onDone: () => void }) {
  const [text, setText] = useState("");
  const [done, setDone] = useState(false);
  useEffect(() => {
    void (async () => {
      for await (const chunk of deltas(pieces)) {
        for (const piece of chunk) setText((t) => t + piece);
      }
      setDone(true);
    })();
  }, [pieces]);
  useEffect(() => {
    if (done) onDone();
  }, [done, onDone]);
  return (
    <div className="pc-messages" style={{ overflowY: "auto", height: "100%" }}>
      <div className="pc-markdown">
        <Markdown remarkPlugins={[remarkGfm]}>{text}</Markdown>
      </div>
    </div>
  );
}

declare global {
  interface Window {
    runBench: (mode: "ours" | "naive", tokens: number) => Promise<{ wallMs: number; chars: number; rendered: number }>;
  }
}

window.runBench = (mode, tokens) =>
  new Promise((resolve) => {
    const pieces = makeAnswer(tokens);
    const container = document.getElementById("root");
    if (container === null) throw new Error("no #root");
    const root = createRoot(container);
    const start = performance.now();
    const onDone = () => {
      // Wait for the frame that shows the final answer.
      requestAnimationFrame(() => {
        setTimeout(() => {
          resolve({
            wallMs: performance.now() - start,
            chars: pieces.join("").length,
            rendered: container.textContent.length,
          });
        }, 0);
      });
    };
    root.render(mode === "ours" ? <Ours api={fakeApi(pieces)} onDone={onDone} /> : <Naive pieces={pieces} onDone={onDone} />);
  });
