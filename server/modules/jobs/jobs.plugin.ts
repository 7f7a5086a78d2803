/**
 * `app.jobs`: this process's JobRunner (jobs.ts). Modules register their handlers while the app is built; polling
 * starts when the app is ready and stops (waiting for the jobs in hand) when it closes. Tests drive it by hand with
 * `app.jobs.runDue(at)` instead (no timer in the test environment).
 */
import fp from 'fastify-plugin';
import { JobRunner, type JobRunnerOptions } from './jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner;
  }
}

export default fp<JobRunnerOptions & { autoStart?: boolean }>(
  async (app, opts) => {
    const runner = new JobRunner(app.db, app.log, opts);
    app.decorate('jobs', runner);
    if (opts.autoStart ?? app.config.env !== 'test') app.addHook('onReady', async () => runner.start());
    app.addHook('onClose', async () => runner.stop());
  },
  { name: 'jobs' },
);
