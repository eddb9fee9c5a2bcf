-- The window look-ups read the history's primary key alone (issue 26, decision 0099).
--
-- ingest_scan's window probes (eight a quote, each the sample nearest a fixed offset before the
-- quote) and the flags' window start read public.price_history by its primary key
-- (instrument_id, ts) and need the sample's price: every probe that finds a sample fetched its
-- heap page. An instrument's samples are one to a scan batch, so its eight probes fetched eight
-- pages spread over the whole table, while its index entries sit together on a few leaf pages.
-- The primary key now carries the price (include), so a probe whose page the visibility map marks
-- all-visible reads the index alone (an index-only scan). Keys, uniqueness and the conflict target
-- of every insert (on conflict (instrument_id, ts)) are the same.
--
-- Pages become all-visible when vacuum passes them. The history is written by inserts (a sample a
-- quote) and a delete of the oldest samples (retention), so by default autovacuum would visit it
-- after inserts reaching 20 % of the table: at the venues' cadence about every 40 minutes, leaving
-- the last half hour's pages — the ones the 5- to 30-minute windows read — not all-visible. The
-- table now asks for an insert-driven vacuum after 100,000 inserted rows whatever its size (at
-- issue 25's 3,000 pairs and 2,000 pools, under a minute of quotes; autovacuum looks once a
-- minute): each pass visits only the pages written since the last one (the visibility map skips
-- the rest), and the retention delete's dead rows on each pass stay under the 2 % of pages below
-- which PostgreSQL 14+ skips the index vacuum.
alter table public.price_history drop constraint price_history_pkey;
create unique index price_history_pkey on public.price_history (instrument_id, ts) include (price);
alter table public.price_history add constraint price_history_pkey primary key using index price_history_pkey;

alter table public.price_history set (
  autovacuum_vacuum_insert_threshold = 100000,
  autovacuum_vacuum_insert_scale_factor = 0
);
