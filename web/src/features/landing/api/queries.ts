import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";

/** The landing page shows at most this many gainers. */
export const MOVERS_TEASER_LIMIT = 3;

// Postgres `numeric` may arrive as a string; accept both, reject anything non-finite.
const finiteNumber = z.union([z.number(), z.string().trim().min(1)]).pipe(z.coerce.number());

export const moverTeaserSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  symbol: z.string().min(1),
  exchange: z.string(),
  pct: finiteNumber,
  price: finiteNumber,
  ts: z.union([z.string(), z.number()]),
});

export type MoverTeaser = z.infer<typeof moverTeaserSchema>;

/** The strongest current gainers, public teaser data (view `movers_teaser`, strongest first). */
async function getMoversTeaser(): Promise<MoverTeaser[]> {
  const { data, error } = await supabase
    .from("movers_teaser")
    .select("*")
    .limit(MOVERS_TEASER_LIMIT);
  if (error) throw error;
  return z
    .array(moverTeaserSchema)
    .parse(data ?? [])
    .slice(0, MOVERS_TEASER_LIMIT);
}

export const landingQueries = {
  all: ["landing"] as const,
  moversTeaser: () =>
    queryOptions({
      queryKey: [...landingQueries.all, "movers-teaser"] as const,
      queryFn: getMoversTeaser,
    }),
};
