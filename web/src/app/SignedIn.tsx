import { HorizonApp } from "../horizon/HorizonApp";
import { DemoPage } from "./DemoPage";
import { useServerApp } from "./serverApp";

/** The app the server runs, for a signed-in user: Horizon, or pagechat's demo page. */
export function SignedIn({ token, onSignOut }: { token: string | null; onSignOut: () => void }) {
  const app = useServerApp(token, onSignOut);
  if (app === "checking")
    return (
      <p className="app-loading" role="status">
        Loading…
      </p>
    );
  if (app === "demo") return <DemoPage token={token} onSignOut={onSignOut} />;
  return <HorizonApp token={token} onSignOut={onSignOut} />;
}
