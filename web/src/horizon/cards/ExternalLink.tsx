import type { ReactNode } from "react";

/** A link to another site, in a new tab; only http(s) addresses are links. */
export function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  if (!/^https?:\/\//i.test(href)) return <span>{children}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" data-external="">
      {children}
    </a>
  );
}
