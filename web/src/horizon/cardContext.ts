// What a card reads from the page's context (the state the tray sends with each message):
// the values a proposal would change, and the user's streams. Absent on other pages.
import type { StreamDraft } from "./draft";

function _isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The stream the page's form shows (new and edit stream pages), or null on other pages. */
export function contextDraft(context: Record<string, unknown>): StreamDraft | null {
  const stream = context.stream;
  if (!_isObject(stream) || typeof stream.name !== "string" || typeof stream.purpose !== "string") return null;
  const { semantic_space: semantic, retrieval_config: retrieval, presentation_config: presentation } = stream;
  if (!_isObject(semantic) || !Array.isArray(semantic.topics) || !Array.isArray(semantic.entities)) return null;
  if (!_isObject(retrieval) || !Array.isArray(retrieval.queries)) return null;
  if (!_isObject(presentation) || !Array.isArray(presentation.categories)) return null;
  return stream as unknown as StreamDraft;
}

/** A stream's name by id, from the streams page's list; undefined elsewhere or when unknown. */
export function contextStreamName(context: Record<string, unknown>, id: number): string | undefined {
  const streams = context.streams;
  if (!Array.isArray(streams)) return undefined;
  for (const s of streams as unknown[]) if (_isObject(s) && s.id === id && typeof s.name === "string") return s.name;
  return undefined;
}
