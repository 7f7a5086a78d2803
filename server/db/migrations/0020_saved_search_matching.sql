-- Saved searches' matching (issue 28). When an ad becomes visible it is matched against the saved searches, not by
-- running each search again (100,000 of them) but by an index: each search keeps the keys it can possibly match in a
-- GIN array (`match_keys`), the ad's keys are computed once, and `&&` finds the few candidates, which the server then
-- checks with the listing's own rules (listings.repository.ts listingShowsAd). The keys, all scoped by the search's
-- filters ("{city|*}/{section|*}"), so a candidate is always in the right city and section:
--   {scope}:l:{lexeme}  a lexeme of the search's wanted words (websearch's negated words and OR left out): an AND
--                       query matches only ads holding all of them, an OR query one of them, so at least one;
--   {scope}:all         a search without wanted words (no text, or only negations): every ad of its scope;
--   d:{deletion}        for the typo correction: each word of 5+ letters with up to its typo budget of letters
--                       deleted (SymSpell: two words within k typos share a string reached by deleting at most k
--                       letters from each). The ad side deletes letters from the vocabulary words sharing its lexemes,
--                       the words a correction may put in the query. Not scoped (fewer keys on the ad's side); the
--                       candidates' filters are checked with the index's answer.
-- A search made of stop words only has no keys: the listing shows nothing for it either.
ALTER TABLE "saved_searches" ADD COLUMN "match_keys" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "push_preferences" ADD COLUMN "saved_searches" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- The strings reached from w by deleting up to k letters (w itself included).
CREATE FUNCTION word_deletions(w text, k integer) RETURNS text[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
  level text[] := ARRAY[w];
  result text[] := ARRAY[w];
  nxt text[];
  x text;
BEGIN
  FOR step IN 1..k LOOP
    nxt := '{}';
    FOREACH x IN ARRAY level LOOP
      FOR i IN 1..length(x) LOOP
        nxt := nxt || (left(x, i - 1) || substr(x, i + 1));
      END LOOP;
    END LOOP;
    level := ARRAY(SELECT DISTINCT unnest(nxt));
    result := result || level;
  END LOOP;
  RETURN ARRAY(SELECT DISTINCT unnest(result));
END $$;--> statement-breakpoint
CREATE FUNCTION saved_search_keys(p_search text, p_city integer, p_section integer) RETURNS text[]
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  scope text := coalesce(p_city::text, '*') || '/' || coalesce(p_section::text, '*');
  wanted text;
  lexemes text[];
BEGIN
  -- As listings.repository.ts wantedText(): the words typed to find ads with.
  wanted := array_to_string(ARRAY(SELECT w FROM regexp_split_to_table(coalesce(p_search, ''), '\s+') AS w
                                  WHERE w <> '' AND left(w, 1) <> '-' AND lower(w) <> 'or'), ' ');
  IF wanted = '' THEN RETURN ARRAY[scope || ':all']; END IF;
  lexemes := tsvector_to_array(to_tsvector('es_unaccent', wanted));
  IF cardinality(lexemes) = 0 THEN RETURN '{}'; END IF;
  -- Typo budget as typos.ts typoBudget(): 1 from 5 letters, 2 from 9.
  RETURN ARRAY(SELECT scope || ':l:' || l FROM unnest(lexemes) AS l)
      || ARRAY(SELECT DISTINCT 'd:' || d FROM search_words_of(wanted) AS w,
                      unnest(word_deletions(w, CASE WHEN length(w) >= 9 THEN 2 ELSE 1 END)) AS d
                WHERE length(w) >= 5);
END $$;--> statement-breakpoint
CREATE FUNCTION saved_searches_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.match_keys := saved_search_keys(NEW.search, NEW.city_id, NEW.section_id);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER saved_searches_keys BEFORE INSERT OR UPDATE OF search, city_id, section_id ON saved_searches
  FOR EACH ROW EXECUTE FUNCTION saved_searches_keys();--> statement-breakpoint
-- Only the searches that may alert are indexed: a paused search or one with alerts off is never a candidate.
CREATE INDEX "saved_searches_match_idx" ON "saved_searches" USING gin ("match_keys") WHERE NOT "paused" AND "alerts" <> 'off';--> statement-breakpoint
-- The keys of a listed ad: its scopes × (all, its lexemes), and the deletions of the vocabulary words that share its
-- lexemes (a vocabulary word of 7+ letters may be the correction of a 9-letter typed word, two typos away).
CREATE FUNCTION saved_search_ad_keys(p_ad integer) RETURNS text[] LANGUAGE sql STABLE AS $$
  WITH ad AS (SELECT city_id, section_id, tsvector_to_array(search_vector) AS lexemes FROM ads WHERE id = p_ad),
  scopes AS (SELECT unnest(ARRAY[city_id || '/' || section_id, city_id || '/*', '*/' || section_id, '*/*']) AS scope FROM ad)
  SELECT ARRAY(
    SELECT s.scope || ':all' FROM scopes s
    UNION ALL
    SELECT s.scope || ':l:' || l FROM scopes s, ad, unnest(ad.lexemes) AS l
    UNION
    SELECT 'd:' || d FROM ad, search_words w,
           unnest(word_deletions(w.word, CASE WHEN length(w.word) >= 7 THEN 2 WHEN length(w.word) >= 4 THEN 1 ELSE 0 END)) AS d
     WHERE w.lexeme = ANY(ad.lexemes))
$$;--> statement-breakpoint
-- An ad becoming listed (whatever the cause: approval, reinstatement, a verified model, consent, the ad switched back
-- on; each re-derives is_listed in ads_before_write) is queued as a job committed with the change, matched after the
-- commit (server/modules/saved-searches/matching.ts). Nothing is queued while no search may alert (seeding, a site
-- without saved searches). One job per ad; an ad queued and not yet matched is not queued twice.
CREATE FUNCTION saved_searches_queue_listed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM saved_searches WHERE NOT paused AND alerts <> 'off') THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO jobs (name, key, payload, max_attempts)
    SELECT 'saved-searches:match', 'saved-searches:match:' || n.id, jsonb_build_object('ad_id', n.id), 5
      FROM new_ads n WHERE n.is_listed
    ON CONFLICT (key) DO NOTHING;
  ELSE
    INSERT INTO jobs (name, key, payload, max_attempts)
    SELECT 'saved-searches:match', 'saved-searches:match:' || n.id, jsonb_build_object('ad_id', n.id), 5
      FROM new_ads n JOIN old_ads o ON o.id = n.id WHERE n.is_listed AND NOT o.is_listed
    ON CONFLICT (key) DO NOTHING;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER saved_searches_queue_inserted AFTER INSERT ON ads REFERENCING NEW TABLE AS new_ads
  FOR EACH STATEMENT EXECUTE FUNCTION saved_searches_queue_listed();--> statement-breakpoint
CREATE TRIGGER saved_searches_queue_updated AFTER UPDATE ON ads REFERENCING OLD TABLE AS old_ads NEW TABLE AS new_ads
  FOR EACH STATEMENT EXECUTE FUNCTION saved_searches_queue_listed();
