// Horizon's pages by address (see paths.ts for the addresses).
import type { ReactNode } from "react";
import { matchPath } from "../app/router";
import { ArticlePage } from "./pages/ArticlePage";
import { EditStreamPage } from "./pages/EditStreamPage";
import { NewStreamPage } from "./pages/NewStreamPage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { ReportPage } from "./pages/ReportPage";
import { StreamReportsPage } from "./pages/StreamReportsPage";
import { StreamsPage } from "./pages/StreamsPage";

export type Section = "streams" | "new" | "other";

interface Route {
  pattern: string;
  section: Section;
  render: (params: Record<string, string>) => ReactNode | null;
}

const id = (value: string | undefined): number | null => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
};

const withId = (value: string | undefined, render: (n: number) => ReactNode) => {
  const n = id(value);
  return n === null ? null : render(n);
};

const ROUTES: Route[] = [
  { pattern: "/", section: "streams", render: () => <StreamsPage /> },
  { pattern: "/streams/new", section: "new", render: () => <NewStreamPage /> },
  { pattern: "/streams/:id", section: "streams", render: (p) => withId(p.id, (n) => <EditStreamPage key={n} id={n} />) },
  { pattern: "/streams/:id/reports", section: "streams", render: (p) => withId(p.id, (n) => <StreamReportsPage key={n} streamId={n} />) },
  { pattern: "/reports/:id", section: "streams", render: (p) => withId(p.id, (n) => <ReportPage key={n} id={n} />) },
  { pattern: "/articles/:pmid", section: "other", render: (p) => (p.pmid ? <ArticlePage key={p.pmid} pmid={p.pmid} /> : null) },
];

/** The page at `pathname`, and the navigation section it belongs to. */
export function resolveRoute(pathname: string): { page: ReactNode; section: Section } {
  for (const route of ROUTES) {
    const params = matchPath(route.pattern, pathname);
    if (params === null) continue;
    const page = route.render(params);
    if (page !== null) return { page, section: route.section };
  }
  return { page: <NotFoundPage />, section: "other" };
}
