-- Saved searches' matching (issue 28). When an ad becomes visible it is matched against the saved searches, not by
-- running each search again (100,000 of them) but by two GIN indexes on keys each search keeps, set by a trigger from
-- its text and filters; the ad's keys are computed once and the index answers the candidates, which the server then
-- checks with the listing's own rules (listings.repository.ts listingShowsAd). Measured in docs/benchmarks.md
-- ("Saved searches"; bench/lib/saved-search-matching.ts).
--   match_keys, searched with `<@` (all of a search's keys among the ad's), scoped "{city|*}/{section|*}" so that a
--     candidate is in the right city and section:
--       {scope}:l:{lexeme}  each lexeme of the search's wanted words (websearch's negated words left out): an AND
--                           query matches only an ad holding all of them;
--       {scope}:all         no text, only negated words, or an OR query (its alternatives are checked exactly);
--       never               stop words only: the listing shows nothing for it either.
--   typo_keys, searched with `&&`, for the typo correction: each wanted word of 5+ letters that the listed ads'
--     vocabulary did not have (neither the word nor its lexeme) when the search was saved, with up to its typo budget
--     of letters deleted (SymSpell: two words within k typos share a string reached by deleting at most k letters from
--     each). The ad's side deletes letters from the vocabulary words that share its lexemes, the words a correction
--     may put in the query. A word the vocabulary had then is not corrected by the listing; should every ad using it
--     go, the search would be corrected without this index knowing: it then misses an alert, never sends a wrong one.
ALTER TABLE "saved_searches" ADD COLUMN "match_keys" text[] DEFAULT '{never}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD COLUMN "typo_keys" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
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
CREATE FUNCTION saved_search_wanted(p_search text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  -- As listings.repository.ts wantedText(): the words typed to find ads with.
  SELECT coalesce(string_agg(w, ' '), '') FROM regexp_split_to_table(coalesce(p_search, ''), '\s+') AS w
   WHERE w <> '' AND left(w, 1) <> '-' AND lower(w) <> 'or'
$$;--> statement-breakpoint
CREATE FUNCTION saved_search_keys(p_search text, p_city integer, p_section integer) RETURNS text[]
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  scope text := coalesce(p_city::text, '*') || '/' || coalesce(p_section::text, '*');
  wanted text := saved_search_wanted(p_search);
  lexemes text[];
BEGIN
  -- websearch's OR, as listings.repository.ts HAS_OR.
  IF wanted = '' OR coalesce(p_search, '') ~* '(^|\s)or(\s|$)' THEN RETURN ARRAY[scope || ':all']; END IF;
  lexemes := tsvector_to_array(to_tsvector('es_unaccent', wanted));
  IF cardinality(lexemes) = 0 THEN RETURN ARRAY['never']; END IF;
  RETURN ARRAY(SELECT scope || ':l:' || l FROM unnest(lexemes) AS l);
END $$;--> statement-breakpoint
-- Typo budget as typos.ts typoBudget(): 1 from 5 letters, 2 from 9.
CREATE FUNCTION saved_search_typo_keys(p_search text) RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(DISTINCT 'd:' || d), '{}')
    FROM search_words_of(saved_search_wanted(p_search)) AS w,
         unnest(word_deletions(w, CASE WHEN length(w) >= 9 THEN 2 ELSE 1 END)) AS d
   WHERE length(w) >= 5
     AND NOT EXISTS (SELECT 1 FROM search_words s
                      WHERE s.word = w OR s.lexeme = (tsvector_to_array(to_tsvector('es_unaccent', w)))[1])
$$;--> statement-breakpoint
CREATE FUNCTION saved_searches_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.match_keys := saved_search_keys(NEW.search, NEW.city_id, NEW.section_id);
  NEW.typo_keys := saved_search_typo_keys(NEW.search);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER saved_searches_keys BEFORE INSERT OR UPDATE OF search, city_id, section_id ON saved_searches
  FOR EACH ROW EXECUTE FUNCTION saved_searches_keys();--> statement-breakpoint
-- Only the searches that may alert are indexed: a paused search or one with alerts off is never a candidate.
CREATE INDEX "saved_searches_match_idx" ON "saved_searches" USING gin ("match_keys") WHERE NOT "paused" AND "alerts" <> 'off';--> statement-breakpoint
CREATE INDEX "saved_searches_typo_idx" ON "saved_searches" USING gin ("typo_keys") WHERE NOT "paused" AND "alerts" <> 'off';--> statement-breakpoint
-- A listed ad's keys: its four scopes × (all, each of its lexemes).
CREATE FUNCTION saved_search_ad_keys(p_ad integer) RETURNS text[] LANGUAGE sql STABLE AS $$
  WITH ad AS (SELECT city_id, section_id, tsvector_to_array(search_vector) AS lexemes FROM ads WHERE id = p_ad),
  scopes AS (SELECT unnest(ARRAY[city_id || '/' || section_id, city_id || '/*', '*/' || section_id, '*/*']) AS scope FROM ad)
  SELECT ARRAY(
    SELECT s.scope || ':all' FROM scopes s
    UNION ALL
    SELECT s.scope || ':l:' || l FROM scopes s, ad, unnest(ad.lexemes) AS l)
$$;--> statement-breakpoint
-- The deletions of the vocabulary words sharing the ad's lexemes (a vocabulary word of 7+ letters may be the
-- correction of a 9-letter typed word, two typos away).
CREATE FUNCTION saved_search_ad_typo_keys(p_ad integer) RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(DISTINCT 'd:' || d), '{}')
    FROM ads a, search_words w,
         unnest(word_deletions(w.word, CASE WHEN length(w.word) >= 7 THEN 2 WHEN length(w.word) >= 4 THEN 1 ELSE 0 END)) AS d
   WHERE a.id = p_ad AND w.lexeme = ANY(tsvector_to_array(a.search_vector))
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
