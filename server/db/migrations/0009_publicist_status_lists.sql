-- A publicist's models are listed only while the publicist (the trader responsible, EU DSA art. 30) is approved:
-- suspending, pausing or rejecting the agency takes all its ads down in the same statement, reinstating it brings
-- back those that are otherwise listable.
CREATE OR REPLACE FUNCTION ads_before_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  profile_name text;
  profile_status text;
  profile_consent text;
  agency_ok boolean;
BEGIN
  SELECT p.display_name, p.status, p.consent_status, (p.publicist_id IS NULL OR pp.status = 'active')
    INTO profile_name, profile_status, profile_consent, agency_ok
    FROM model_profiles p LEFT JOIN publicist_profiles pp ON pp.id = p.publicist_id
   WHERE p.id = NEW.model_profile_id;
  NEW.model_name := coalesce(profile_name, '');
  NEW.is_listed := NEW.is_active AND NEW.status = 'active' AND coalesce(profile_status = 'active', false)
    AND coalesce(profile_consent IN ('not_required', 'given'), false) AND coalesce(agency_ok, false);
  SELECT concat_ws(' ', NEW.model_name, NEW.title, NEW.description, c.name, st.name,
                   s.names->>'es', s.names->>'en', s.names->>'de', s.names->>'pt_BR')
    INTO NEW.search_document
    FROM cities c JOIN states st ON st.id = c.state_id, sections s
   WHERE c.id = NEW.city_id AND s.id = NEW.section_id;
  NEW.search_document := coalesce(NEW.search_document, '');
  RETURN NEW;
END $$;--> statement-breakpoint
DROP TRIGGER model_profiles_after_update ON model_profiles;--> statement-breakpoint
CREATE TRIGGER model_profiles_after_update AFTER UPDATE OF display_name, status, consent_status, publicist_id ON model_profiles
  FOR EACH ROW WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name OR OLD.status IS DISTINCT FROM NEW.status
    OR OLD.consent_status IS DISTINCT FROM NEW.consent_status OR OLD.publicist_id IS DISTINCT FROM NEW.publicist_id)
  EXECUTE FUNCTION model_profiles_after_update();--> statement-breakpoint
-- The agency's status change re-derives the ads of all its models (the no-op update fires ads_before_write).
CREATE FUNCTION publicist_profiles_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ads SET model_profile_id = ads.model_profile_id
    FROM model_profiles p WHERE p.id = ads.model_profile_id AND p.publicist_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER publicist_profiles_after_update AFTER UPDATE OF status ON publicist_profiles
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION publicist_profiles_after_update();--> statement-breakpoint
UPDATE ads SET model_profile_id = ads.model_profile_id
  FROM model_profiles p WHERE p.id = ads.model_profile_id AND p.publicist_id IS NOT NULL;
