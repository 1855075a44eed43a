export interface BylineProps {
  authors?: string[];
  journal?: string;
  year?: number | null;
  /** How many authors to name before "et al.". */
  shown?: number;
}

/** "Smith J, Lee K et al. · Journal · 2024" */
export function Byline({ authors = [], journal, year, shown = 3 }: BylineProps) {
  const names = authors.slice(0, shown).join(", ") + (authors.length > shown ? " et al." : "");
  const parts = [names, journal ?? "", year === null || year === undefined ? "" : String(year)].filter(Boolean);
  if (parts.length === 0) return null;
  return <p className="hz-byline">{parts.join(" · ")}</p>;
}
