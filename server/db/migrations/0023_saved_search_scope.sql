-- Saved searches' matching, second pass (issue 28, bench: docs/benchmarks.md "Saved searches"). A search without text
-- can show a newly visible ad only by its city and section, and such searches are most of any ad's matches; as
-- `{scope}:all` keys in the GIN index they made every ad walk and recheck thousands of index entries. They are now found
-- by a btree on (city, section) and left out of the GIN index, which keeps the searches with text (an OR query or one
-- of negated words only still has its `{scope}:all` key there). server/modules/saved-searches/matching.ts candidatesFor
-- reads both in one statement; the listing's rules still judge every candidate.
DROP INDEX "saved_searches_match_idx";--> statement-breakpoint
CREATE INDEX "saved_searches_match_idx" ON "saved_searches" USING gin ("match_keys") WHERE NOT "paused" AND "alerts" <> 'off' AND "search" <> '';--> statement-breakpoint
CREATE INDEX "saved_searches_scope_idx" ON "saved_searches" USING btree ("city_id","section_id") WHERE NOT "paused" AND "alerts" <> 'off' AND "search" = '';
