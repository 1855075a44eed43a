import { Button } from "@pagechat/react";
import type { ReactNode } from "react";
import { Link } from "./router";
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

/** The app's frame: header with navigation and the account, a banner, then the page. */
export function Layout({ brand, logo, tagline, nav, email, onSignOut, banner, children }: LayoutProps) {
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
        <span className="app-user">{email}</span>
        <ThemeSwitch />
        <Button variant="secondary" size="sm" onClick={onSignOut}>
          Sign out
        </Button>
      </header>
      {banner}
      <main className="app-main">{children}</main>
    </div>
  );
}
