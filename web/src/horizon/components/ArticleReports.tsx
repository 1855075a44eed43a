import { Link } from "../../app/router";
import type { ReportEntry } from "../generated/api";
import { paths } from "../paths";
import { NotesEditor } from "./NotesEditor";
import { Score } from "./Score";
import { StarButton } from "./StarButton";

export interface ArticleReportsProps {
  pmid: string;
  entries: ReportEntry[];
  /** The report the page was opened from, shown first. */
  currentReportId: number | null;
  onStar: (entry: ReportEntry) => void;
  onSaveNotes: (entry: ReportEntry, notes: string) => Promise<void>;
  starring: number | null;
}

/** Where the article appears in the user's reports, with their stars and notes there. */
export function ArticleReports({ pmid, entries, currentReportId, onStar, onSaveNotes, starring }: ArticleReportsProps) {
  if (entries.length === 0) return <p className="hz-muted">This article is in none of your reports.</p>;
  const ordered = [...entries].sort((a, b) => Number(b.report_id === currentReportId) - Number(a.report_id === currentReportId));
  return (
    <ul className="hz-article-reports" aria-label="In your reports">
      {ordered.map((e) => (
        <li key={e.report_id} data-current={e.report_id === currentReportId || undefined}>
          <div className="hz-row">
            <Link to={paths.report(e.report_id)}>
              {e.stream_name} — report of {e.report_date}
            </Link>
            <StarButton
              starred={e.starred}
              what={`PMID ${pmid} in the report of ${e.report_date}`}
              busy={starring === e.report_id}
              onToggle={() => {
                onStar(e);
              }}
            />
          </div>
          <div className="hz-article-facts">
            <span className="hz-muted">Rank {e.ranking}</span>
            <Score value={e.relevance_score} />
            {e.category ? <span className="hz-badge">{e.category}</span> : null}
          </div>
          <NotesEditor notes={e.notes} what={`PMID ${pmid}`} onSave={(notes) => onSaveNotes(e, notes)} />
        </li>
      ))}
    </ul>
  );
}
