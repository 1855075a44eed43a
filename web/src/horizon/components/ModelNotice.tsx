import type { AssistantModel } from "../useAssistantModel";

/** Says plainly which model answers; for the offline one, what it can do and how to switch. */
export function ModelNotice({ model }: { model: AssistantModel | null }) {
  if (model === null) return null;
  if (model.provider !== "offline") {
    return (
      <p className="hz-model" data-provider={model.provider}>
        Assistant: {model.provider}
        {model.name ? ` · ${model.name}` : ""}
      </p>
    );
  }
  return (
    <aside className="hz-offline" aria-label="Offline assistant" data-provider="offline">
      <strong>The assistant is offline.</strong> No language model is connected, so it understands only a few requests:
      searching PubMed, looking up an article by PMID, summarising a report or a paper's PDF, listing your streams and
      drafting stream settings. To use a real model, set <code>ANTHROPIC_API_KEY</code> (or <code>OPENAI_API_KEY</code>, plus{" "}
      <code>OPENAI_BASE_URL</code> for an OpenAI-compatible server) and restart the server.
    </aside>
  );
}
