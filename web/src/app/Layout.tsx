import type { ReactNode } from "react";
import { Link } from "./router";

export interface NavItem {
  to: string;
  label: string;
  current: boolean;
}

export interface LayoutProps {
  brand: string;
  nav: NavItem[];
  email: string | null;
  onSignOut: () => void;
  /** Shown under the header on every page (e.g. which model answers). */
  banner?: ReactNode;
  children: ReactNode;
}

/** The app's frame: header with navigation and the account, a banner, then the page. */
export function Layout({ brand, nav, email, onSignOut, banner, children }: LayoutProps) {
  return (
    <div className="app-shell">
      <header className="app-header">
        <Link to="/" className="app-brand">
          {brand}
        </Link>
        <nav aria-label="Main" className="app-nav">
          {nav.map((item) => (
            <Link key={item.to} to={item.to} aria-current={item.current ? "page" : undefined} data-current={item.current || undefined}>
              {item.label}
            </Link>
          ))}
        </nav>
        <span className="app-user">{email}</span>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      {banner}
      <main className="app-main">{children}</main>
    </div>
  );
}
