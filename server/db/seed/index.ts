import type { Config } from '../../config.ts';
import type { Db } from '../client.ts';
import type { Storage } from '../../plugins/storage.ts';
import { seedDemoCatalogue } from './demo-catalogue.ts';
import { seedDemoModelAd } from './demo-model.ts';
import { seedDemoReviewQueue } from './demo-review.ts';
import { seedDemoPublicist } from './demo-publicist.ts';
import { seedDemoUsers } from './demo-users.ts';
import { seedReferenceData } from './reference.ts';

/** Everything `npm start` seeds on a fresh database; each step is idempotent. */
export async function seedAll(db: Db, config: Config, storage: Storage): Promise<void> {
  await seedReferenceData(db);
  const password = await seedDemoUsers(db, config);
  // Both belong to the demo catalogue: server tests (DEMO_ADS=0) start from an empty listing.
  if (password && config.demoAds > 0) {
    await seedDemoModelAd(db, storage);
    await seedDemoPublicist(db, storage);
    await seedDemoCatalogue(db, storage, { ads: config.demoAds, password });
    await seedDemoReviewQueue(db, storage, password);
  }
}
