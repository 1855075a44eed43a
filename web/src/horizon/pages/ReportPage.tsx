import { useCallback, useMemo, useState } from "react";
import type { ClientActionHandler } from "@pagechat/react";
import { usePageChat } from "../../app/pageChat";
import { Link, navigate } from "../../app/router";
import { LoadState } from "../components/LoadState";
import { Notice } from "../components/Notice";
import { ReportArticleItem } from "../components/ReportArticleItem";
import { ReportPicker } from "../components/ReportPicker";
import { Welcome } from "../components/Welcome";
import type { PageClientAction, ReportArticlePublic, ReportArticleUpdate, ReportDetail } from "../generated/api";
import { useHorizonApi } from "../HorizonContext";
import { paths } from "../paths";
import { noticeOnArrival, useEntityChanges } from "../useEntityChanges";
import { useLoad } from "../../app/useLoad";

/** The reports page's state as its chat page reads it (horizon/pages/reports.py). */
function reportContext(report: ReportDetail | null, shown: ReportArticlePublic[], selected: ReportArticlePublic | undefined, id: number) {
  if (report === null) return { current_page: "reports", report_id: id };
  return {
    current_page: "reports",
    stream_id: report.stream_id,
    stream_name: report.stream_name,
    report_id: report.id,
    report: {
      id: report.id,
      date: report.report_date,
      key_highlights: report.key_highlights,
      thematic_summary: report.thematic_summary,
      article_count: report.article_count,
    },
    articles: shown.map((a) => ({
      pmid: a.pmid,
      title: a.title,
      journal: a.journal,
      year: a.year,
      relevance_score: a.relevance_score,
      ranking: a.ranking,
      category: a.category,
      starred: a.starred,
      notes: a.notes,
    })),
    selected_article: selected ? { pmid: selected.pmid, title: selected.title } : null,
  };
}

/** One report of a stream: highlights, summary, and its ranked articles to star and annotate. */
export function ReportPage({ id }: { id: number }) {
  const api = useHorizonApi();
  const load = useCallback(() => api.call("GET /api/horizon/reports/{report_id}", { path: { report_id: id } }), [api, id]);
  const { state, reload, update } = useLoad(load);
  const report = state.data;
  const [category, setCategory] = useState("");
  const [starredOnly, setStarredOnly] = useState(false);
  const [selectedPmid, setSelectedPmid] = useState<string | null>(null);
  const [starring, setStarring] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [arrival, setArrival] = useState(noticeOnArrival);

  // The assistant deleted this report (here or in another tab): back to the stream's reports,
  // saying so; changed: shown afresh.
  useEntityChanges("report", (changes) => {
    const mine = changes.filter((c) => c.id === String(id));
    if (mine.some((c) => c.change === "deleted")) {
      const notice = `Report ${String(id)} was deleted.`;
      navigate(report === null ? paths.streams() : paths.streamReports(report.stream_id), { replace: true, state: { notice } });
    } else if (mine.length > 0) reload();
  });

  const articles = useMemo(() => report?.articles ?? [], [report]);
  const categories = useMemo(() => [...new Set(articles.map((a) => a.category).filter((c): c is string => c !== null))].sort(), [articles]);
  const shown = useMemo(
    () => articles.filter((a) => (category === "" || a.category === category) && (!starredOnly || a.starred)),
    [articles, category, starredOnly],
  );
  const selected = articles.find((a) => a.pmid === selectedPmid);

  const change = useCallback(
    async (pmid: string, body: ReportArticleUpdate) => {
      const entry = await api.call("PATCH /api/horizon/reports/{report_id}/articles/{pmid}", { path: { report_id: id, pmid }, body });
      update((r) => ({ ...r, articles: r.articles.map((a) => (a.pmid === pmid ? entry : a)) }));
    },
    [api, id, update],
  );

  const star = (article: ReportArticlePublic) => {
    setStarring(article.pmid);
    setError(null);
    change(article.pmid, { starred: !article.starred }).then(
      () => {
        setStarring(null);
      },
      (e: unknown) => {
        setStarring(null);
        setError(`Could not change the star: ${e instanceof Error ? e.message : String(e)}`);
      },
    );
  };

  const clientActions = useMemo(
    (): Record<Exclude<PageClientAction<"reports">, "close_chat">, ClientActionHandler> => ({
      open_article: (data) => {
        const pmid = data?.pmid;
        if (typeof pmid === "string" || typeof pmid === "number") navigate(paths.article(String(pmid), id));
      },
    }),
    [id],
  );

  const context = useMemo(() => reportContext(report, shown, selected, id), [report, shown, selected, id]);
  const chat = useMemo(
    () => ({
      context,
      clientActions,
      welcome: (
        <Welcome
          about="I see this report and the articles it lists."
          tries={["Summarise this report", "Find articles on gene therapy", "Compare the top two articles"]}
        />
      ),
    }),
    [context, clientActions],
  );
  usePageChat(chat);

  return (
    <section className="hz-page" aria-labelledby="report-title">
      <LoadState state={state} what="the report" onRetry={reload}>
        {(r) => (
          <>
            {arrival !== null && (
              <Notice
                tone="info"
                text={arrival}
                onDismiss={() => {
                  setArrival(null);
                }}
              />
            )}
            <header className="hz-page-header">
              <div>
                <p className="hz-breadcrumb">
                  <Link to={paths.streams()}>Streams</Link> / <Link to={paths.stream(r.stream_id)}>{r.stream_name}</Link> /
                </p>
                <h1 id="report-title">Report of {r.report_date}</h1>
              </div>
              <ReportPicker streamId={r.stream_id} reportId={r.id} />
            </header>
            {r.key_highlights.length > 0 && (
              <section className="hz-report-section" aria-labelledby="highlights-title">
                <h2 id="highlights-title">Key highlights</h2>
                <ul>
                  {r.key_highlights.map((h, i) => (
                    <li key={i}>{h}</li>
                  ))}
                </ul>
              </section>
            )}
            {r.thematic_summary ? (
              <section className="hz-report-section" aria-labelledby="summary-title">
                <h2 id="summary-title">Summary</h2>
                <p>{r.thematic_summary}</p>
              </section>
            ) : null}
            <section className="hz-report-section" aria-labelledby="articles-title">
              <div className="hz-section-header">
                <h2 id="articles-title">
                  Articles ({shown.length === r.articles.length ? r.articles.length : `${String(shown.length)} of ${String(r.articles.length)}`})
                </h2>
                <div className="hz-filters">
                  <label className="hz-inline-field">
                    <span>Category</span>
                    <select
                      value={category}
                      onChange={(e) => {
                        setCategory(e.target.value);
                      }}
                    >
                      <option value="">All</option>
                      {categories.map((c) => (
                        <option key={c} value={c}>
                          {c}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label className="hz-inline-field">
                    <input
                      type="checkbox"
                      checked={starredOnly}
                      onChange={(e) => {
                        setStarredOnly(e.target.checked);
                      }}
                    />
                    <span>Starred only</span>
                  </label>
                </div>
              </div>
              {error !== null && (
                <Notice
                  tone="error"
                  text={error}
                  onDismiss={() => {
                    setError(null);
                  }}
                />
              )}
              {shown.length === 0 ? (
                <p className="hz-muted">No articles match.</p>
              ) : (
                <ol className="hz-report-articles" aria-label="Report articles">
                  {shown.map((a) => (
                    <ReportArticleItem
                      key={a.pmid}
                      article={a}
                      selected={a.pmid === selectedPmid}
                      starring={starring === a.pmid}
                      onSelect={() => {
                        setSelectedPmid(a.pmid === selectedPmid ? null : a.pmid);
                      }}
                      onStar={() => {
                        star(a);
                      }}
                      onSaveNotes={(notes) => change(a.pmid, { notes })}
                    />
                  ))}
                </ol>
              )}
            </section>
          </>
        )}
      </LoadState>
    </section>
  );
}
