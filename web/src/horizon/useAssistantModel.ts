// Which language model answers, as GET /api/health says (see readModel).
import { useEffect, useState } from "react";

export interface AssistantModel {
  /** "anthropic", "openai", "offline", ... */
  provider: string;
  name: string | null;
}

/** `{model: {provider, name}}` (asked of the server), or `{provider, model: "name"}`. */
export function readModel(body: unknown): AssistantModel | null {
  if (typeof body !== "object" || body === null) return null;
  const record = body as Record<string, unknown>;
  const model = record.model;
  if (typeof model === "object" && model !== null) {
    const m = model as Record<string, unknown>;
    if (typeof m.provider !== "string") return null;
    return { provider: m.provider, name: typeof m.name === "string" ? m.name : null };
  }
  if (typeof record.provider !== "string") return null;
  return { provider: record.provider, name: typeof model === "string" ? model : null };
}

/** The active model, or null while unknown (or when the server does not say). */
export function useAssistantModel(): AssistantModel | null {
  const [model, setModel] = useState<AssistantModel | null>(null);
  useEffect(() => {
    let live = true;
    fetch("/api/health")
      .then((r) => (r.ok ? (r.json() as Promise<unknown>) : null))
      .then(
        (body) => {
          if (live) setModel(readModel(body));
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, []);
  return model;
}
