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

export function isUnsuitable(scores: ModerationScores): boolean {
  return (
    scores.sexual_activity > MODERATION_THRESHOLDS.sexual_activity ||
    scores.sexual_display > MODERATION_THRESHOLDS.sexual_display ||
    scores.erotica > MODERATION_THRESHOLDS.erotica
  );
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
  | { verdict: 'suitable' | 'unsuitable'; provider: string; scores: ModerationScores; details?: Record<string, unknown> }
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
    return {
      verdict: isUnsuitable(scores) ? 'unsuitable' : 'suitable',
      provider: provider.name,
      scores,
      ...(result.details ? { details: result.details } : {}),
    };
  } catch (err) {
    return { verdict: 'failed', provider: provider.name, error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}
