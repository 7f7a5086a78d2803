/**
 * A deterministic stand-in provider for tests that are not about moderation: no model to load, no network. By
 * default every photo scores 0 (suitable); a test can pass its own scoring (or make it throw, to act out a failure).
 */
import type { ModerationImage, ModerationProvider, ModerationResult, ModerationScores } from './moderation.ts';

export function createStubProvider(
  score: (image: ModerationImage) => ModerationScores | Promise<ModerationScores> = () => ({
    sexual_activity: 0,
    sexual_display: 0,
    erotica: 0,
  }),
): ModerationProvider {
  return {
    name: 'stub',
    async check(image): Promise<ModerationResult> {
      return { scores: await score(image) };
    },
    async close() {},
  };
}
