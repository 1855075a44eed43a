// Checks each stream event's fields before the reducer sees it: a malformed event (a buggy
// proxy, a newer or broken server) is dropped with a console warning instead of crashing the
// tray half-way through an answer. Fields the server always fills but an older one may omit
// get the protocol's defaults; fields this client does not know are kept.
import { STREAM_EVENT_TYPES } from "./generated/protocol";
import type {
  ApprovalPublic,
  ChatResponsePayload,
  CustomPayload,
  EntityChange,
  Reasoning,
  Source,
  StreamEvent,
  SuggestedAction,
  SuggestedValue,
  ToolHistoryEntry,
  Usage,
} from "./types";

type Json = Record<string, unknown>;

/** Thrown (and caught below) when a field is missing or of the wrong kind. */
class _Invalid extends Error {}

function _object(value: unknown, where: string): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new _Invalid(`${where} is not an object`);
  return value as Json;
}

function _string(o: Json, key: string, fallback?: string): string {
  const value = o[key] ?? fallback;
  if (typeof value !== "string") throw new _Invalid(`${key} is not a string`);
  return value;
}

function _nullableString(o: Json, key: string): string | null {
  const value = o[key] ?? null;
  if (value !== null && typeof value !== "string") throw new _Invalid(`${key} is not a string`);
  return value;
}

function _boolean(o: Json, key: string, fallback: boolean): boolean {
  const value = o[key] ?? fallback;
  if (typeof value !== "boolean") throw new _Invalid(`${key} is not a boolean`);
  return value;
}

function _list<T>(o: Json, key: string, item: (value: unknown, where: string) => T): T[] {
  const value = o[key] ?? [];
  if (!Array.isArray(value)) throw new _Invalid(`${key} is not a list`);
  return value.map((v, i) => item(v, `${key}[${String(i)}]`));
}

function _payload(value: unknown, where: string): CustomPayload {
  const o = _object(value, where);
  return { type: _string(o, "type"), data: o.data ?? null };
}

function _value(value: unknown, where: string): SuggestedValue {
  const o = _object(value, where);
  return { label: _string(o, "label"), value: _string(o, "value") };
}

function _action(value: unknown, where: string): SuggestedAction {
  const o = _object(value, where);
  const handler = o.handler;
  if (handler !== "client" && handler !== "server") throw new _Invalid(`${where}.handler is not client or server`);
  const style = o.style ?? null;
  if (style !== null && style !== "primary" && style !== "secondary" && style !== "warning") throw new _Invalid(`${where}.style`);
  const data = o.data ?? null;
  return { label: _string(o, "label"), action: _string(o, "action"), handler, data: data === null ? null : _object(data, `${where}.data`), style };
}

function _toolEntry(value: unknown, where: string): ToolHistoryEntry {
  const o = _object(value, where);
  return {
    tool_name: _string(o, "tool_name"),
    input: _object(o.input ?? {}, `${where}.input`),
    output: _string(o, "output", ""),
    is_error: _boolean(o, "is_error", false),
    tool_use_id: _nullableString(o, "tool_use_id"),
    payload: o.payload == null ? null : _payload(o.payload, `${where}.payload`),
    approval: o.approval == null ? null : _approval(o.approval, `${where}.approval`),
    in_answer: _boolean(o, "in_answer", false),
    sources: _list(o, "sources", _source),
  };
}

/** An http(s) URL, else null: a source's link is never another scheme, whatever a server sent. */
function _webUrl(value: string | null): string | null {
  return value !== null && /^https?:\/\/[^\s/?#]/i.test(value) ? value : null;
}

function _source(value: unknown, where: string): Source {
  const o = _object(value, where);
  const number = o.number ?? null;
  if (number !== null && (typeof number !== "number" || !Number.isInteger(number) || number < 1)) throw new _Invalid(`${where}.number is not a source number`);
  return {
    id: _string(o, "id"),
    title: _string(o, "title"),
    url: _webUrl(_nullableString(o, "url")),
    detail: _string(o, "detail", ""),
    snippet: _string(o, "snippet", ""),
    number,
  };
}

type ApprovalStatus = ApprovalPublic["status"];

const _APPROVAL_STATUSES = new Set<string>(["pending", "approved", "denied", "expired"]);

function _approvalStatus(o: Json, key: string): ApprovalStatus {
  const value = o[key] ?? "pending";
  if (typeof value !== "string" || !_APPROVAL_STATUSES.has(value)) throw new _Invalid(`${key} is not an approval status`);
  return value as ApprovalStatus;
}

function _approval(value: unknown, where: string): ApprovalPublic {
  const o = _object(value, where);
  return {
    id: _string(o, "id"),
    kind: o.kind === "frontend_tool" ? "frontend_tool" : "approval",
    tool: _string(o, "tool"),
    tool_use_id: _nullableString(o, "tool_use_id"),
    input: _object(o.input ?? {}, `${where}.input`),
    reason: _string(o, "reason", ""),
    status: _approvalStatus(o, "status"),
    note: _nullableString(o, "note"),
    expires_at: _nullableString(o, "expires_at"),
  };
}

function _usage(value: unknown): ChatResponsePayload["usage"] {
  if (value == null) return null;
  const o = _object(value, "usage");
  const count = (key: keyof Usage): number => {
    const c = o[key] ?? 0;
    if (typeof c !== "number") throw new _Invalid("usage is not a count of tokens");
    return c;
  };
  return {
    input_tokens: count("input_tokens"),
    output_tokens: count("output_tokens"),
    cache_read_tokens: count("cache_read_tokens"),
    cache_write_tokens: count("cache_write_tokens"),
  };
}

function _reasoning(value: unknown): Reasoning {
  const o = _object(value, "reasoning");
  const seconds = o.seconds;
  if (typeof seconds !== "number" || !(seconds >= 0)) throw new _Invalid("reasoning.seconds is not a duration");
  return { text: _string(o, "text"), seconds };
}

function _response(value: unknown): ChatResponsePayload {
  const o = _object(value, "payload");
  return {
    ...o,
    message: _string(o, "message"),
    suggested_values: o.suggested_values == null ? null : _list(o, "suggested_values", _value),
    suggested_actions: o.suggested_actions == null ? null : _list(o, "suggested_actions", _action),
    custom_payload: o.custom_payload == null ? null : _payload(o.custom_payload, "custom_payload"),
    payloads: _list(o, "payloads", _payload),
    tool_history: _list(o, "tool_history", _toolEntry),
    conversation_id: _nullableString(o, "conversation_id"),
    message_id: _nullableString(o, "message_id"),
    usage: _usage(o.usage),
    warnings: _list(o, "warnings", (v, where) => {
      if (typeof v !== "string") throw new _Invalid(`${where} is not a string`);
      return v;
    }),
    stop_reason: _nullableString(o, "stop_reason"),
    reasoning: o.reasoning == null ? null : _reasoning(o.reasoning),
    sources: _list(o, "sources", _source),
  };
}

const _CHANGE_KINDS = new Set<string>(["created", "updated", "deleted"]);

function _change(value: unknown, where: string): EntityChange {
  const o = _object(value, where);
  const change = _string(o, "change");
  if (!_CHANGE_KINDS.has(change)) throw new _Invalid(`${where}.change is not created, updated or deleted`);
  return { entity: _string(o, "entity"), id: _string(o, "id"), change: change as EntityChange["change"] };
}

function _progress(o: Json): number | null {
  const value = o.progress ?? null;
  if (value === null) return null;
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) throw new _Invalid("progress is not a number from 0 to 1");
  return value;
}

function _index(o: Json): number {
  const value = o.index;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) throw new _Invalid("index is not a count");
  return value;
}

// One reader per event type: a type added to the protocol fails to compile here until it has one.
const _READERS: { [K in StreamEvent["type"]]: (o: Json) => Extract<StreamEvent, { type: K }> } = {
  status: (o) => ({ type: "status", message: _string(o, "message") }),
  text_delta: (o) => ({ type: "text_delta", text: _string(o, "text") }),
  reasoning: (o) => ({ type: "reasoning", text: _string(o, "text") }),
  reply_parts: (o) => ({
    type: "reply_parts",
    payloads: _list(o, "payloads", _payload),
    suggested_values: _list(o, "suggested_values", _value),
    suggested_actions: _list(o, "suggested_actions", _action),
    warnings: _list(o, "warnings", (v, where) => {
      if (typeof v !== "string") throw new _Invalid(`${where} is not a string`);
      return v;
    }),
  }),
  tool_start: (o) => ({
    type: "tool_start",
    tool: _string(o, "tool"),
    input: _object(o.input ?? {}, "input"),
    tool_use_id: _string(o, "tool_use_id"),
  }),
  tool_progress: (o) => ({
    type: "tool_progress",
    tool: _string(o, "tool"),
    stage: _string(o, "stage", ""),
    message: _string(o, "message", ""),
    progress: _progress(o),
    data: o.data ?? null,
  }),
  tool_complete: (o) => ({
    type: "tool_complete",
    tool: _string(o, "tool"),
    index: _index(o),
    is_error: _boolean(o, "is_error", false),
    output: _nullableString(o, "output"),
    payload: o.payload == null ? null : _payload(o.payload, "payload"),
    approval: o.approval == null ? null : _approval(o.approval, "approval"),
    usage: _usage(o.usage),
    changes: o.changes === undefined || o.changes === null ? null : _list(o, "changes", _change),
    sources: o.sources == null ? null : _list(o, "sources", _source),
  }),
  complete: (o) => ({ type: "complete", payload: _response(o.payload) }),
  error: (o) => ({ type: "error", message: _string(o, "message"), code: _nullableString(o, "code") }),
  cancelled: () => ({ type: "cancelled" }),
  approval_requested: (o) => ({
    type: "approval_requested",
    approval_id: _string(o, "approval_id"),
    tool: _string(o, "tool"),
    input: _object(o.input ?? {}, "input"),
    reason: _string(o, "reason", ""),
    tool_use_id: _string(o, "tool_use_id"),
    expires_at: _nullableString(o, "expires_at"),
    conversation_id: _nullableString(o, "conversation_id"),
    message_id: _nullableString(o, "message_id"),
  }),
  approval_resolved: (o) => ({
    type: "approval_resolved",
    approval_id: _string(o, "approval_id"),
    status: _approvalStatus(o, "status"),
    note: _nullableString(o, "note"),
  }),
};

const _KNOWN = new Set<string>(STREAM_EVENT_TYPES);

function _isKnown(type: string): type is StreamEvent["type"] {
  return _KNOWN.has(type);
}

/**
 * One `data:` payload as a checked stream event, or null: not JSON, not an object, an unknown
 * type (a newer server; skipped quietly) or a known type with bad fields (skipped with a warning).
 */
export function parseStreamEvent(data: string): StreamEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    console.warn("pagechat: dropped a stream event that is not JSON", data.slice(0, 200));
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    console.warn("pagechat: dropped a stream event that is not an object", data.slice(0, 200));
    return null;
  }
  const o = value as Json;
  const type = o.type;
  if (typeof type !== "string" || !_isKnown(type)) return null;
  try {
    // Fields this client does not know yet (a newer server) pass through unchanged.
    return { ...o, ..._READERS[type](o) };
  } catch (error) {
    if (!(error instanceof _Invalid)) throw error;
    console.warn(`pagechat: dropped a malformed ${type} event: ${error.message}`);
    return null;
  }
}
