import { useCallback, useEffect, useMemo, useState } from "react";
import { createChatApi } from "@pagechat/react";
import { forgetChat, forgetOldToken } from "./auth";
import { LoginForm } from "./LoginForm";
import type { ShellApp } from "./shellApp";
import { SignedIn } from "./SignedIn";

type Session = "checking" | "signed-out" | "signed-in";

/** The shell: a login form, then the one of `apps` the server runs. The session is a cookie. */
export function App({ apps }: { apps: readonly ShellApp[] }) {
  const api = useMemo(() => createChatApi({ getToken: () => null }), []);
  const [session, setSession] = useState<Session>("checking");
  useEffect(() => {
    forgetOldToken();
    api.me().then(
      () => {
        setSession("signed-in");
      },
      () => {
        setSession("signed-out");
      },
    );
  }, [api]);
  const signIn = useCallback(() => {
    setSession("signed-in");
  }, []);
  const signOut = useCallback(() => {
    forgetChat();
    setSession("signed-out");
    // The cookie is HttpOnly: only the server can clear it.
    api.logout().catch(() => undefined);
  }, [api]);
  if (session === "checking")
    return (
      <p className="app-loading" role="status">
        Loading…
      </p>
    );
  if (session === "signed-out") return <LoginForm onLogin={signIn} />;
  return <SignedIn apps={apps} token={null} onSignOut={signOut} />;
}
