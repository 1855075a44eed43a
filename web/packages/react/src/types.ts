// UI-side types of the chat, built on the generated wire types.
import type {
  ApprovalPublic,
  AttachmentRef,
  CustomPayload,
  FeedbackPublic,
  MessagePublic,
  PayloadDecisionRequest,
  Reasoning,
  Source,
  SuggestedAction,
  SuggestedValue,
  ToolHistoryEntry,
  ToolProgressEvent,
} from "./generated/protocol";

export type * from "./generated/protocol";

export type MessageRole = MessagePublic["role"];
export type MessageStatus = MessagePublic["status"];
/** What the user did with an answer's card; `dismissed` is closing it undecided. */
export type PayloadDecision = PayloadDecisionRequest["decision"];

/** One message as the tray renders it: the same shape for a live turn and a stored one. */
export interface ChatMessage {
  id: string;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  suggested_values: SuggestedValue[];
  suggested_actions: SuggestedAction[];
  custom_payload: CustomPayload | null;
  payloads: CustomPayload[];
  tool_history: ToolHistoryEntry[];
  error: string | null;
  warnings: string[];
  run_id: string | null;
  /** What the user did with `custom_payload`; null while undecided (the card opens by itself). */
  payload_decision: PayloadDecision | null;
  /** `max_tokens`: the answer was cut off by the output limit. */
  stop_reason: string | null;
  /** The model's reasoning before the answer, and how long it took; null when it showed none. */
  reasoning: Reasoning | null;
  /** The answer's sources, numbered as its `[n]` citations name them; empty when none. */
  sources: Source[];
  /** The request a `needs_approval` answer waits for. */
  approval: ApprovalPublic | null;
  /** When it was written (ISO 8601); null for a message not yet stored. */
  created_at: string | null;
  /** How many versions this message has (regenerated answers, edited questions), and which this is (from 1). */
  sibling_count: number;
  sibling_position: number;
  /** The user's own thumbs on this answer. */
  feedback: FeedbackPublic | null;
  /** The files sent with a user message (none for other roles). */
  attachments: AttachmentRef[];
}

/** Thumbs up or down. */
export type FeedbackRating = FeedbackPublic["rating"];

/**
 * - `ready`: nothing running, a message can be sent.
 * - `submitted`: the message is sent, no event has arrived yet.
 * - `streaming`: events are arriving.
 * - `reconnecting`: the connection dropped; the run is being resumed.
 * - `error`: the last turn failed; `error` says how, `retry` may fix it.
 */
export type ChatStatus = "ready" | "submitted" | "streaming" | "reconnecting" | "error";

/** What Retry does: send the last message again, or resume the run where the stream broke. */
export type RetryMode = "resend" | "resume" | "none";

export interface ChatError {
  message: string;
  retry: RetryMode;
  /** True when the error is shown inside the assistant message it ended (a run error). */
  inMessage: boolean;
}

/** The tool running now: the amber card. */
export interface ActiveToolProgress {
  toolName: string;
  toolUseId: string;
  input: Record<string, unknown>;
  stage: string;
  message: string;
  /** 0..1 when the tool knows how far it is, else null. */
  progress: number | null;
  updates: ToolProgressEvent[];
}
