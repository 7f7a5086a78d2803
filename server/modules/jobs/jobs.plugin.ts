/**
 * `app.jobs`: this process's JobRunner (jobs.ts). Modules register their handlers (and periodic work with
 * `app.jobs.every`) while the app is built; once the app is ready the periodic rows are scheduled and polling starts
 * every JOBS_POLL_MS; on close it stops, waiting for the jobs in hand. Server tests have JOBS_POLL_MS 0 and drive it
 * by hand with `app.jobs.runDue(at)` (tests/test-app.ts runs the due ones after each injected request).
 */
import fp from 'fastify-plugin';
import { JobRunner, type JobRunnerOptions } from './jobs.ts';
import { registerMailJob } from './mail-job.ts';
import { registerPurges } from './purges.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner;
  }
}

export default fp<JobRunnerOptions & { autoStart?: boolean }>(
  async (app, opts) => {
    const pollMs = opts.pollMs ?? (app.config.jobsPollMs || undefined);
    const runner = new JobRunner(app.db, app.log, { ...opts, pollMs });
    app.decorate('jobs', runner);
    // Registered after app.mailer (app.ts): every mail is a `mail` job (mail-job.ts).
    if (app.hasDecorator('mailer')) registerMailJob(app);
    registerPurges(app);
    if (opts.autoStart ?? app.config.jobsPollMs > 0) {
      app.addHook('onReady', async () => {
        await runner.scheduleRecurring();
        runner.start();
      });
    }
    app.addHook('onClose', async () => runner.stop());
  },
  { name: 'jobs' },
);
