import { X } from "lucide-react";
import type { ReactNode } from "react";

export interface ListEditorProps<T> {
  /** Plural, for the group ("Topics"); `noun` names one item ("topic"). */
  title: string;
  noun: string;
  items: T[];
  onChange: (items: T[]) => void;
  blank: () => T;
  /** The inputs of item `index`; `set` replaces it. */
  renderItem: (item: T, index: number, set: (next: T) => void) => ReactNode;
  hint?: string;
}

/** An editable list: each item's inputs, a remove button, and one to add an item. */
export function ListEditor<T>({ title, noun, items, onChange, blank, renderItem, hint }: ListEditorProps<T>) {
  return (
    <fieldset className="hz-list-editor" data-list={noun}>
      <legend>
        {title} ({items.length})
      </legend>
      {hint ? <p className="hz-field-hint">{hint}</p> : null}
      <ol>
        {items.map((item, index) => (
          <li key={index} className="hz-list-item">
            {renderItem(item, index, (next) => {
              onChange(items.map((old, i) => (i === index ? next : old)));
            })}
            <button
              type="button"
              className="hz-icon-button"
              aria-label={`Remove ${noun} ${String(index + 1)}`}
              title={`Remove ${noun} ${String(index + 1)}`}
              onClick={() => {
                onChange(items.filter((_, i) => i !== index));
              }}
            >
              <X size={16} aria-hidden="true" />
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        onClick={() => {
          onChange([...items, blank()]);
        }}
      >
        Add {noun}
      </button>
    </fieldset>
  );
}
