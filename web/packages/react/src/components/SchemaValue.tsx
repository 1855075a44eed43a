import type { CardField, CardValue } from "../schemaCard";

type Level = 3 | 4 | 5 | 6;

function Heading({ level, children }: { level: Level; children: string }) {
  const Tag = `h${String(level)}` as "h3";
  return <Tag className="pc-schema-heading">{children}</Tag>;
}

const deeper = (level: Level): Level => (level < 6 ? ((level + 1) as Level) : 6);

/** One value of a schema card: text, a link, a list, a table or a section of fields. */
export function SchemaValue({ value, level }: { value: CardValue; level: Level }) {
  switch (value.kind) {
    case "text":
      return <span className="pc-schema-text" data-empty={value.empty ?? undefined}>{value.text}</span>;
    case "link":
      return (
        <a className="pc-schema-link" href={value.href} target="_blank" rel="noopener noreferrer">
          {value.text}
        </a>
      );
    case "list":
      return (
        <ul className="pc-schema-list">
          {value.items.map((item, i) => (
            <li key={i}>
              <SchemaValue value={item} level={level} />
            </li>
          ))}
        </ul>
      );
    case "table":
      return (
        <div className="pc-schema-table-wrap">
          <table className="pc-schema-table">
            <thead>
              <tr>
                {value.columns.map((column) => (
                  <th key={column.key} scope="col">
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {value.rows.map((row, i) => (
                <tr key={i}>
                  {row.map((cell, j) => (
                    <td key={value.columns[j]?.key ?? j}>
                      <SchemaValue value={cell} level={deeper(level)} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case "section":
      return <SchemaFields fields={value.fields} level={level} />;
  }
}

const isScalar = (value: CardValue) => value.kind === "text" || value.kind === "link";

/** Fields in order: runs of scalar ones as a definition list, the others as titled sub-sections. */
export function SchemaFields({ fields, level }: { fields: CardField[]; level: Level }) {
  const groups: CardField[][] = [];
  for (const field of fields) {
    const last = groups.at(-1);
    const first = last?.[0];
    if (last !== undefined && first !== undefined && isScalar(first.value) && isScalar(field.value)) last.push(field);
    else groups.push([field]);
  }
  return (
    <div className="pc-schema-fields">
      {groups.map((group) => {
        const [first] = group;
        if (first === undefined) return null;
        if (isScalar(first.value))
          return (
            <dl key={first.key} className="pc-schema-dl">
              {group.map((field) => (
                <div key={field.key} className="pc-schema-row">
                  <dt>{field.label}</dt>
                  <dd>
                    <SchemaValue value={field.value} level={level} />
                  </dd>
                </div>
              ))}
            </dl>
          );
        return (
          <section key={first.key} className="pc-schema-section" data-kind={first.value.kind}>
            <Heading level={level}>{first.label}</Heading>
            <SchemaValue value={first.value} level={deeper(level)} />
          </section>
        );
      })}
    </div>
  );
}
