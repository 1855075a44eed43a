// The shell's own pages, under every app's frame (Layout): the account, and the admins' usage.
export const ACCOUNT_PATH = "/account";
export const USAGE_PATH = "/admin/usage";
