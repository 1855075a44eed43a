// A research stream as its form holds it, and what accepted proposals do to it. Pure
// functions: a proposal's lists replace the form's (payloads.py: complete lists, never deltas).
import type { Category, Entity, RetrievalQuery, StreamCreate, StreamPublic, Topic } from "./generated/api";
import type { SchemaProposal, StreamTemplate } from "./generated/payloads.gen";

/** The editable part of a stream: what POST creates and PATCH replaces. */
export type StreamDraft = Required<Pick<StreamPublic, "name" | "purpose" | "semantic_space" | "retrieval_config" | "presentation_config">>;

export type Tab = "semantic" | "retrieval" | "presentation";
export const TABS: readonly Tab[] = ["semantic", "retrieval", "presentation"];

export function isTab(value: unknown): value is Tab {
  return typeof value === "string" && (TABS as readonly string[]).includes(value);
}

export function emptyDraft(): StreamDraft {
  return {
    name: "",
    purpose: "",
    semantic_space: { topics: [], entities: [], inclusion_notes: "", exclusion_notes: "" },
    retrieval_config: { queries: [] },
    presentation_config: { categories: [] },
  };
}

export function draftOf(stream: StreamPublic): StreamDraft {
  return {
    name: stream.name,
    purpose: stream.purpose,
    semantic_space: stream.semantic_space,
    retrieval_config: stream.retrieval_config,
    presentation_config: stream.presentation_config,
  };
}

const topic = (t: { name: string; description?: string }): Topic => ({ name: t.name, description: t.description ?? "" });
const category = (c: { name: string; description?: string }): Category => ({ name: c.name, description: c.description ?? "" });
const query = (q: { source: "pubmed"; query: string; rationale?: string }): RetrievalQuery => ({
  source: q.source,
  query: q.query,
  rationale: q.rationale ?? "",
});

/** A whole draft from a `stream_template`: what accepting its card does to the form. */
export function draftFromTemplate(t: StreamTemplate): StreamDraft {
  return {
    name: t.name,
    purpose: t.purpose,
    semantic_space: {
      topics: t.topics.map(topic),
      entities: (t.entities ?? []).map((e): Entity => ({ name: e.name, type: e.type })),
      inclusion_notes: t.inclusion_notes ?? "",
      exclusion_notes: t.exclusion_notes ?? "",
    },
    retrieval_config: { queries: (t.queries ?? []).map(query) },
    presentation_config: { categories: (t.categories ?? []).map(category) },
  };
}

/** A draft started from a stream idea (name, purpose, topic names). */
export function draftFromIdea(idea: { name: string; purpose: string; topics?: string[] }): StreamDraft {
  const draft = emptyDraft();
  return {
    ...draft,
    name: idea.name,
    purpose: idea.purpose,
    semantic_space: { ...draft.semantic_space, topics: (idea.topics ?? []).map((name) => ({ name, description: "" })) },
  };
}

const key = (name: string) => name.trim().toLowerCase();

/** The draft with `topics` added after its own; a topic it has (same name) is left out. */
export function addTopics(draft: StreamDraft, topics: { name: string; description?: string }[]): StreamDraft {
  const have = new Set(draft.semantic_space.topics.map((t) => key(t.name)));
  const added = topics.filter((t) => !have.has(key(t.name))).map(topic);
  return { ...draft, semantic_space: { ...draft.semantic_space, topics: [...draft.semantic_space.topics, ...added] } };
}

/** A `schema_proposal`'s changes applied: each field it names replaces the form's. */
export function applySchemaChanges(draft: StreamDraft, changes: SchemaProposal["proposed_changes"]): StreamDraft {
  const semantic = draft.semantic_space;
  return {
    ...draft,
    name: changes.stream_name ?? draft.name,
    purpose: changes.purpose ?? draft.purpose,
    semantic_space: {
      topics: changes.topics ? changes.topics.map(topic) : semantic.topics,
      entities: changes.entities ? changes.entities.map((e) => ({ name: e.name, type: e.type })) : semantic.entities,
      inclusion_notes: changes.inclusion_notes ?? semantic.inclusion_notes,
      exclusion_notes: changes.exclusion_notes ?? semantic.exclusion_notes,
    },
  };
}

export function withQueries(draft: StreamDraft, queries: { source: "pubmed"; query: string; rationale?: string }[]): StreamDraft {
  return { ...draft, retrieval_config: { queries: queries.map(query) } };
}

export function withCategories(draft: StreamDraft, categories: { name: string; description?: string }[]): StreamDraft {
  return { ...draft, presentation_config: { categories: categories.map(category) } };
}

/** What the form sends: names and texts trimmed, empty list items left out. */
export function cleanDraft(draft: StreamDraft): StreamCreate & StreamDraft {
  const named = <T extends { name: string }>(items: T[]) =>
    items.map((item) => ({ ...item, name: item.name.trim() })).filter((item) => item.name !== "");
  return {
    name: draft.name.trim(),
    purpose: draft.purpose.trim(),
    semantic_space: {
      topics: named(draft.semantic_space.topics),
      entities: named(draft.semantic_space.entities),
      inclusion_notes: draft.semantic_space.inclusion_notes.trim(),
      exclusion_notes: draft.semantic_space.exclusion_notes.trim(),
    },
    retrieval_config: {
      queries: draft.retrieval_config.queries.map((q) => ({ ...q, query: q.query.trim() })).filter((q) => q.query !== ""),
    },
    presentation_config: { categories: named(draft.presentation_config.categories) },
  };
}

export function sameDraft(a: StreamDraft, b: StreamDraft): boolean {
  return JSON.stringify(cleanDraft(a)) === JSON.stringify(cleanDraft(b));
}

/** The tab of the edit page that holds a field named by a validation issue. */
export function tabOfField(field: string | undefined): Tab | null {
  if (field === undefined) return null;
  const f = field.toLowerCase();
  if (/quer|retriev|source/.test(f)) return "retrieval";
  if (/categor|present/.test(f)) return "presentation";
  if (/name|purpose|topic|entit|inclusion|exclusion|semantic/.test(f)) return "semantic";
  return null;
}
