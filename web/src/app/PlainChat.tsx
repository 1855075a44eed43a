import { useEffect, useState } from "react";
import { createChatApi } from "@pagechat/react";
import { Layout } from "./Layout";
import { PageChatHost } from "./pageChat";
import type { AppProps } from "./shellApp";

/** pagechat without an app: the assistant with no page (global tools only). */
export function PlainChat({ token, onSignOut }: AppProps) {
  const [email, setEmail] = useState<string | null>(null);
  useEffect(() => {
    createChatApi({ getToken: () => token, onUnauthorized: onSignOut })
      .me()
      .then(
        (user) => {
          setEmail(user.email);
        },
        () => undefined,
      );
  }, [token, onSignOut]);
  return (
    <PageChatHost token={token} onUnauthorized={onSignOut} title="Assistant">
      <Layout brand="pagechat" nav={[]} email={email} onSignOut={onSignOut}>
        <p className="app-card">This server runs no app with pages of its own: the assistant has no page.</p>
      </Layout>
    </PageChatHost>
  );
}
