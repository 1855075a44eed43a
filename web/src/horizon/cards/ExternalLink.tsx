import { ExternalLink as ExternalLinkIcon } from "lucide-react";
import type { ReactNode } from "react";

/** A link to another site, in a new tab (marked with an icon that says so); only http(s) addresses are links. */
export function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  if (!/^https?:\/\//i.test(href)) return <span>{children}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" data-external="">
      {children}{" "}
      <ExternalLinkIcon size={12} aria-hidden="true" className="hz-external-icon" />
      <span className="hz-visually-hidden">(opens in a new tab)</span>
    </a>
  );
}
