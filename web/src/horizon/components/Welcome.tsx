/** What the empty tray says on a page: what it sees, and things to try. */
export function Welcome({ about, tries }: { about: string; tries: string[] }) {
  return (
    <div className="hz-welcome">
      <p>{about}</p>
      {tries.length > 0 && (
        <p>
          Try: {tries.map((t, i) => (
            <span key={t}>
              {i > 0 ? ", " : ""}“{t}”
            </span>
          ))}
          .
        </p>
      )}
    </div>
  );
}
