import type { Category, Topic } from "../generated/api";
import { ListEditor } from "./ListEditor";

export interface NamedItemsEditorProps {
  title: string;
  noun: string;
  items: (Topic | Category)[];
  onChange: (items: (Topic | Category)[]) => void;
  hint?: string;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Topics or categories: a name and a description each. */
export function NamedItemsEditor({ title, noun, items, onChange, hint }: NamedItemsEditorProps) {
  return (
    <ListEditor
      title={title}
      noun={noun}
      items={items}
      onChange={onChange}
      hint={hint}
      blank={() => ({ name: "", description: "" })}
      renderItem={(item, i, set) => (
        <>
          <input
            aria-label={`${capital(noun)} ${String(i + 1)} name`}
            placeholder="Name"
            value={item.name}
            onChange={(e) => {
              set({ ...item, name: e.target.value });
            }}
          />
          <input
            aria-label={`${capital(noun)} ${String(i + 1)} description`}
            placeholder="What it covers"
            value={item.description}
            onChange={(e) => {
              set({ ...item, description: e.target.value });
            }}
          />
        </>
      )}
    />
  );
}
