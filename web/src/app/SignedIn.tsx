import { PlainChat } from "./PlainChat";
import { useServerApp, type ShellApp } from "./shellApp";

export interface SignedInProps {
  apps: readonly ShellApp[];
  token: string | null;
  onSignOut: () => void;
}

/** The app the server runs, for a signed-in user; a page-less chat when it runs none of them. */
export function SignedIn({ apps, token, onSignOut }: SignedInProps) {
  const found = useServerApp(apps, token, onSignOut);
  if (found.status === "checking")
    return (
      <p className="app-loading" role="status">
        Loading…
      </p>
    );
  if (found.app === null) return <PlainChat token={token} onSignOut={onSignOut} pages={found.pages} />;
  const { Component } = found.app;
  return <Component token={token} onSignOut={onSignOut} pages={found.pages} />;
}
