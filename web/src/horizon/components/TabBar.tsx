import type { KeyboardEvent } from "react";

export interface TabBarProps<T extends string> {
  label: string;
  tabs: readonly { id: T; title: string }[];
  active: T;
  onSelect: (tab: T) => void;
  /** The id prefix of the tab panel each tab controls (`${panelId}-${tab}`). */
  panelId: string;
}

/** Tabs with arrow-key movement, as ARIA describes them. */
export function TabBar<T extends string>({ label, tabs, active, onSelect, panelId }: TabBarProps<T>) {
  const move = (event: KeyboardEvent, index: number) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = tabs[(index + step + tabs.length) % tabs.length];
    if (next) {
      onSelect(next.id);
      document.getElementById(`${panelId}-tab-${next.id}`)?.focus();
    }
  };
  return (
    <div role="tablist" aria-label={label} className="hz-tabs">
      {tabs.map((tab, index) => (
        <button
          key={tab.id}
          id={`${panelId}-tab-${tab.id}`}
          type="button"
          role="tab"
          aria-selected={tab.id === active}
          aria-controls={`${panelId}-${tab.id}`}
          tabIndex={tab.id === active ? 0 : -1}
          data-active={tab.id === active || undefined}
          onClick={() => {
            onSelect(tab.id);
          }}
          onKeyDown={(e) => {
            move(e, index);
          }}
        >
          {tab.title}
        </button>
      ))}
    </div>
  );
}
