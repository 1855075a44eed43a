import type { ButtonHTMLAttributes, Ref } from "react";

/** What a button does, by weight: the main action, another one, one that destroys, or a
 * quiet one that stays out of the way (a toolbar's, a card's Close). */
export type ButtonVariant = "primary" | "secondary" | "danger" | "quiet";

/** `sm` for toolbars and dense rows, `md` for forms and cards. Both are at least 24×24 px,
 * and 44×44 on a coarse pointer (chat.css). */
export type ButtonSize = "sm" | "md";

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  buttonRef?: Ref<HTMLButtonElement>;
}

/** The one button of the tray and of the apps built on it: a variant and a size, its colours
 * from the `--pc-*` tokens (light and dark). `type` is "button" unless given. */
export function Button({ variant = "secondary", size = "md", buttonRef, className, type = "button", ...rest }: ButtonProps) {
  return (
    <button
      ref={buttonRef}
      type={type}
      className={className === undefined ? "pc-btn" : `pc-btn ${className}`}
      data-variant={variant}
      data-size={size}
      {...rest}
    />
  );
}
