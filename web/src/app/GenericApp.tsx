// The shell for an app it has no screens for (one outside this repository): a plain page per
// page the server registered, with the tray bound to it (`current_page`), so the assistant knows
// the page it is on and tool payloads show as schema cards (or the app's registered cards).
import { useEffect, useMemo, useState } from "react";
import { createChatApi } from "@pagechat/react";
import { Layout, type NavItem } from "./Layout";
import { PageChatHost, usePageChat, type PageChat } from "./pageChat";
import { matchPath, useLocation } from "./router";
import type { AppProps, ShellApp } from "./shellApp";

/** "shopping_list" → "Shopping list". */
export function pageTitle(page: string): string {
  const text = page.replace(/[_-]+/g, " ").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The page the address names (`/pages/<name>`), else the first of `pages`. */
export function currentPage(pages: readonly string[], pathname: string): string | undefined {
  const name = matchPath("/pages/:page", pathname)?.page;
  return name !== undefined && pages.includes(name) ? name : pages[0];
}

function GenericPage({ page }: { page: string }) {
  const title = pageTitle(page);
  const chat = useMemo<PageChat>(
    () => ({ context: { current_page: page }, welcome: <p>Ask the assistant about {title}.</p> }),
    [page, title],
  );
  usePageChat(chat);
  return (
    <section className="app-card" aria-labelledby="generic-page-title">
      <h1 id="generic-page-title">{title}</h1>
      <p>The assistant on this page knows it is on “{page}”. Open it with the button in the corner.</p>
    </section>
  );
}

export function GenericApp({ token, onSignOut, pages }: AppProps) {
  const { pathname } = useLocation();
  const [email, setEmail] = useState<string | null>(null);
  useEffect(() => {
    createChatApi({ getToken: () => token, onUnauthorized: onSignOut })
      .me()
      .then(
        (user) => {
          setEmail(user.email);
        },
        () => undefined,
      );
  }, [token, onSignOut]);
  const page = currentPage(pages, pathname);
  const nav: NavItem[] =
    pages.length > 1 ? pages.map((name) => ({ to: `/pages/${encodeURIComponent(name)}`, label: pageTitle(name), current: name === page })) : [];
  return (
    <PageChatHost token={token} onUnauthorized={onSignOut} title="Assistant">
      <Layout brand="pagechat" nav={nav} email={email} onSignOut={onSignOut}>
        {page === undefined ? <p className="app-card">This server registers no pages.</p> : <GenericPage key={page} page={page} />}
      </Layout>
    </PageChatHost>
  );
}

/** Any pages no other app of the list claims: last but the demo in src/apps.ts. */
export const GENERIC_APP: ShellApp = { name: "generic", pages: [], anyPages: true, Component: GenericApp };
