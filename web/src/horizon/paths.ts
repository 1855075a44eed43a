// Horizon's addresses, in one place: the route table matches them, links build them.
import type { Tab } from "./draft";

export const paths = {
  streams: () => "/",
  newStream: () => "/streams/new",
  stream: (id: number, tab?: Tab) => (tab && tab !== "semantic" ? `/streams/${String(id)}?tab=${tab}` : `/streams/${String(id)}`),
  streamReports: (id: number) => `/streams/${String(id)}/reports`,
  report: (id: number) => `/reports/${String(id)}`,
  article: (pmid: string, reportId?: number) =>
    `/articles/${encodeURIComponent(pmid)}${reportId === undefined ? "" : `?report=${String(reportId)}`}`,
};

/** PubMed's page for a PMID; none for the synthetic sample's ids (SYN…). */
export function pubmedUrl(pmid: string): string | null {
  return /^\d+$/.test(pmid) ? `https://pubmed.ncbi.nlm.nih.gov/${pmid}/` : null;
}

/** The DOI resolver's address for a DOI. */
export function doiUrl(doi: string): string {
  return `https://doi.org/${encodeURI(doi)}`;
}
