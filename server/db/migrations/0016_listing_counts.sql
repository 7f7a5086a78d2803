CREATE TABLE "listing_counts" (
	"city_id" integer NOT NULL,
	"section_id" integer NOT NULL,
	"ads" integer NOT NULL,
	CONSTRAINT "listing_counts_city_id_section_id_pk" PRIMARY KEY("city_id","section_id")
);
--> statement-breakpoint
ALTER TABLE "ads" ADD COLUMN "card_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "search_words" ADD COLUMN "lexeme" text GENERATED ALWAYS AS ((tsvector_to_array(to_tsvector('es_unaccent'::regconfig, word)))[1]) STORED;--> statement-breakpoint
CREATE INDEX "listing_counts_section_idx" ON "listing_counts" USING btree ("section_id");--> statement-breakpoint
CREATE INDEX "search_words_lexeme_idx" ON "search_words" USING btree ("lexeme");--> statement-breakpoint
-- Adds n listed ads to each (city, section); a pair without listed ads leaves the table. In key order, so concurrent
-- writers lock shared rows in the same order (as search_words_apply).
CREATE FUNCTION listing_counts_apply(cities integer[], sections integer[], counts integer[]) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF cities IS NULL OR cardinality(cities) = 0 THEN RETURN; END IF;
  INSERT INTO listing_counts AS l (city_id, section_id, ads)
  SELECT c, s, n FROM unnest(cities, sections, counts) AS d(c, s, n) ORDER BY c, s
  ON CONFLICT (city_id, section_id) DO UPDATE SET ads = l.ads + excluded.ads;
  DELETE FROM listing_counts l USING unnest(cities, sections) AS d(c, s)
   WHERE l.city_id = d.c AND l.section_id = d.s AND l.ads <= 0;
END $$;--> statement-breakpoint
CREATE FUNCTION listing_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE cities integer[]; sections integer[]; counts integer[];
BEGIN
  SELECT array_agg(city_id), array_agg(section_id), array_agg(n) INTO cities, sections, counts
    FROM (SELECT city_id, section_id, count(*)::int AS n FROM new_ads WHERE is_listed GROUP BY 1, 2) d;
  PERFORM listing_counts_apply(cities, sections, counts);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION listing_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE cities integer[]; sections integer[]; counts integer[];
BEGIN
  SELECT array_agg(city_id), array_agg(section_id), array_agg(n) INTO cities, sections, counts
    FROM (SELECT city_id, section_id, -count(*)::int AS n FROM old_ads WHERE is_listed GROUP BY 1, 2) d;
  PERFORM listing_counts_apply(cities, sections, counts);
  RETURN NULL;
END $$;--> statement-breakpoint
-- Only rows whose listing, city or section changed count.
CREATE FUNCTION listing_counts_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE cities integer[]; sections integer[]; counts integer[];
BEGIN
  WITH changed AS (
    SELECT o.is_listed AS was, n.is_listed AS now, o.city_id AS o_city, o.section_id AS o_section,
           n.city_id AS n_city, n.section_id AS n_section
      FROM old_ads o JOIN new_ads n ON n.id = o.id
     WHERE (o.is_listed OR n.is_listed)
       AND (o.is_listed IS DISTINCT FROM n.is_listed OR o.city_id IS DISTINCT FROM n.city_id
            OR o.section_id IS DISTINCT FROM n.section_id)),
  delta AS (
    SELECT o_city AS c, o_section AS s, -1 AS n FROM changed WHERE was
    UNION ALL
    SELECT n_city, n_section, 1 FROM changed WHERE now)
  SELECT array_agg(c), array_agg(s), array_agg(n) INTO cities, sections, counts
    FROM (SELECT c, s, sum(n)::int AS n FROM delta GROUP BY c, s HAVING sum(n) <> 0) d;
  PERFORM listing_counts_apply(cities, sections, counts);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER listing_counts_after_insert AFTER INSERT ON ads REFERENCING NEW TABLE AS new_ads
  FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_after_insert();--> statement-breakpoint
CREATE TRIGGER listing_counts_after_delete AFTER DELETE ON ads REFERENCING OLD TABLE AS old_ads
  FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_after_delete();--> statement-breakpoint
CREATE TRIGGER listing_counts_after_update AFTER UPDATE ON ads REFERENCING OLD TABLE AS old_ads NEW TABLE AS new_ads
  FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_after_update();--> statement-breakpoint
INSERT INTO listing_counts (city_id, section_id, ads)
SELECT city_id, section_id, count(*)::int FROM ads WHERE is_listed GROUP BY 1, 2;--> statement-breakpoint
-- How many ads are listed under the filters (null: any city or section), from listing_counts.
CREATE FUNCTION listed_count(p_city integer, p_section integer) RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(l.ads), 0)::bigint FROM listing_counts l
   WHERE (p_city IS NULL OR l.city_id = p_city) AND (p_section IS NULL OR l.section_id = p_section)
$$;--> statement-breakpoint
-- As in 0015, but the total is read from listing_counts instead of counted from the filters' index, and the page is
-- answered as its ads' ids and card versions: the server serializes a card once per version (listings/card-cache.ts)
-- and asks for the rows of the cards it has not serialized yet (listing_cards). Past the last page: one row without an
-- ad, carrying the count.
DROP FUNCTION listing_page(integer, integer, integer, integer);--> statement-breakpoint
CREATE FUNCTION listing_page(p_city integer, p_section integer, p_limit integer, p_offset integer)
RETURNS TABLE (id integer, card_version integer, total bigint)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  n bigint;
  found boolean := false;
BEGIN
  IF p_city IS NOT NULL AND p_section IS NOT NULL THEN
    SELECT coalesce(sum(l.ads), 0) INTO n FROM listing_counts l WHERE l.city_id = p_city AND l.section_id = p_section;
    RETURN QUERY SELECT a.id, a.card_version, n FROM ads a WHERE a.is_listed AND a.city_id = p_city AND a.section_id = p_section
                  ORDER BY a.published_at DESC NULLS LAST, a.id DESC NULLS LAST LIMIT p_limit OFFSET p_offset;
  ELSIF p_city IS NOT NULL THEN
    SELECT coalesce(sum(l.ads), 0) INTO n FROM listing_counts l WHERE l.city_id = p_city;
    RETURN QUERY SELECT a.id, a.card_version, n FROM ads a WHERE a.is_listed AND a.city_id = p_city
                  ORDER BY a.published_at DESC NULLS LAST, a.id DESC NULLS LAST LIMIT p_limit OFFSET p_offset;
  ELSIF p_section IS NOT NULL THEN
    SELECT coalesce(sum(l.ads), 0) INTO n FROM listing_counts l WHERE l.section_id = p_section;
    RETURN QUERY SELECT a.id, a.card_version, n FROM ads a WHERE a.is_listed AND a.section_id = p_section
                  ORDER BY a.published_at DESC NULLS LAST, a.id DESC NULLS LAST LIMIT p_limit OFFSET p_offset;
  ELSE
    SELECT coalesce(sum(l.ads), 0) INTO n FROM listing_counts l;
    RETURN QUERY SELECT a.id, a.card_version, n FROM ads a WHERE a.is_listed
                  ORDER BY a.published_at DESC NULLS LAST, a.id DESC NULLS LAST LIMIT p_limit OFFSET p_offset;
  END IF;
  IF NOT FOUND THEN RETURN QUERY SELECT NULL::integer, NULL::integer, n; END IF;
END $$;--> statement-breakpoint
-- The rows a listing card is made of, for the listed ads among p_ids (in no particular order). PL/pgSQL for its kept
-- plan, as listing_page: a SQL function would be inlined and its three joins planned on every call.
CREATE FUNCTION listing_cards(p_ids integer[])
RETURNS TABLE (id integer, card_version integer, title varchar, description text, published_at timestamptz,
               display_name varchar, birth_date date, profile_status varchar, user_id integer, phone varchar,
               whatsapp boolean, city_id integer, section_id integer, cover_id integer, cover_uid uuid,
               cover_width integer, cover_height integer, cover_variants jsonb)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    SELECT a.id, a.card_version, a.title, a.description, a.published_at, p.display_name, p.birth_date, p.status,
           p.user_id, p.phone, p.whatsapp, a.city_id, a.section_id, m.id, m.uid, m.width, m.height, m.variants
      FROM ads a
      JOIN model_profiles p ON p.id = a.model_profile_id
      LEFT JOIN media m ON m.ad_id = a.id AND m.is_cover
     WHERE a.id = ANY(p_ids) AND a.is_listed;
END $$;--> statement-breakpoint
-- The recency index also carries each ad's search vector, so a search can walk it without reading the ads themselves
-- (an index-only scan: ≈0.08 µs per ad read instead of ≈0.3 µs). Same name and keys: the listing walks it as before.
DROP INDEX "ads_listed_recent_idx";--> statement-breakpoint
CREATE INDEX "ads_listed_recent_idx" ON "ads" USING btree ("published_at" DESC NULLS LAST, "id" DESC NULLS LAST)
  INCLUDE ("search_vector") WHERE "ads"."is_listed";--> statement-breakpoint
-- A text search's page: the p_max most recent listed matches of p_match under the filters, ranked; the page is
-- answered as listing_page's (ids and card versions, in order). The most recent matches are found one of two ways, chosen on how many ads the words are expected to match
-- (search_words' counts of their lexemes against listing_counts, assuming the words independent):
--   walk:   read the filters' recency index from the newest ad and test each against the query, stopping at p_max
--           matches (cheap when the words are common: ≈ p_max / share of ads read);
--   bitmap: every match from the GIN index, then the p_max most recent of them (cheap when the words are rare).
-- Measured at 100,000 ads, a match fetched by the bitmap costs about as much as 9 ads read by the index-only walk of
-- ads_listed_recent_idx (no filter), or 3 read by the walk of a filter's index (which reads the ads too).
-- PostgreSQL's own estimate of a word's share (its statistics) was off by 2–3× for names and chose the walk for a word
-- in 2 % of the ads (48,000 rows read, 20 ms). The walk tests the query with ts_match_vq(), the operator's function,
-- which no index serves, so its generic plan cannot turn into the bitmap; the bitmap orders by an expression no index
-- holds, so it cannot turn into the walk. Plans are kept for the session (force_generic_plan, as listing_page).
-- p_words: the query's wanted words (null for a query whose shape the estimate does not cover: the bitmap is used).
-- p_typed / p_best: for a corrected search, the typed query and the best reading, ranked first (see listModels).
-- A match's score: ts_rank, plus tiers for a corrected search (typed words' matches, then the best reading's).
-- Inlined where it is used (a plain SQL function).
CREATE FUNCTION search_score(v tsvector, q tsquery, typed tsquery, best tsquery) RETURNS real
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN typed IS NULL THEN 0 ELSE (v @@ typed)::int * 20 + (v @@ best)::int * 10 END + ts_rank(v, q)
$$;--> statement-breakpoint
CREATE FUNCTION search_page(p_match tsquery, p_words text[], p_typed tsquery, p_best tsquery, p_city integer,
                            p_section integer, p_limit integer, p_offset integer, p_max integer)
RETURNS TABLE (id integer, card_version integer, total bigint)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  listed numeric;
  filtered numeric;
  share numeric := 1;
  n_word numeric;
  stem text;
  w text;
  walk boolean := false;
  page integer[];
  n bigint;
BEGIN
  -- Only stop words: PostgreSQL's empty query matches nothing (and the walk would read every listed ad to learn it).
  IF numnode(p_match) = 0 THEN RETURN; END IF;
  IF p_words IS NOT NULL AND cardinality(p_words) > 0 THEN
    SELECT coalesce(sum(l.ads), 0) INTO listed FROM listing_counts l;
    filtered := listed_count(p_city, p_section);
    FOREACH w IN ARRAY p_words LOOP
      stem := (tsvector_to_array(to_tsvector('es_unaccent', w)))[1];
      -- A stop word has no lexeme and constrains nothing.
      CONTINUE WHEN stem IS NULL;
      SELECT coalesce(sum(s.ads), 0) INTO n_word FROM search_words s WHERE s.lexeme = stem;
      share := share * least(1, n_word / greatest(listed, 1));
    END LOOP;
    -- Ads the walk reads (all the filtered ones when fewer than p_max match) against matches the bitmap fetches.
    walk := share > 0 AND least(filtered, p_max / share)
                            <= CASE WHEN p_city IS NULL AND p_section IS NULL THEN 9 ELSE 3 END * listed * share;
  END IF;
  -- Each branch: the p_max most recent matches (id, recency, vector), then ranked; the page's slice and how many.
  -- ts_rank, not ts_rank_cd: the same order for these short documents at about two thirds of the cost. A corrected
  -- search ranks the typed words' matches first, then the best reading's (ts_rank stays below 10).
  IF walk AND p_city IS NOT NULL AND p_section IS NOT NULL THEN
    SELECT (array_agg(m.id ORDER BY m.score DESC, m.published_at DESC, m.id DESC))[p_offset + 1 : p_offset + p_limit], count(*)
      INTO page, n
      FROM (SELECT a.id, a.published_at, search_score(a.search_vector, p_match, p_typed, p_best) AS score FROM ads a
             WHERE a.is_listed AND a.city_id = p_city AND a.section_id = p_section AND ts_match_vq(a.search_vector, p_match)
             ORDER BY a.published_at DESC NULLS LAST, a.id DESC NULLS LAST LIMIT p_max) m;
  ELSIF walk AND p_city IS NOT NULL THEN
    SELECT (array_agg(m.id ORDER BY m.score DESC, m.published_at DESC, m.id DESC))[p_offset + 1 : p_offset + p_limit], count(*)
      INTO page, n
      FROM (SELECT a.id, a.published_at, search_score(a.search_vector, p_match, p_typed, p_best) AS score FROM ads a
             WHERE a.is_listed AND a.city_id = p_city AND ts_match_vq(a.search_vector, p_match)
             ORDER BY a.published_at DESC NULLS LAST, a.id DESC NULLS LAST LIMIT p_max) m;
  ELSIF walk AND p_section IS NOT NULL THEN
    SELECT (array_agg(m.id ORDER BY m.score DESC, m.published_at DESC, m.id DESC))[p_offset + 1 : p_offset + p_limit], count(*)
      INTO page, n
      FROM (SELECT a.id, a.published_at, search_score(a.search_vector, p_match, p_typed, p_best) AS score FROM ads a
             WHERE a.is_listed AND a.section_id = p_section AND ts_match_vq(a.search_vector, p_match)
             ORDER BY a.published_at DESC NULLS LAST, a.id DESC NULLS LAST LIMIT p_max) m;
  ELSIF walk THEN
    SELECT (array_agg(m.id ORDER BY m.score DESC, m.published_at DESC, m.id DESC))[p_offset + 1 : p_offset + p_limit], count(*)
      INTO page, n
      FROM (SELECT a.id, a.published_at, search_score(a.search_vector, p_match, p_typed, p_best) AS score FROM ads a
             WHERE a.is_listed AND ts_match_vq(a.search_vector, p_match)
             ORDER BY a.published_at DESC NULLS LAST, a.id DESC NULLS LAST LIMIT p_max) m;
  ELSE
    -- published_at is NOT NULL: the same order as the walk's. The vector is carried past the sort and scored after
    -- the limit, so only the p_max kept are scored.
    SELECT (array_agg(m.id ORDER BY search_score(m.search_vector, p_match, p_typed, p_best) DESC, m.published_at DESC, m.id DESC))
             [p_offset + 1 : p_offset + p_limit], count(*)
      INTO page, n
      FROM (SELECT a.id, a.published_at, a.search_vector FROM ads a
             WHERE a.is_listed AND a.search_vector @@ p_match
               AND (p_city IS NULL OR a.city_id = p_city) AND (p_section IS NULL OR a.section_id = p_section)
             ORDER BY a.published_at + interval '0 s' DESC, a.id DESC LIMIT p_max) m;
  END IF;
  IF n = 0 THEN RETURN; END IF;
  IF coalesce(cardinality(page), 0) = 0 THEN RETURN QUERY SELECT NULL::integer, NULL::integer, n; RETURN; END IF;
  RETURN QUERY
    SELECT a.id, a.card_version, n FROM unnest(page) WITH ORDINALITY AS ranked(ad_id, ord) JOIN ads a ON a.id = ranked.ad_id
     ORDER BY ranked.ord;
END $$;--> statement-breakpoint
-- A card's version (ads.card_version) goes up with every change to its ad (the profile's name, status, consent or
-- agency changes re-derive its ads with an update, migrations 0004–0009: they count too), with its model's birth date
-- or account, and with any change to its photos. Every update of an ad counts, whatever it changed: a card is cheap
-- to serialize again, a stale one is wrong.
CREATE FUNCTION ads_card_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.card_version := OLD.card_version + 1;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER ads_card_version BEFORE UPDATE ON ads FOR EACH ROW EXECUTE FUNCTION ads_card_version();--> statement-breakpoint
CREATE FUNCTION model_profiles_card_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ads SET model_profile_id = model_profile_id WHERE model_profile_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER model_profiles_card_version AFTER UPDATE OF birth_date, user_id ON model_profiles
  FOR EACH ROW WHEN (OLD.birth_date IS DISTINCT FROM NEW.birth_date OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION model_profiles_card_version();--> statement-breakpoint
-- Photos: one update of the ads concerned per statement. The media services lock the ad first (ad-access.ts), so
-- this update takes no lock they do not already hold.
CREATE FUNCTION media_card_version_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ads SET card_version = card_version WHERE id IN (SELECT ad_id FROM new_media);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION media_card_version_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ads SET card_version = card_version WHERE id IN (SELECT ad_id FROM old_media);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER media_card_version_insert AFTER INSERT ON media REFERENCING NEW TABLE AS new_media
  FOR EACH STATEMENT EXECUTE FUNCTION media_card_version_new();--> statement-breakpoint
CREATE TRIGGER media_card_version_update AFTER UPDATE ON media REFERENCING NEW TABLE AS new_media
  FOR EACH STATEMENT EXECUTE FUNCTION media_card_version_new();--> statement-breakpoint
CREATE TRIGGER media_card_version_delete AFTER DELETE ON media REFERENCING OLD TABLE AS old_media
  FOR EACH STATEMENT EXECUTE FUNCTION media_card_version_old();
