// CORS for the functions browsers call (checkout, billing-portal, avatar): the same rules as
// the /api compatibility layer.
import { cors } from "hono/cors";
import { corsHeaders } from "./http.ts";

export const corsMiddleware = () =>
  cors({
    origin: (origin) => origin || "*",
    credentials: true,
    allowHeaders: corsHeaders["Access-Control-Allow-Headers"]!.split(", "),
    allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
  });
