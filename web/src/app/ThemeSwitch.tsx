import { Monitor, Moon, Sun, type LucideIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { applyTheme, onThemeStored, saveTheme, storedTheme, THEMES, type Theme } from "./theme";

const LABEL: Record<Theme, string> = { system: "System theme", light: "Light theme", dark: "Dark theme" };
const ICON: Record<Theme, LucideIcon> = { system: Monitor, light: Sun, dark: Moon };

/** Light, dark or the system's: three toggle buttons in the header, the choice kept per browser. */
export function ThemeSwitch() {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  useEffect(
    () =>
      onThemeStored((next) => {
        setTheme(next);
        applyTheme(next);
      }),
    [],
  );
  return (
    <div className="app-theme" role="group" aria-label="Colour theme">
      {THEMES.map((option) => {
        const Icon = ICON[option];
        return (
          <button
            key={option}
            type="button"
            className="app-theme-option"
            aria-label={LABEL[option]}
            title={LABEL[option]}
            aria-pressed={theme === option}
            onClick={() => {
              setTheme(option);
              saveTheme(option);
            }}
          >
            <Icon size={16} aria-hidden="true" />
          </button>
        );
      })}
    </div>
  );
}
