// A tool-using turn as the server streams it, and the same turn as the server stores it
// (src/pagechat/chat/service.py folds the stored message from the same events).
import type { ConversationDetail, MessagePublic, StreamEvent, ToolHistoryEntry } from "../src/types";

export const toolEntry: ToolHistoryEntry = {
  tool_name: "search_pubmed",
  input: { query: "CRISPR" },
  output: "Found 5 articles: ...",
  is_error: false,
  tool_use_id: "toolu_1",
  payload: null,
  approval: null,
  in_answer: false,
};

export const finalText =
  "Let me search.[[tool:0]]I found **5 articles**.\n\n```choices\n" +
  '{"question":"Which one?","options":[{"label":"The first","value":"first"},{"label":"The second","value":"second"}]}\n```';

export const liveEvents: StreamEvent[] = [
  { type: "status", message: "Thinking..." },
  { type: "text_delta", text: "Let me " },
  { type: "text_delta", text: "search." },
  { type: "tool_start", tool: "search_pubmed", input: { query: "CRISPR" }, tool_use_id: "toolu_1" },
  { type: "tool_progress", tool: "search_pubmed", stage: "searching", message: "Searching PubMed...", progress: null, data: null },
  { type: "tool_progress", tool: "search_pubmed", stage: "fetching", message: "Fetched 3 of 5", progress: 0.6, data: null },
  { type: "tool_complete", tool: "search_pubmed", index: 0, is_error: false, output: "Found 5 articles: ...", payload: null, approval: null, usage: null, changes: null },
  { type: "text_delta", text: "[[tool:0]]" },
  { type: "text_delta", text: "I found **5 articles**.\n\n```choices\n" },
  {
    type: "text_delta",
    text: '{"question":"Which one?","options":[{"label":"The first","value":"first"},{"label":"The second","value":"second"}]}\n```',
  },
  {
    type: "complete",
    payload: {
      message: finalText,
      reasoning: null,
      suggested_values: [{ label: "More", value: "Show me more" }],
      suggested_actions: [{ label: "Close", action: "close_chat", handler: "client", data: null, style: "secondary" }],
      custom_payload: { type: "tool_history", data: [toolEntry] },
      payloads: [],
      tool_history: [toolEntry],
      conversation_id: "c1",
      message_id: "m2",
      usage: { input_tokens: 10, output_tokens: 20, cache_read_tokens: 0, cache_write_tokens: 0 },
      warnings: [],
      stop_reason: "end_turn",
    },
  },
];

export function stored(partial: Partial<MessagePublic> & Pick<MessagePublic, "id" | "role" | "content">): MessagePublic {
  return {
    status: "complete",
    created_at: "2025-01-01T00:00:00Z",
    suggested_values: null,
    suggested_actions: null,
    custom_payload: null,
    payloads: [],
    tool_history: [],
    usage: null,
    error: null,
    warnings: [],
    context_audit: null,
    run_id: null,
    payload_decision: null,
    stop_reason: null,
    reasoning: null,
    approval: null,
    parent_id: null,
    attachments: [],
    sibling_count: 1,
    sibling_position: 1,
    feedback: null,
    model: null,
    ...partial,
  };
}

export const storedConversation: ConversationDetail = {
  id: "c1",
  title: "CRISPR",
  created_at: "2025-01-01T00:00:00Z",
  updated_at: "2025-01-01T00:00:00Z",
  older: null,
  active_leaf_id: null,
  messages: [
    stored({ id: "m1", role: "user", content: "Find CRISPR papers", run_id: "r1" }),
    stored({
      id: "m2",
      role: "assistant",
      content: finalText,
      suggested_values: [{ label: "More", value: "Show me more" }],
      suggested_actions: [{ label: "Close", action: "close_chat", handler: "client", data: null, style: "secondary" }],
      custom_payload: { type: "tool_history", data: [toolEntry] },
      tool_history: [toolEntry],
      usage: { input_tokens: 10, output_tokens: 20, cache_read_tokens: 0, cache_write_tokens: 0 },
      run_id: "r1",
      stop_reason: "end_turn",
    }),
  ],
};
