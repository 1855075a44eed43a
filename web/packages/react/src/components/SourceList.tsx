import { ExternalLink } from "lucide-react";
import { sourceAnchor } from "../citations";
import type { Source } from "../types";

export interface SourceListProps {
  sources: Source[];
  /** Prefix of its entries' ids, which the answer's citations link to. */
  prefix: string;
}

/** The answer's sources, by number: each title opens its link (http(s) only) in a new tab. */
export function SourceList({ sources, prefix }: SourceListProps) {
  const numbered = sources.filter((s): s is Source & { number: number } => s.number !== null);
  if (numbered.length === 0) return null;
  const headingId = `${prefix}-sources`;
  return (
    <section className="pc-sources" aria-labelledby={headingId}>
      <h3 id={headingId} className="pc-sources-heading">
        Sources
      </h3>
      <ol>
        {numbered.map((source) => (
          <li key={source.number} id={sourceAnchor(prefix, source.number)} value={source.number} tabIndex={-1}>
            <span className="pc-source-number" aria-hidden="true">
              [{source.number}]
            </span>
            <span className="pc-source-body">
              {source.url !== null && /^https?:\/\//i.test(source.url) ? (
                <a href={source.url} target="_blank" rel="noopener noreferrer">
                  {source.title}
                  <ExternalLink aria-hidden="true" className="pc-source-external" size={12} />
                </a>
              ) : (
                <span className="pc-source-title">{source.title}</span>
              )}
              {source.detail !== "" && <span className="pc-source-detail">{source.detail}</span>}
              {source.snippet !== "" && <span className="pc-source-snippet">{source.snippet}</span>}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
