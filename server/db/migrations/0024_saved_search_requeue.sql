-- Saved searches' matching: an ad that becomes listed again is matched again, whatever became of its previous match
-- job (issue 28). 0020 queued with ON CONFLICT (key) DO NOTHING, so the row of an earlier listing kept its key: a job
-- failed for good (jobs.ts keeps it with failed_at, never to run), one waiting for a retry (up to an hour's back-off),
-- or one running that read the ad before this change; each swallowed the new listing, and the searches it matches were
-- never alerted. Now the one row of the ad is made a fresh job of this listing: due now, no attempt counted, unlocked
-- (a running holder's lease no longer matches, so its settling leaves the row and the job runs again), created now (the
-- match's queuedAt: searches saved until this listing may be alerted). Still one job per ad, and a hit row per (search,
-- ad) keeps an ad from alerting the same search twice (server/modules/saved-searches/match-queue.test.ts).
CREATE OR REPLACE FUNCTION saved_searches_queue_listed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM saved_searches WHERE NOT paused AND alerts <> 'off') THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO jobs (name, key, payload, max_attempts)
    SELECT 'saved-searches:match', 'saved-searches:match:' || n.id, jsonb_build_object('ad_id', n.id), 5
      FROM new_ads n WHERE n.is_listed
    ON CONFLICT (key) DO UPDATE SET name = EXCLUDED.name, payload = EXCLUDED.payload, run_at = EXCLUDED.run_at,
      attempts = 0, max_attempts = EXCLUDED.max_attempts, locked_until = NULL, last_error = NULL, failed_at = NULL,
      created_at = EXCLUDED.created_at;
  ELSE
    INSERT INTO jobs (name, key, payload, max_attempts)
    SELECT 'saved-searches:match', 'saved-searches:match:' || n.id, jsonb_build_object('ad_id', n.id), 5
      FROM new_ads n JOIN old_ads o ON o.id = n.id WHERE n.is_listed AND NOT o.is_listed
    ON CONFLICT (key) DO UPDATE SET name = EXCLUDED.name, payload = EXCLUDED.payload, run_at = EXCLUDED.run_at,
      attempts = 0, max_attempts = EXCLUDED.max_attempts, locked_until = NULL, last_error = NULL, failed_at = NULL,
      created_at = EXCLUDED.created_at;
  END IF;
  RETURN NULL;
END $$;
