import { NamedItemsEditor } from "./NamedItemsEditor";
import type { FieldsProps } from "./SemanticFields";

/** Layer 3, how reports group their articles: the categories. */
export function PresentationFields({ draft, onChange }: FieldsProps) {
  return (
    <div className="hz-fields" data-layer="presentation">
      <NamedItemsEditor
        title="Report categories"
        noun="category"
        items={draft.presentation_config.categories}
        hint="3 to 8 works best; say which articles belong in each."
        onChange={(categories) => {
          onChange({ ...draft, presentation_config: { categories } });
        }}
      />
    </div>
  );
}
