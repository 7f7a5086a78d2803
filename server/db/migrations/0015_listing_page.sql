-- The public listing's filtered page (no text search) in one call: the page's ad ids from the partial index of its
-- filters, their count, then the ads with their model and cover, in order. A PL/pgSQL function because it keeps its
-- statements' plans for the session: planning the page took longer than running it (≈0.2 ms of ≈0.45 ms of
-- PostgreSQL time per page at 100,000 ads). plan_cache_mode = force_generic_plan because the generic plans are the
-- plans wanted (walk the filters' index, stop after the page), while PostgreSQL's own choice, misled by LIMIT and
-- OFFSET parameters it estimates at a tenth of the rows, would re-plan on every call. One branch per combination of
-- filters, so each walks its own index (ads_listed_city_section_idx, ads_listed_section_idx, ads_listed_recent_idx).
-- The order is the listing's: published_at DESC NULLS LAST, id DESC NULLS LAST, as the indexes are built.
CREATE FUNCTION listing_page(p_city integer, p_section integer, p_limit integer, p_offset integer)
RETURNS TABLE (id integer, title varchar, description text, published_at timestamptz, display_name varchar,
               birth_date date, profile_status varchar, user_id integer, phone varchar, whatsapp boolean,
               city_id integer, section_id integer, cover_id integer, cover_uid uuid, cover_width integer,
               cover_height integer, cover_variants jsonb, total bigint)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  ids integer[];
  n bigint;
BEGIN
  IF p_city IS NOT NULL AND p_section IS NOT NULL THEN
    ids := ARRAY(SELECT a.id FROM ads a WHERE a.is_listed AND a.city_id = p_city AND a.section_id = p_section
                  ORDER BY a.published_at DESC NULLS LAST, a.id DESC NULLS LAST LIMIT p_limit OFFSET p_offset);
    SELECT count(*) INTO n FROM ads a WHERE a.is_listed AND a.city_id = p_city AND a.section_id = p_section;
  ELSIF p_city IS NOT NULL THEN
    ids := ARRAY(SELECT a.id FROM ads a WHERE a.is_listed AND a.city_id = p_city
                  ORDER BY a.published_at DESC NULLS LAST, a.id DESC NULLS LAST LIMIT p_limit OFFSET p_offset);
    SELECT count(*) INTO n FROM ads a WHERE a.is_listed AND a.city_id = p_city;
  ELSIF p_section IS NOT NULL THEN
    ids := ARRAY(SELECT a.id FROM ads a WHERE a.is_listed AND a.section_id = p_section
                  ORDER BY a.published_at DESC NULLS LAST, a.id DESC NULLS LAST LIMIT p_limit OFFSET p_offset);
    SELECT count(*) INTO n FROM ads a WHERE a.is_listed AND a.section_id = p_section;
  ELSE
    ids := ARRAY(SELECT a.id FROM ads a WHERE a.is_listed
                  ORDER BY a.published_at DESC NULLS LAST, a.id DESC NULLS LAST LIMIT p_limit OFFSET p_offset);
    SELECT count(*) INTO n FROM ads a WHERE a.is_listed;
  END IF;
  -- Past the last page: one row without an ad, to carry the count.
  IF cardinality(ids) = 0 THEN
    RETURN QUERY SELECT NULL::integer, NULL::varchar, NULL::text, NULL::timestamptz, NULL::varchar, NULL::date,
                        NULL::varchar, NULL::integer, NULL::varchar, NULL::boolean, NULL::integer, NULL::integer,
                        NULL::integer, NULL::uuid, NULL::integer, NULL::integer, NULL::jsonb, n;
    RETURN;
  END IF;
  RETURN QUERY
    SELECT a.id, a.title, a.description, a.published_at, p.display_name, p.birth_date, p.status, p.user_id, p.phone,
           p.whatsapp, a.city_id, a.section_id, m.id, m.uid, m.width, m.height, m.variants, n
      FROM unnest(ids) WITH ORDINALITY AS page(ad_id, ord)
      JOIN ads a ON a.id = page.ad_id
      JOIN model_profiles p ON p.id = a.model_profile_id
      LEFT JOIN media m ON m.ad_id = a.id AND m.is_cover
     ORDER BY page.ord;
END $$;
