import { ClipboardList } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { Button, ChatTray, createChatApi, type ClientActions, type PayloadHandlers } from "@pagechat/react";
import { registerAppPayloads } from "./payloads";
import { asProposal, ProposalCard } from "./ProposalCard";
import type { ShellApp } from "./shellApp";

interface Project {
  name: string;
  priority: string;
  tags: string[];
}

const PRIORITIES = ["low", "medium", "high"];

/** A page with some state for the assistant to see and change. Horizon's pages replace it. */
export function DemoPage({ token, onSignOut }: { token: string | null; onSignOut: () => void }) {
  const [project, setProject] = useState<Project>({ name: "Demo project", priority: "medium", tags: ["alpha"] });
  const [tag, setTag] = useState("");
  const [email, setEmail] = useState<string | null>(null);

  useEffect(registerAppPayloads, []);

  // Who is signed in; a token the server no longer accepts signs out at once.
  useEffect(() => {
    const api = createChatApi({ getToken: () => token, onUnauthorized: onSignOut });
    api.me().then(
      (user) => {
        setEmail(user.email);
      },
      () => undefined,
    );
  }, [token, onSignOut]);

  const context = useMemo(() => ({ current_page: "demo", project }), [project]);

  const payloadHandlers = useMemo<PayloadHandlers>(
    () => ({
      project_proposal: {
        render: (data, callbacks) => <ProposalCard data={data} callbacks={callbacks} />,
        onAccept: (data) => {
          const p = asProposal(data);
          setProject((current) => ({
            name: p.name ?? current.name,
            priority: p.priority ?? current.priority,
            tags: p.tags ?? current.tags,
          }));
        },
        renderOptions: { headerTitle: "Project proposal", headerIcon: <ClipboardList size={18} />, panelWidth: "380px" },
      },
    }),
    [],
  );

  const clientActions = useMemo<ClientActions>(
    () => ({
      set_priority: (data) => {
        const priority = data?.priority;
        if (typeof priority === "string" && PRIORITIES.includes(priority)) setProject((p) => ({ ...p, priority }));
      },
    }),
    [],
  );

  return (
    <div className="app-page">
      <header className="app-header">
        <h1>pagechat demo</h1>
        <span className="app-user">{email}</span>
        <Button variant="secondary" size="sm" onClick={onSignOut}>
          Sign out
        </Button>
      </header>
      <main className="app-card" aria-label="Project">
        <label>
          Name
          <input value={project.name} onChange={(e) => { setProject({ ...project, name: e.target.value }); }} />
        </label>
        <label>
          Priority
          <select value={project.priority} onChange={(e) => { setProject({ ...project, priority: e.target.value }); }}>
            {PRIORITIES.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <div>
          Tags:{" "}
          <span data-testid="project-tags">{project.tags.join(", ") || "none"}</span>
        </div>
        <form
          className="app-row"
          onSubmit={(e) => {
            e.preventDefault();
            if (tag.trim()) setProject({ ...project, tags: [...project.tags, tag.trim()] });
            setTag("");
          }}
        >
          <input aria-label="New tag" value={tag} onChange={(e) => { setTag(e.target.value); }} />
          <Button type="submit">Add tag</Button>
        </form>
      </main>
      <ChatTray
        context={context}
        getToken={() => token}
        onUnauthorized={onSignOut}
        payloadHandlers={payloadHandlers}
        clientActions={clientActions}
        title="Assistant"
        welcome={<p>Ask about this project. Try “tool”, “choices”, “long” or “payload”.</p>}
      />
    </div>
  );
}

/** The chat tray's own demo (the scripted server of its browser tests registers "demo"). */
export const DEMO_APP: ShellApp = { name: "demo", pages: ["demo"], Component: DemoPage };
