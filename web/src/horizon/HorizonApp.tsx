import { Sunrise } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import type { ShellApp } from "../app/shellApp";
import { createChatApi } from "@pagechat/react";
import { Layout } from "../app/Layout";
import { PageChatHost } from "../app/pageChat";
import { useLocation } from "../app/router";
import { createHorizonApi } from "./api";
import { ModelNotice } from "./components/ModelNotice";
import { registerHorizonPayloads } from "./globalPayloads";
import { HorizonApiContext } from "./HorizonContext";
import { HORIZON_PAGES } from "./generated/api";
import { paths } from "./paths";
import { resolveRoute } from "./routes";
import { useAssistantModel } from "./useAssistantModel";
import "./horizon.css";

export interface HorizonAppProps {
  token: string | null;
  onSignOut: () => void;
}

/** Horizon: research streams, their reports and articles, with the assistant on every page. */
export function HorizonApp({ token, onSignOut }: HorizonAppProps) {
  const api = useMemo(() => createHorizonApi(() => token, onSignOut), [token, onSignOut]);
  const [email, setEmail] = useState<string | null>(null);
  const model = useAssistantModel();
  const location = useLocation();
  const { page, section } = resolveRoute(location.pathname);

  useEffect(registerHorizonPayloads, []);

  useEffect(() => {
    let live = true;
    createChatApi({ getToken: () => token, onUnauthorized: onSignOut })
      .me()
      .then(
        (user) => {
          if (live) setEmail(user.email);
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [token, onSignOut]);

  return (
    <HorizonApiContext.Provider value={api}>
      <PageChatHost token={token} onUnauthorized={onSignOut} title="Assistant">
        <Layout
          brand="Horizon"
          logo={<Sunrise size={22} strokeWidth={2.25} />}
          tagline="research monitoring"
          nav={[
            { to: paths.streams(), label: "Streams", current: section === "streams" },
            { to: paths.newStream(), label: "New stream", current: section === "new" },
          ]}
          email={email}
          onSignOut={onSignOut}
          banner={<ModelNotice model={model} />}
        >
          {page}
        </Layout>
      </PageChatHost>
    </HorizonApiContext.Provider>
  );
}

export const HORIZON_APP: ShellApp = { name: "horizon", pages: Object.keys(HORIZON_PAGES), Component: HorizonApp };
