import { useMemo } from "react";
import { usePageChat } from "../../app/pageChat";
import { Link } from "../../app/router";
import { paths } from "../paths";

export function NotFoundPage() {
  const chat = useMemo(() => ({ context: { current_page: "streams" } }), []);
  usePageChat(chat);
  return (
    <section className="hz-page">
      <h1>Page not found</h1>
      <p>
        <Link to={paths.streams()}>Go to your streams</Link>
      </p>
    </section>
  );
}
