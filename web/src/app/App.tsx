import { useCallback, useState } from "react";
import { forgetChat, readToken, writeToken } from "./auth";
import { LoginForm } from "./LoginForm";
import { SignedIn } from "./SignedIn";

/** The shell: a login form, then the app the server runs. */
export function App() {
  const [token, setToken] = useState<string | null>(readToken);
  const signIn = useCallback((next: string) => {
    writeToken(next);
    setToken(next);
  }, []);
  const signOut = useCallback(() => {
    writeToken(null);
    forgetChat();
    setToken(null);
  }, []);
  if (token === null) return <LoginForm onLogin={signIn} />;
  return <SignedIn token={token} onSignOut={signOut} />;
}
