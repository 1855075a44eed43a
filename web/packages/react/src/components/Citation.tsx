import { useContext, type ComponentProps, type MouseEvent } from "react";
import type { ExtraProps } from "react-markdown";
import { sourceAnchor } from "../citations";
import { SourcesContext } from "./SourcesContext";

/**
 * A `[n]` of the answer's text (a `cite` element from `remarkCitations`): a link to source n
 * in the Sources list under the answer when the answer has it, else the plain text it was.
 */
export function Citation({ node, children }: ComponentProps<"cite"> & ExtraProps) {
  const answer = useContext(SourcesContext);
  const n = Number(node?.properties.dataN);
  const source = answer?.byNumber.get(n);
  if (answer === null || source === undefined) return <>{children}</>;
  const id = sourceAnchor(answer.prefix, n);
  const jump = (event: MouseEvent<HTMLAnchorElement>) => {
    // In the tray, not through the page's URL: a host app's router never sees the hash.
    event.preventDefault();
    // Focus brings the entry into view, and a screen reader to it.
    document.getElementById(id)?.focus();
  };
  return (
    <a className="pc-cite" href={`#${id}`} title={source.title} aria-label={`Source ${String(n)}: ${source.title}`} onClick={jump}>
      {children}
    </a>
  );
}
