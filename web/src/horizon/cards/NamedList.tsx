export interface NamedItem {
  name: string;
  description?: string;
}

/** Topics or categories: a name, and what it covers. */
export function NamedList({ items, label }: { items: NamedItem[]; label: string }) {
  if (items.length === 0) return <p className="hz-muted">None.</p>;
  return (
    <ul className="hz-named-list" aria-label={label}>
      {items.map((item, i) => (
        <li key={`${item.name}-${String(i)}`}>
          <strong>{item.name}</strong>
          {item.description ? <span className="hz-muted"> — {item.description}</span> : null}
        </li>
      ))}
    </ul>
  );
}
