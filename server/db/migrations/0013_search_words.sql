-- Typo-tolerant search (issue 13 point 3): the vocabulary of the listed ads. Each distinct word of an ad's own text
-- (name, title, description, city, province; the section names are left out: "ovideo" must not become "video"),
-- accent-blind and lower-case, with the number of listed ads using it. Statement-level triggers with transition
-- tables keep it current: one aggregate per statement, so bulk writes (seeding, suspensions) stay set-based.
-- The trigram index finds the words closest to an unknown query word; the old trigram index on the whole document
-- (the previous typo fallback) is no longer read.
CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL,
	"ads" integer NOT NULL
);
--> statement-breakpoint
DROP INDEX "ads_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gist ("word" gist_trgm_ops);--> statement-breakpoint
-- The words of a text as search sees them; the server splits a query with the same function.
CREATE FUNCTION search_words_of(doc text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT DISTINCT w FROM regexp_split_to_table(immutable_unaccent(lower(doc)), '[^[:alnum:]]+') AS w
   WHERE length(w) BETWEEN 3 AND 40 AND w ~ '[[:alpha:]]'
$$;--> statement-breakpoint
CREATE FUNCTION ad_words(model_name text, title text, description text, city_id integer) RETURNS SETOF text
  LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT search_words_of(concat_ws(' ', $1, $2, $3, c.name, st.name))
    FROM cities c JOIN states st ON st.id = c.state_id WHERE c.id = $4
$$;--> statement-breakpoint
-- Adds n ads to each word (negative: removes); a word no listed ad uses any more leaves the vocabulary. In word order,
-- so concurrent writers lock shared words in the same order.
CREATE FUNCTION search_words_apply(words text[], counts integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF words IS NULL OR cardinality(words) = 0 THEN RETURN; END IF;
  INSERT INTO search_words AS s (word, ads)
  SELECT w, n FROM unnest(words, counts) AS d(w, n) ORDER BY w
  ON CONFLICT (word) DO UPDATE SET ads = s.ads + excluded.ads;
  DELETE FROM search_words WHERE word = ANY(words) AND ads <= 0;
END $$;--> statement-breakpoint
CREATE FUNCTION search_words_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE words text[]; counts integer[];
BEGIN
  SELECT array_agg(w), array_agg(n) INTO words, counts FROM (
    SELECT w, count(*)::int AS n FROM new_ads a, ad_words(a.model_name, a.title, a.description, a.city_id) w
     WHERE a.is_listed GROUP BY w) d;
  PERFORM search_words_apply(words, counts);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION search_words_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE words text[]; counts integer[];
BEGIN
  SELECT array_agg(w), array_agg(n) INTO words, counts FROM (
    SELECT w, -count(*)::int AS n FROM old_ads a, ad_words(a.model_name, a.title, a.description, a.city_id) w
     WHERE a.is_listed GROUP BY w) d;
  PERFORM search_words_apply(words, counts);
  RETURN NULL;
END $$;--> statement-breakpoint
-- Only rows whose listing or own text changed count: the usual update (a status, a version) costs a join and nothing more.
CREATE FUNCTION search_words_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE words text[]; counts integer[];
BEGIN
  WITH changed AS (
    SELECT o.is_listed AS was_listed, n.is_listed AS now_listed,
           o.model_name AS o_name, o.title AS o_title, o.description AS o_description, o.city_id AS o_city,
           n.model_name AS n_name, n.title AS n_title, n.description AS n_description, n.city_id AS n_city
      FROM old_ads o JOIN new_ads n ON n.id = o.id
     WHERE (o.is_listed OR n.is_listed)
       AND (o.is_listed IS DISTINCT FROM n.is_listed OR o.model_name IS DISTINCT FROM n.model_name
            OR o.title IS DISTINCT FROM n.title OR o.description IS DISTINCT FROM n.description
            OR o.city_id IS DISTINCT FROM n.city_id)),
  delta AS (
    SELECT w, -1 AS n FROM changed, ad_words(o_name, o_title, o_description, o_city) w WHERE was_listed
    UNION ALL
    SELECT w, 1 FROM changed, ad_words(n_name, n_title, n_description, n_city) w WHERE now_listed)
  SELECT array_agg(w), array_agg(n) INTO words, counts FROM (
    SELECT w, sum(n)::int AS n FROM delta GROUP BY w HAVING sum(n) <> 0) d;
  PERFORM search_words_apply(words, counts);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER search_words_after_insert AFTER INSERT ON ads REFERENCING NEW TABLE AS new_ads
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_after_insert();--> statement-breakpoint
CREATE TRIGGER search_words_after_delete AFTER DELETE ON ads REFERENCING OLD TABLE AS old_ads
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_after_delete();--> statement-breakpoint
CREATE TRIGGER search_words_after_update AFTER UPDATE ON ads REFERENCING OLD TABLE AS old_ads NEW TABLE AS new_ads
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_after_update();--> statement-breakpoint
INSERT INTO search_words (word, ads)
SELECT w, count(*)::int FROM ads a, ad_words(a.model_name, a.title, a.description, a.city_id) w
 WHERE a.is_listed GROUP BY w;
