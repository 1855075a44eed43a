export interface Issue {
  field?: string;
  message: string;
}

export interface IssueListProps {
  level: "error" | "warning" | "suggestion";
  title: string;
  issues: Issue[];
  /** When given, an issue's field is a button (e.g. to open the tab that holds it). */
  onField?: (field: string) => void;
}

/** Errors, warnings or suggestions of a validation card. */
export function IssueList({ level, title, issues, onField }: IssueListProps) {
  if (issues.length === 0) return null;
  return (
    <section className="hz-issues" data-level={level} aria-label={title}>
      <h3>
        {title} ({issues.length})
      </h3>
      <ul>
        {issues.map((issue, i) => (
          <li key={i}>
            {issue.field !== undefined && issue.field !== "" && (
              <>
                {onField ? (
                  <button
                    type="button"
                    className="hz-link-button"
                    onClick={() => {
                      onField(issue.field ?? "");
                    }}
                  >
                    {issue.field}
                  </button>
                ) : (
                  <span className="hz-field-name">{issue.field}</span>
                )}
                {": "}
              </>
            )}
            {issue.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
