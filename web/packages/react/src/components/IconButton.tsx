import type { LucideIcon } from "lucide-react";
import type { ButtonHTMLAttributes, Ref } from "react";

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "children" | "aria-label" | "title"> {
  icon: LucideIcon;
  /** The button's accessible name, also shown as its tooltip. */
  label: string;
  buttonRef?: Ref<HTMLButtonElement>;
}

/** A button showing only an SVG icon: named for screen readers, with the name as its tooltip. */
export function IconButton({ icon: Icon, label, buttonRef, className = "pc-icon-button", ...rest }: IconButtonProps) {
  return (
    <button ref={buttonRef} type="button" className={className} aria-label={label} title={label} {...rest}>
      <Icon size={16} aria-hidden="true" focusable="false" />
    </button>
  );
}
