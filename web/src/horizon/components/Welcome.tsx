import { Hints } from "@pagechat/react";

/** What the empty tray says on a page: what it sees, and things to try (a click asks them). */
export function Welcome({ about, tries }: { about: string; tries: string[] }) {
  return (
    <div className="hz-welcome">
      <p>{about}</p>
      <Hints hints={tries} />
    </div>
  );
}
