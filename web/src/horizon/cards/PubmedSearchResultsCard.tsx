import type { PayloadCallbacks } from "@pagechat/react";
import { Link } from "../../app/router";
import type { PubmedSearchResults } from "../generated/payloads.gen";
import { paths, pubmedUrl } from "../paths";
import { Byline } from "./Byline";
import { CardActions } from "./CardActions";
import { ExternalLink } from "./ExternalLink";

/** The articles a PubMed search returned; each opens in Horizon's article page. */
export function PubmedSearchResultsCard({ data, callbacks }: { data: PubmedSearchResults; callbacks: PayloadCallbacks }) {
  const total = data.total ?? data.articles.length;
  return (
    <div className="hz-card" data-card="pubmed-search-results">
      <p className="hz-results-head">
        {data.articles.length} of {total} articles for <q>{data.query}</q>
        {data.source === "pubmed" ? " on PubMed (online)" : data.source === "local" ? " in the local library" : ""}
      </p>
      {data.articles.length === 0 ? (
        <p className="hz-muted">Nothing found. Try fewer or broader words.</p>
      ) : (
        <ol className="hz-results" aria-label="Search results">
          {data.articles.map((a) => {
            const external = pubmedUrl(a.pmid);
            return (
              <li key={a.pmid}>
                <Link to={paths.article(a.pmid)} className="hz-result-title">
                  {a.title}
                </Link>
                <Byline authors={a.authors} journal={a.journal} year={a.year} />
                <p className="hz-result-ids">
                  <Link to={paths.article(a.pmid)}>PMID {a.pmid}</Link>
                  {external !== null && (
                    <>
                      {" · "}
                      <ExternalLink href={external}>PubMed</ExternalLink>
                    </>
                  )}
                </p>
              </li>
            );
          })}
        </ol>
      )}
      <CardActions rejectLabel="Close" onReject={callbacks.onReject} />
    </div>
  );
}
