import type { ReactNode } from "react";

export interface ChangeProps {
  label: string;
  before: ReactNode;
  after: ReactNode;
}

/** One field a proposal changes: what it is now, and what it would become. */
export function Change({ label, before, after }: ChangeProps) {
  return (
    <section className="hz-change" aria-label={label}>
      <h4>{label}</h4>
      <div className="hz-change-row">
        <div data-side="before">
          <span className="hz-change-tag">Now</span>
          {before}
        </div>
        <div data-side="after">
          <span className="hz-change-tag">Proposed</span>
          {after}
        </div>
      </div>
    </section>
  );
}
