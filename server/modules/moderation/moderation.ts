/**
 * Photo screening (SPEC §5): every photo is checked on the server before it is accepted. A provider turns an image
 * into three scores in [0, 1]; the thresholds below decide. A check that fails, times out or answers nonsense makes
 * the photo unsuitable too, but is reported apart (`failed`), so the user knows trying again may help.
 */

/** The three scores of SPEC §5 (Sightengine's nudity-2.1 intensity classes of the same names). */
export interface ModerationScores {
  sexual_activity: number;
  sexual_display: number;
  erotica: number;
}

/** SPEC §5 / §9: a photo is unsuitable when a score is strictly above its threshold (0.1 exactly passes). */
export const MODERATION_THRESHOLDS: Readonly<ModerationScores> = Object.freeze({
  sexual_activity: 0.1,
  sexual_display: 0.1,
  erotica: 0.4,
});

export function isUnsuitable(scores: ModerationScores, thresholds: Readonly<ModerationScores> = MODERATION_THRESHOLDS): boolean {
  return refusingRule(scores, thresholds) !== null;
}

export type ModerationRule = keyof ModerationScores;
export const MODERATION_RULES: readonly ModerationRule[] = ['sexual_activity', 'sexual_display', 'erotica'];

/**
 * The rule a refusal rests on, named to the user (issue 24 B7): the score furthest over its threshold, relative to
 * the threshold (0.3 over 0.1 weighs more than 0.5 over 0.4); null when every score is within its threshold.
 */
export function refusingRule(
  scores: ModerationScores,
  thresholds: Readonly<ModerationScores> = MODERATION_THRESHOLDS,
): ModerationRule | null {
  let rule: ModerationRule | null = null;
  let worst = 1;
  for (const r of MODERATION_RULES) {
    const ratio = scores[r] / thresholds[r];
    if (scores[r] > thresholds[r] && ratio > worst) {
      worst = ratio;
      rule = r;
    }
  }
  return rule;
}

/** The image a provider looks at: a downscaled JPEG copy of the photo (never the original file with its metadata). */
export interface ModerationImage {
  jpeg: Buffer;
  width: number;
  height: number;
}

export interface ModerationResult {
  scores: ModerationScores;
  /** What the provider said beyond the three scores (kept with the photo for staff and for calibration). */
  details?: Record<string, unknown>;
}

export interface ModerationProvider {
  /** 'local' | 'sightengine' | 'stub': stored with each photo's result. */
  readonly name: string;
  /**
   * Where this provider's scores mean "unsuitable"; SPEC §5's MODERATION_THRESHOLDS when absent (Sightengine, stub).
   * The local model has its own, measured on a labelled set (docs/decisions/0017-local-moderation-thresholds.md).
   */
  readonly thresholds?: Readonly<ModerationScores>;
  /** Resolves with the scores, or rejects when the check could not be made. Must honour `signal`. */
  check(image: ModerationImage, signal: AbortSignal): Promise<ModerationResult>;
  /** Loads what the first check would otherwise load (the local model); a no-op elsewhere. */
  warmUp?(): Promise<void>;
  close(): Promise<void>;
}

/** A check that could not be made (HTTP error, timeout, bad answer, model failure). */
export class ModerationFailure extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ModerationFailure';
  }
}

export type ScreeningOutcome =
  | { verdict: 'suitable'; provider: string; scores: ModerationScores; details?: Record<string, unknown> }
  | {
      verdict: 'unsuitable';
      provider: string;
      scores: ModerationScores;
      details?: Record<string, unknown>;
      /** The rule the refusal rests on, and the thresholds it was judged by (shown to the user and to staff). */
      rule: ModerationRule;
      thresholds: ModerationScores;
    }
  | { verdict: 'failed'; provider: string; error: string };

const validScore = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

/** Runs one check with a deadline and turns every way it can go into a verdict (never throws). */
export async function screen(provider: ModerationProvider, image: ModerationImage, timeoutMs: number): Promise<ScreeningOutcome> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort(new ModerationFailure(`timed out after ${timeoutMs} ms`));
      reject(new ModerationFailure(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const result = await Promise.race([provider.check(image, controller.signal), deadline]);
    const s = result?.scores;
    if (!s || !validScore(s.sexual_activity) || !validScore(s.sexual_display) || !validScore(s.erotica))
      return { verdict: 'failed', provider: provider.name, error: 'scores missing or out of range' };
    const scores = { sexual_activity: s.sexual_activity, sexual_display: s.sexual_display, erotica: s.erotica };
    const thresholds = provider.thresholds ?? MODERATION_THRESHOLDS;
    const rule = refusingRule(scores, thresholds);
    const details = result.details ? { details: result.details } : {};
    if (rule) return { verdict: 'unsuitable', provider: provider.name, scores, ...details, rule, thresholds: { ...thresholds } };
    return { verdict: 'suitable', provider: provider.name, scores, ...details };
  } catch (err) {
    return { verdict: 'failed', provider: provider.name, error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}
