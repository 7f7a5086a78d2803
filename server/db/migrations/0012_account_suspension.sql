-- Account-level suspension (issue 12 point 9): a suspended account's content is unlisted. The ads trigger also reads
-- the status of the model's own account and of the responsible agency's account; suspending or reinstating an
-- account re-derives the ads of its model profile and of its agency's models in the same statement, so reinstating
-- brings back exactly what was listable before.
CREATE OR REPLACE FUNCTION ads_before_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  profile_name text;
  profile_status text;
  profile_consent text;
  agency_ok boolean;
  accounts_ok boolean;
BEGIN
  SELECT p.display_name, p.status, p.consent_status, (p.publicist_id IS NULL OR pp.status = 'active'),
         (coalesce(u.status, '') <> 'suspended' AND coalesce(pu.status, '') <> 'suspended')
    INTO profile_name, profile_status, profile_consent, agency_ok, accounts_ok
    FROM model_profiles p
    LEFT JOIN publicist_profiles pp ON pp.id = p.publicist_id
    LEFT JOIN users u ON u.id = p.user_id
    LEFT JOIN users pu ON pu.id = pp.user_id
   WHERE p.id = NEW.model_profile_id;
  NEW.model_name := coalesce(profile_name, '');
  NEW.is_listed := NEW.is_active AND NEW.status = 'active' AND coalesce(profile_status = 'active', false)
    AND coalesce(profile_consent IN ('not_required', 'given'), false) AND coalesce(agency_ok, false)
    AND coalesce(accounts_ok, false);
  SELECT concat_ws(' ', NEW.model_name, NEW.title, NEW.description, c.name, st.name,
                   s.names->>'es', s.names->>'en', s.names->>'de', s.names->>'pt_BR')
    INTO NEW.search_document
    FROM cities c JOIN states st ON st.id = c.state_id, sections s
   WHERE c.id = NEW.city_id AND s.id = NEW.section_id;
  NEW.search_document := coalesce(NEW.search_document, '');
  RETURN NEW;
END $$;--> statement-breakpoint
-- Only a change into or out of 'suspended' touches the listings (e-mail verification changes the status too).
CREATE FUNCTION users_after_status_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ads SET model_profile_id = ads.model_profile_id
    FROM model_profiles p LEFT JOIN publicist_profiles pp ON pp.id = p.publicist_id
   WHERE p.id = ads.model_profile_id AND (p.user_id = NEW.id OR pp.user_id = NEW.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_after_status_update AFTER UPDATE OF status ON users
  FOR EACH ROW WHEN ((OLD.status = 'suspended') IS DISTINCT FROM (NEW.status = 'suspended'))
  EXECUTE FUNCTION users_after_status_update();--> statement-breakpoint
UPDATE ads SET model_profile_id = ads.model_profile_id
  FROM model_profiles p LEFT JOIN publicist_profiles pp ON pp.id = p.publicist_id
  LEFT JOIN users u ON u.id = p.user_id LEFT JOIN users pu ON pu.id = pp.user_id
 WHERE p.id = ads.model_profile_id AND (u.status = 'suspended' OR pu.status = 'suspended');
