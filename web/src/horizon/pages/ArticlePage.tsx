import { ArrowLeft } from "lucide-react";
import { useCallback, useMemo, useState } from "react";
import { usePageChat } from "../../app/pageChat";
import { Link, useLocation } from "../../app/router";
import { Byline } from "../cards/Byline";
import { ExternalLink } from "../cards/ExternalLink";
import { ArticleReports } from "../components/ArticleReports";
import { LoadState } from "../components/LoadState";
import { Notice } from "../components/Notice";
import { Welcome } from "../components/Welcome";
import type { ArticleDetail, ReportEntry } from "../generated/api";
import { useHorizonApi } from "../HorizonContext";
import { doiUrl, paths, pubmedUrl } from "../paths";
import { useLoad } from "../../app/useLoad";

/** The article page's state as its chat page reads it (horizon/pages/article.py). */
function articleContext(article: ArticleDetail | null, entry: ReportEntry | undefined, pmid: string) {
  if (article === null) return { current_page: "article", article: { pmid } };
  return {
    current_page: "article",
    article: {
      pmid: article.pmid,
      title: article.title,
      authors: article.authors,
      journal: article.journal,
      year: article.year,
      abstract: article.abstract,
      doi: article.doi,
      ...(entry && { relevance_score: entry.relevance_score, category: entry.category, starred: entry.starred, notes: entry.notes }),
    },
    ...(entry && { report_id: entry.report_id, stream_id: entry.stream_id }),
  };
}

/** One article: citation, abstract, terms, and where it sits in the user's reports. */
export function ArticlePage({ pmid }: { pmid: string }) {
  const api = useHorizonApi();
  const location = useLocation();
  const reportParam = Number(location.search.get("report"));
  const reportId = Number.isInteger(reportParam) && reportParam > 0 ? reportParam : null;
  const load = useCallback(() => api.call("GET /api/horizon/articles/{pmid}", { path: { pmid } }), [api, pmid]);
  const { state, reload, update } = useLoad(load);
  const [starring, setStarring] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const article = state.data;
  const entry = article?.reports.find((e) => e.report_id === reportId) ?? (article?.reports.length === 1 ? article.reports[0] : undefined);

  const change = useCallback(
    async (target: ReportEntry, body: { starred?: boolean; notes?: string }) => {
      const saved = await api.call("PATCH /api/horizon/reports/{report_id}/articles/{pmid}", {
        path: { report_id: target.report_id, pmid },
        body,
      });
      update((a) => ({
        ...a,
        reports: a.reports.map((e) => (e.report_id === target.report_id ? { ...e, starred: saved.starred, notes: saved.notes } : e)),
      }));
    },
    [api, pmid, update],
  );

  const context = useMemo(() => articleContext(article, entry, pmid), [article, entry, pmid]);
  const chat = useMemo(
    () => ({
      context,
      welcome: <Welcome about="I see this article." tries={["Tell me about this article", "Find related articles"]} />,
    }),
    [context],
  );
  usePageChat(chat);

  const notInStore = state.status === "error" && "status" in state.error && state.error.status === 404;
  const external = pubmedUrl(pmid);

  return (
    <section className="hz-page" aria-labelledby="article-title">
      <p className="hz-breadcrumb">
        {reportId !== null ? <Link to={paths.report(reportId)}><ArrowLeft size={14} aria-hidden="true" /> Back to the report</Link> : <Link to={paths.streams()}>Streams</Link>}
      </p>
      {notInStore ? (
        <div className="hz-empty">
          <h1 id="article-title">PMID {pmid}</h1>
          <p>This article is not in Horizon's article store.</p>
          {external !== null && <ExternalLink href={external}>Read it on PubMed</ExternalLink>}
        </div>
      ) : (
        <LoadState state={state} what="the article" onRetry={reload}>
          {(a) => (
            <article className="hz-article">
              <h1 id="article-title">{a.title}</h1>
              <Byline authors={a.authors} journal={a.journal} year={a.year} shown={12} />
              <p className="hz-result-ids">
                PMID {a.pmid}
                {a.doi ? (
                  <>
                    {" · "}
                    <ExternalLink href={doiUrl(a.doi)}>DOI {a.doi}</ExternalLink>
                  </>
                ) : null}
                {external !== null && (
                  <>
                    {" · "}
                    <ExternalLink href={external}>PubMed</ExternalLink>
                  </>
                )}
              </p>
              <section aria-labelledby="abstract-title">
                <h2 id="abstract-title">Abstract</h2>
                {a.abstract ? <p className="hz-abstract">{a.abstract}</p> : <p className="hz-muted">No abstract.</p>}
              </section>
              {a.mesh_terms.length > 0 && (
                <section aria-labelledby="mesh-title">
                  <h2 id="mesh-title">MeSH terms</h2>
                  <ul className="hz-chips">
                    {a.mesh_terms.map((t) => (
                      <li key={t}>{t}</li>
                    ))}
                  </ul>
                </section>
              )}
              <section aria-labelledby="in-reports-title">
                <h2 id="in-reports-title">In your reports</h2>
                {error !== null && (
                  <Notice
                    tone="error"
                    text={error}
                    onDismiss={() => {
                      setError(null);
                    }}
                  />
                )}
                <ArticleReports
                  pmid={a.pmid}
                  entries={a.reports}
                  currentReportId={entry?.report_id ?? null}
                  starring={starring}
                  onStar={(e) => {
                    setStarring(e.report_id);
                    setError(null);
                    change(e, { starred: !e.starred }).then(
                      () => {
                        setStarring(null);
                      },
                      (err: unknown) => {
                        setStarring(null);
                        setError(`Could not change the star: ${err instanceof Error ? err.message : String(err)}`);
                      },
                    );
                  }}
                  onSaveNotes={(e, notes) => change(e, { notes })}
                />
              </section>
            </article>
          )}
        </LoadState>
      )}
    </section>
  );
}
