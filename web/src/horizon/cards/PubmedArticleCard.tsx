import type { PayloadCallbacks } from "@pagechat/react";
import { Link } from "../../app/router";
import type { PubmedArticle } from "../generated/payloads.gen";
import { doiUrl, paths, pubmedUrl } from "../paths";
import { Byline } from "./Byline";
import { CardActions } from "./CardActions";
import { ExternalLink } from "./ExternalLink";

/** One article: citation, abstract, and links to it here and on PubMed. */
export function PubmedArticleCard({ data, callbacks }: { data: PubmedArticle; callbacks: PayloadCallbacks }) {
  const external = pubmedUrl(data.pmid);
  return (
    <article className="hz-card" data-card="pubmed-article" aria-label={data.title}>
      <h3 className="hz-card-title">{data.title}</h3>
      <Byline authors={data.authors} journal={data.journal} year={data.year} shown={6} />
      <p className="hz-result-ids">
        <Link to={paths.article(data.pmid)}>PMID {data.pmid}</Link>
        {data.doi ? (
          <>
            {" · "}
            <ExternalLink href={doiUrl(data.doi)}>DOI {data.doi}</ExternalLink>
          </>
        ) : null}
        {external !== null && (
          <>
            {" · "}
            <ExternalLink href={external}>PubMed</ExternalLink>
          </>
        )}
      </p>
      {data.abstract ? <p className="hz-abstract">{data.abstract}</p> : <p className="hz-muted">No abstract.</p>}
      <CardActions rejectLabel="Close" onReject={callbacks.onReject} />
    </article>
  );
}
