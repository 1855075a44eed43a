// The HTTP client of the chat: the SSE stream of a turn (with resume), stop, history,
// card decisions, actions and login. Requests carry `Authorization: Bearer <token>` when the
// app gives one (API clients, embedding); else the browser's session cookie, with its CSRF token.
import { withCsrf } from "./csrf";
import { parseStreamEvent } from "./events";
import { parsePayloadTypes, type PayloadTypeCatalog } from "./payloadTypes";
import type {
  ActionRequest,
  ActionResult,
  ApprovalDecisionRequest,
  ApprovalDecisionResult,
  AttachmentRef,
  BranchTurnRequest,
  ChatRequest,
  ConversationDetail,
  ConversationList,
  ConversationPublic,
  ConversationSearchResults,
  EditRequest,
  FeedbackRequest,
  MessagePublic,
  PayloadDecision,
  StreamEvent,
  Token,
  UserPublic,
} from "./types";
import { readSse } from "./sse";

export type TokenGetter = () => string | null | undefined | Promise<string | null | undefined>;

export interface RetryOptions {
  /** Reconnection attempts after a drop before giving up (the user can still press Retry). */
  attempts: number;
  /** First delay; doubled on each attempt, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface ChatApiOptions {
  /** Prefix of the API routes; "" means the page's own origin. */
  baseUrl?: string;
  getToken: TokenGetter;
  /** Called on any 401: the host logs the user out. */
  onUnauthorized?: () => void;
  fetch?: typeof fetch;
  retry?: Partial<RetryOptions>;
  /** A stream that sends nothing (not even a ping) for this long counts as dropped. */
  idleTimeoutMs?: number;
}

/** What a turn's stream yields: the run it started, its events, and reconnection notices. */
export type StreamItem =
  | { kind: "run"; runId: string; conversationId: string | null }
  | { kind: "event"; id: number | null; event: StreamEvent }
  | { kind: "reconnecting"; attempt: number };

export class HttpError extends Error {
  readonly status: number;
  readonly detail: unknown;
  constructor(status: number, detail: unknown) {
    super(describeDetail(status, detail));
    this.name = "HttpError";
    this.status = status;
    this.detail = detail;
  }
}

export class UnauthorizedError extends HttpError {
  constructor(detail: unknown) {
    super(401, detail);
    this.name = "UnauthorizedError";
  }
}

/** The connection broke and could not be resumed after every retry. */
export class StreamDroppedError extends Error {
  readonly runId: string | null;
  readonly lastEventId: number;
  constructor(runId: string | null, lastEventId: number, cause?: unknown) {
    super("The connection to the server was lost.", { cause });
    this.name = "StreamDroppedError";
    this.runId = runId;
    this.lastEventId = lastEventId;
  }
}

export interface ChatApi {
  /** POST /api/chat/stream; resumes by itself when the connection drops. */
  chatStream(request: ChatRequest, signal?: AbortSignal): AsyncGenerator<StreamItem>;
  /** GET /api/chat/runs/{id}/events from `lastEventId` on (0 = from the start). */
  resumeRun(runId: string, lastEventId: number, signal?: AbortSignal): AsyncGenerator<StreamItem>;
  cancelRun(runId: string): Promise<void>;
  listConversations(offset?: number, limit?: number): Promise<ConversationList>;
  /** The user's conversations whose title or messages hold every word of `query`. */
  searchConversations(query: string, limit?: number, signal?: AbortSignal): Promise<ConversationSearchResults>;
  /** The newest page of a conversation; with `before` (a page's `older`), the page before it. */
  getConversation(id: string, before?: string | null): Promise<ConversationDetail>;
  renameConversation(id: string, title: string): Promise<ConversationPublic>;
  deleteConversation(id: string): Promise<void>;
  /** Records what the user did with a message's card; answers the message as it now is. */
  decidePayload(conversationId: string, messageId: string, decision: PayloadDecision): Promise<MessagePublic>;
  runAction(request: ActionRequest): Promise<ActionResult>;
  /** GET /api/payload-types: each payload type's schema and the action that accepts it per page. */
  payloadTypes(): Promise<PayloadTypeCatalog>;
  /** Approves or denies a tool call a paused answer waits for; names the run that goes on. */
  decideApproval(approvalId: string, request: ApprovalDecisionRequest): Promise<ApprovalDecisionResult>;
  /** Regenerate an answer, edit and resend a question, or continue a stopped answer: a run like a turn's. */
  branchStream(
    conversationId: string,
    messageId: string,
    kind: BranchKind,
    body: BranchTurnRequest | EditRequest,
    signal?: AbortSignal,
  ): AsyncGenerator<StreamItem>;
  /** Shows the sibling of a message at `position`; answers the conversation's newest page as it now reads. */
  selectBranch(conversationId: string, messageId: string, position: number): Promise<ConversationDetail>;
  /** Thumbs up or down on an answer, with an optional comment; answers the message. */
  setFeedback(conversationId: string, messageId: string, body: FeedbackRequest): Promise<MessagePublic>;
  /** POST /api/attachments: stores one file (multipart, field `file`); answers what was stored. */
  uploadAttachment(file: File, signal?: AbortSignal): Promise<AttachmentRef>;
  /** DELETE /api/attachments/{id}: a file removed before its message was sent. */
  deleteAttachment(id: string): Promise<void>;
  /** Where an attachment's bytes are (GET, with the browser's session cookie). */
  attachmentUrl(id: string): string;
  /** An attachment's bytes fetched with the client's credentials (its token, when it has one). */
  fetchAttachment(id: string): Promise<Blob>;
  login(email: string, password: string): Promise<Token>;
  me(): Promise<UserPublic>;
  /** Ends the browser's session (its cookie). */
  logout(): Promise<void>;
}

const TERMINAL = new Set<StreamEvent["type"]>(["complete", "error", "cancelled", "approval_requested"]);

export function isTerminal(event: StreamEvent): boolean {
  return TERMINAL.has(event.type);
}

function describeDetail(status: number, detail: unknown): string {
  if (typeof detail === "string" && detail) return detail;
  if (Array.isArray(detail) && detail.length > 0) {
    const first: unknown = detail[0];
    if (typeof first === "object" && first !== null && "msg" in first) return String(first.msg);
  }
  if (status === 401) return "Your session has expired. Please sign in again.";
  if (status === 404) return "Not found.";
  if (status >= 500) return `The server failed (${status}). Please try again.`;
  return `Request failed (${status}).`;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (error instanceof DOMException && error.name === "AbortError");
}

/** A resume that cannot succeed by trying again: the run is gone or the request is wrong. */
function isFatal(error: unknown): boolean {
  return error instanceof HttpError && error.status < 500 && error.status !== 408 && error.status !== 429;
}

/** What a branch run does (the route's last segment). */
export type BranchKind = "regenerate" | "edit" | "continue";

function messagePath(conversationId: string, messageId: string): string {
  return `/api/conversations/${encodeURIComponent(conversationId)}/messages/${encodeURIComponent(messageId)}`;
}

function attachmentPath(id: string): string {
  return `/api/attachments/${encodeURIComponent(id)}`;
}

export function createChatApi(options: ChatApiOptions): ChatApi {
  const base = (options.baseUrl ?? "").replace(/\/$/, "");
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const retry: RetryOptions = { attempts: 5, baseDelayMs: 300, maxDelayMs: 5_000, ...options.retry };
  const idleMs = options.idleTimeoutMs ?? 45_000;

  async function request(
    path: string,
    init: RequestInit & { auth?: boolean } = {},
  ): Promise<Response> {
    const headers = new Headers(init.headers);
    if (init.auth !== false) {
      const token = await options.getToken();
      if (token) headers.set("Authorization", `Bearer ${token}`);
    }
    // A form sets its own Content-Type (multipart, with its boundary).
    const isForm = typeof FormData !== "undefined" && init.body instanceof FormData;
    if (init.body !== undefined && !isForm && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
    withCsrf(init.method, headers);
    const response = await doFetch(`${base}${path}`, { ...init, headers, credentials: "same-origin" });
    if (response.ok) return response;
    const detail = await response
      .json()
      .then((body: unknown) => (typeof body === "object" && body !== null && "detail" in body ? body.detail : null))
      .catch(() => null);
    if (response.status === 401) {
      if (init.auth !== false) options.onUnauthorized?.();
      throw new UnauthorizedError(detail);
    }
    throw new HttpError(response.status, detail);
  }

  async function json<T>(path: string, init?: RequestInit & { auth?: boolean }): Promise<T> {
    const response = await request(path, init);
    return (await response.json()) as T;
  }

  function openEvents(runId: string, lastEventId: number, signal?: AbortSignal): Promise<Response> {
    return request(`/api/chat/runs/${encodeURIComponent(runId)}/events`, {
      headers: { "Last-Event-ID": String(lastEventId), Accept: "text/event-stream" },
      signal,
    });
  }

  /** Reads a run's events from `first` (or a fresh resume), reconnecting until a terminal event. */
  async function* follow(
    first: Response | null,
    runId: string | null,
    lastEventId: number,
    signal?: AbortSignal,
  ): AsyncGenerator<StreamItem> {
    let response = first;
    let attempt = 0;
    let lastError: unknown;
    for (;;) {
      try {
        if (response === null) {
          if (runId === null) throw new StreamDroppedError(null, lastEventId);
          response = await openEvents(runId, lastEventId, signal);
        }
        if (response.body === null) throw new StreamDroppedError(runId, lastEventId);
        for await (const frame of readSse(response.body, { idleMs, signal })) {
          const event = parseStreamEvent(frame.data);
          const id = frame.id === null ? null : Number.parseInt(frame.id, 10);
          if (id !== null && Number.isFinite(id)) lastEventId = id;
          attempt = 0;
          if (event === null) continue;
          yield { kind: "event", id: id !== null && Number.isFinite(id) ? id : null, event };
          if (isTerminal(event)) return;
        }
        lastError = new Error("the stream ended before the answer was complete");
      } catch (error) {
        if (isAbort(error, signal)) throw error;
        if (isFatal(error) || error instanceof StreamDroppedError) throw error;
        lastError = error;
      }
      response = null;
      attempt += 1;
      if (runId === null || attempt > retry.attempts) throw new StreamDroppedError(runId, lastEventId, lastError);
      yield { kind: "reconnecting", attempt };
      await sleep(Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1)), signal);
    }
  }

  return {
    async *chatStream(body, signal) {
      const response = await request("/api/chat/stream", {
        method: "POST",
        body: JSON.stringify(body),
        headers: { Accept: "text/event-stream" },
        signal,
      });
      const runId = response.headers.get("X-Run-Id") || null;
      const conversationId = response.headers.get("X-Conversation-Id") || null;
      if (runId !== null) yield { kind: "run", runId, conversationId };
      yield* follow(response, runId, 0, signal);
    },

    async *resumeRun(runId, lastEventId, signal) {
      yield* follow(null, runId, lastEventId, signal);
    },

    async cancelRun(runId) {
      await request(`/api/chat/runs/${encodeURIComponent(runId)}/cancel`, { method: "POST" });
    },

    listConversations(offset = 0, limit = 50) {
      return json<ConversationList>(`/api/conversations?offset=${offset}&limit=${limit}`);
    },

    searchConversations(query, limit = 20, signal) {
      const params = new URLSearchParams({ q: query, limit: String(limit) });
      return json<ConversationSearchResults>(`/api/conversations/search?${params.toString()}`, { signal });
    },

    getConversation(id, before) {
      const query = before ? `?before=${encodeURIComponent(before)}` : "";
      return json<ConversationDetail>(`/api/conversations/${encodeURIComponent(id)}${query}`);
    },

    renameConversation(id, title) {
      return json<ConversationPublic>(`/api/conversations/${encodeURIComponent(id)}`, {
        method: "PATCH",
        body: JSON.stringify({ title }),
      });
    },

    async deleteConversation(id) {
      await request(`/api/conversations/${encodeURIComponent(id)}`, { method: "DELETE" });
    },

    decidePayload(conversationId, messageId, decision) {
      const path = `/api/conversations/${encodeURIComponent(conversationId)}/messages/${encodeURIComponent(messageId)}/decision`;
      return json<MessagePublic>(path, { method: "POST", body: JSON.stringify({ decision }) });
    },

    decideApproval(approvalId, body) {
      return json<ApprovalDecisionResult>(`/api/chat/approvals/${encodeURIComponent(approvalId)}`, {
        method: "POST",
        body: JSON.stringify(body),
      });
    },

    runAction(body) {
      return json<ActionResult>("/api/chat/actions", { method: "POST", body: JSON.stringify(body) });
    },

    async payloadTypes() {
      return parsePayloadTypes(await json<unknown>("/api/payload-types"));
    },

    async *branchStream(conversationId, messageId, kind, body, signal) {
      const response = await request(`${messagePath(conversationId, messageId)}/${kind}`, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { Accept: "text/event-stream" },
        signal,
      });
      const runId = response.headers.get("X-Run-Id") || null;
      if (runId !== null) yield { kind: "run", runId, conversationId };
      yield* follow(response, runId, 0, signal);
    },

    selectBranch(conversationId, messageId, position) {
      return json<ConversationDetail>(`${messagePath(conversationId, messageId)}/branch`, {
        method: "PUT",
        body: JSON.stringify({ position }),
      });
    },

    setFeedback(conversationId, messageId, body) {
      return json<MessagePublic>(`${messagePath(conversationId, messageId)}/feedback`, {
        method: "PUT",
        body: JSON.stringify(body),
      });
    },

    uploadAttachment(file, signal) {
      const form = new FormData();
      form.append("file", file, file.name);
      return json<AttachmentRef>("/api/attachments", { method: "POST", body: form, signal });
    },

    async deleteAttachment(id) {
      await request(attachmentPath(id), { method: "DELETE" });
    },

    attachmentUrl(id) {
      return `${base}${attachmentPath(id)}`;
    },

    async fetchAttachment(id) {
      const response = await request(attachmentPath(id));
      return response.blob();
    },

    login(email, password) {
      return json<Token>("/api/auth/login", {
        method: "POST",
        body: JSON.stringify({ email, password }),
        auth: false,
      });
    },

    me() {
      return json<UserPublic>("/api/auth/me");
    },

    async logout() {
      await request("/api/auth/logout", { method: "POST" });
    },
  };
}
