/**
 * `npm run db:seed -- --ads 100000`: a large catalogue for benchmarks, written with set-based SQL (no photos).
 * Names, cities and sections are spread so filters and text search have realistic selectivity.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';

const NAMES = [
  'Lucía',
  'Sofía',
  'Martina',
  'María',
  'Julia',
  'Paula',
  'Hugo',
  'Martín',
  'Lucas',
  'Mateo',
  'Leo',
  'Daniel',
  'Alba',
  'Noa',
  'Sara',
  'Carmen',
  'Pelayo',
  'Covadonga',
  'Xana',
  'Iker',
];
const CITY_CODES = ['33044', '33024', '33004', '33037', '33031', '28079', '08019', '46250', '41091', '48020', '29067', '50297'];
const CHUNK = 20_000;

export async function seedBulkAds(db: Db, count: number): Promise<void> {
  if (!Number.isInteger(count) || count <= 0) throw new Error('--ads needs a positive whole number');
  const run = Date.now().toString(36);
  const names = sql.raw(`array[${NAMES.map((n) => `'${n}'`).join(',')}]`);
  const codes = sql.raw(`array[${CITY_CODES.map((c) => `'${c}'`).join(',')}]`);
  for (let start = 1; start <= count; start += CHUNK) {
    const end = Math.min(count, start + CHUNK - 1);
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into users (name, email, password_hash, role, status, locale, email_verified_at)
        select (${names})[1 + g % ${NAMES.length}], 'bench-' || ${run} || '-' || g || '@vitrina.test', '!', 'model', 'active', 'es', now()
        from generate_series(${start}::int, ${end}::int) g`);
      await tx.execute(sql`
        insert into model_profiles (user_id, display_name, status, birth_date, phone, whatsapp)
        select u.id, u.name, case when u.id % 50 = 0 then 'suspended' else 'active' end,
               date '1980-01-01' + (u.id % 8000), '+3460' || lpad((u.id % 10000000)::text, 7, '0'), u.id % 2 = 0
        from users u where u.email like ${`bench-${run}-%`} and not exists (select 1 from model_profiles mp where mp.user_id = u.id)`);
      await tx.execute(sql`
        with c as (select array_agg(id order by code) ids, array_agg(name order by code) names from cities where code = any(${codes})),
             s as (select array_agg(id order by id) ids from sections)
        insert into ads (model_profile_id, title, description, section_id, city_id, is_active, status, published_at)
        select p.id,
               p.display_name || ', modelo en ' || c.names[1 + p.id % array_length(c.ids, 1)],
               'Modelo de moda y publicidad. Sesiones en estudio y exteriores.',
               s.ids[1 + (p.id / 7) % array_length(s.ids, 1)],
               c.ids[1 + p.id % array_length(c.ids, 1)],
               p.id % 40 <> 0, 'active',
               now() - (p.id % 200000) * interval '1 minute'
        from model_profiles p, c, s
        join users u on true
        where u.id = p.user_id and u.email like ${`bench-${run}-%`} and not exists (select 1 from ads a where a.model_profile_id = p.id)`);
    });
    console.log(`bulk ads: ${end}/${count}`);
  }
}
