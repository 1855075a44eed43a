import type { ReactNode } from "react";

export interface RefusalProps {
  title: string;
  children: ReactNode;
}

/** A page the signed-in user may not see: says so, and why, in place of the page. */
export function Refusal({ title, children }: RefusalProps) {
  return (
    <section className="app-card app-refusal" role="alert" aria-labelledby="app-refusal-title">
      <h1 id="app-refusal-title">{title}</h1>
      <p>{children}</p>
    </section>
  );
}
