import { Link } from "../../app/router";
import { Byline } from "../cards/Byline";
import type { ReportArticlePublic } from "../generated/api";
import { paths } from "../paths";
import { NotesEditor } from "./NotesEditor";
import { Score } from "./Score";
import { StarButton } from "./StarButton";

export interface ReportArticleItemProps {
  article: ReportArticlePublic;
  selected: boolean;
  onSelect: () => void;
  onStar: () => void;
  onSaveNotes: (notes: string) => Promise<void>;
  starring: boolean;
}

/** One article of a report: rank, score, category, the user's star and notes. */
export function ReportArticleItem({ article, selected, onSelect, onStar, onSaveNotes, starring }: ReportArticleItemProps) {
  const what = `PMID ${article.pmid}`;
  return (
    <li className="hz-report-article" data-selected={selected || undefined} data-pmid={article.pmid} aria-label={article.title}>
      <span className="hz-rank" aria-label={`Rank ${String(article.ranking)}`}>
        {article.ranking}
      </span>
      <div className="hz-report-article-body">
        <Link to={paths.article(article.pmid, article.report_id)} className="hz-result-title">
          {article.title}
        </Link>
        <Byline authors={article.authors} journal={article.journal} year={article.year} />
        <div className="hz-article-facts">
          <Score value={article.relevance_score} />
          {article.category ? (
            <span className="hz-badge" data-category={article.category}>
              {article.category}
            </span>
          ) : null}
          <span className="hz-muted">PMID {article.pmid}</span>
        </div>
        {article.rationale ? <p className="hz-rationale">{article.rationale}</p> : null}
        <NotesEditor notes={article.notes} what={what} onSave={onSaveNotes} />
      </div>
      <div className="hz-report-article-side">
        <StarButton starred={article.starred} what={what} busy={starring} onToggle={onStar} />
        <button type="button" className="hz-select" aria-pressed={selected} onClick={onSelect}>
          {selected ? "Selected" : "Select"}
        </button>
      </div>
    </li>
  );
}
