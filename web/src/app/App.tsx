import { useCallback, useState } from "react";
import { readToken, writeToken } from "./auth";
import { DemoPage } from "./DemoPage";
import { LoginForm } from "./LoginForm";

/** The minimal shell: a login form, then the demo page with the chat tray. */
export function App() {
  const [token, setToken] = useState<string | null>(readToken);
  const signIn = useCallback((next: string) => {
    writeToken(next);
    setToken(next);
  }, []);
  const signOut = useCallback(() => {
    writeToken(null);
    setToken(null);
  }, []);
  if (token === null) return <LoginForm onLogin={signIn} />;
  return <DemoPage token={token} onSignOut={signOut} />;
}
