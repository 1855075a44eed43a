import { ENTITY_TYPE_VALUES, type Entity } from "../generated/api";
import { ListEditor } from "./ListEditor";

/** Named things the stream follows (drugs, genes, diseases, ...), each with its kind. */
export function EntitiesEditor({ items, onChange }: { items: Entity[]; onChange: (items: Entity[]) => void }) {
  return (
    <ListEditor
      title="Entities"
      noun="entity"
      items={items}
      onChange={onChange}
      hint="Drugs, genes, diseases and other named things to watch for."
      blank={(): Entity => ({ name: "", type: "other" })}
      renderItem={(item, i, set) => (
        <>
          <input
            aria-label={`Entity ${String(i + 1)} name`}
            placeholder="Name"
            value={item.name}
            onChange={(e) => {
              set({ ...item, name: e.target.value });
            }}
          />
          <select
            aria-label={`Entity ${String(i + 1)} type`}
            value={item.type}
            onChange={(e) => {
              const type = ENTITY_TYPE_VALUES.find((t) => t === e.target.value);
              if (type) set({ ...item, type });
            }}
          >
            {ENTITY_TYPE_VALUES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </>
      )}
    />
  );
}
