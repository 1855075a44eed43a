import type { StreamDraft } from "../draft";
import { EntitiesEditor } from "./EntitiesEditor";
import { NamedItemsEditor } from "./NamedItemsEditor";
import { TextField } from "./TextField";

export interface FieldsProps {
  draft: StreamDraft;
  onChange: (draft: StreamDraft) => void;
}

/** Layer 1, what the stream is about: name, purpose, topics, entities, notes. */
export function SemanticFields({ draft, onChange }: FieldsProps) {
  const semantic = draft.semantic_space;
  const setSemantic = (next: Partial<StreamDraft["semantic_space"]>) => {
    onChange({ ...draft, semantic_space: { ...semantic, ...next } });
  };
  return (
    <div className="hz-fields" data-layer="semantic">
      <TextField
        label="Name"
        required
        value={draft.name}
        onChange={(name) => {
          onChange({ ...draft, name });
        }}
      />
      <TextField
        label="Purpose"
        multiline
        value={draft.purpose}
        hint="What to follow, and why."
        onChange={(purpose) => {
          onChange({ ...draft, purpose });
        }}
      />
      <NamedItemsEditor
        title="Topics"
        noun="topic"
        items={semantic.topics}
        hint="The subjects the stream covers."
        onChange={(topics) => {
          setSemantic({ topics });
        }}
      />
      <EntitiesEditor
        items={semantic.entities}
        onChange={(entities) => {
          setSemantic({ entities });
        }}
      />
      <TextField
        label="Inclusion notes"
        multiline
        value={semantic.inclusion_notes}
        onChange={(inclusion_notes) => {
          setSemantic({ inclusion_notes });
        }}
      />
      <TextField
        label="Exclusion notes"
        multiline
        value={semantic.exclusion_notes}
        onChange={(exclusion_notes) => {
          setSemantic({ exclusion_notes });
        }}
      />
    </div>
  );
}
