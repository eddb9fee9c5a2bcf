// The demo accounts created by supabase/seed.sql (local stack only; never on a hosted project).
export const DEMO_PASSWORD = "demo-password-1";

export const DEMO_ACCOUNTS = [
  { email: "free@demo.local", plan: "none", role: "user" },
  { email: "basic@demo.local", plan: "basic", role: "user" },
  { email: "pro@demo.local", plan: "pro", role: "user" },
  { email: "enterprise@demo.local", plan: "enterprise", role: "user" },
  { email: "admin@demo.local", plan: "enterprise", role: "admin" },
  { email: "banned@demo.local", plan: "pro", role: "banned" },
] as const;
