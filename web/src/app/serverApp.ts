// Which app the server runs: Horizon when it answers Horizon's routes, else pagechat's demo
// page (the scripted server of the chat tray's browser tests has no Horizon).
import { useEffect, useState } from "react";

export type ServerApp = "checking" | "horizon" | "demo";

export function useServerApp(token: string | null, onUnauthorized: () => void): ServerApp {
  const [app, setApp] = useState<ServerApp>("checking");
  useEffect(() => {
    const controller = new AbortController();
    const headers: Record<string, string> = token === null ? {} : { Authorization: `Bearer ${token}` };
    fetch("/api/horizon/streams", { headers, credentials: "same-origin", signal: controller.signal }).then(
      (response) => {
        if (response.status === 401) onUnauthorized();
        else setApp(response.status === 404 ? "demo" : "horizon");
      },
      () => {
        // Offline or aborted: try Horizon, whose pages say what failed.
        if (!controller.signal.aborted) setApp("horizon");
      },
    );
    return () => {
      controller.abort();
    };
  }, [token, onUnauthorized]);
  return app;
}
