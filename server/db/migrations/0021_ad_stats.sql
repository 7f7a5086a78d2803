-- Issue 28, advertisers' numbers: ad_stats_weekly (migration 0019) is used as it is. Its primary key (ad_id, week)
-- serves both the flush's upsert (server/modules/ad-stats/ad-counter.ts) and the per-ad range read, and the
-- favourites are counted through favourites_ad_idx (ad_id, created_at); nothing to add here.
SELECT 1;
