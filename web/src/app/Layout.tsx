import { Button } from "@pagechat/react";
import type { ReactNode } from "react";
import { AccountLinks } from "./account/AccountLinks";
import { shellPage } from "./account/shellPage";
import { useMe } from "./account/useMe";
import { Link, navigate, useLocation } from "./router";
import { ThemeSwitch } from "./ThemeSwitch";

export interface NavItem {
  to: string;
  label: string;
  current: boolean;
}

export interface LayoutProps {
  brand: string;
  /** The product's logo, before its name (decorative: the name is the link's text). */
  logo?: ReactNode;
  /** A few words under the name, e.g. what the product is. */
  tagline?: string;
  nav: NavItem[];
  email: string | null;
  onSignOut: () => void;
  /** Shown under the header on every page (e.g. which model answers). */
  banner?: ReactNode;
  children: ReactNode;
}

/** The app's frame: header with navigation and the account, a banner, then the page. At
 * the shell's own addresses (the account, the admins' usage) it shows the shell's page. */
export function Layout({ brand, logo, tagline, nav, email, onSignOut, banner, children }: LayoutProps) {
  const { pathname } = useLocation();
  const me = useMe();
  const shown = email ?? me?.email ?? null;
  const own = shellPage(pathname, {
    email: shown,
    onSignedOut: () => {
      // Signed in again, the user starts on the app's first page, not on the account.
      navigate("/", { replace: true });
      onSignOut();
    },
  });
  return (
    <div className="app-shell">
      <header className="app-header">
        <Link to="/" className="app-brand">
          {logo && (
            <span className="app-logo" aria-hidden="true">
              {logo}
            </span>
          )}
          <span className="app-brand-name">{brand}</span>
          {tagline && <span className="app-tagline">{tagline}</span>}
        </Link>
        <nav aria-label="Main" className="app-nav">
          {nav.map((item) => (
            <Link key={item.to} to={item.to} aria-current={item.current ? "page" : undefined} data-current={item.current || undefined}>
              {item.label}
            </Link>
          ))}
        </nav>
        <AccountLinks email={shown} isAdmin={me?.is_admin === true} pathname={pathname} />
        <ThemeSwitch />
        <Button variant="secondary" size="sm" onClick={onSignOut}>
          Sign out
        </Button>
      </header>
      {banner}
      <main className="app-main">{own ?? children}</main>
    </div>
  );
}
