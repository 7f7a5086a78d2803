/**
 * Small controlled forms without a form library: client-side checks with the contract's zod schemas (worded
 * by `issueToMessage`, like the server's 422 answers), the server's per-field errors mapped onto the fields,
 * focus moved to the first invalid field, and a pending flag for the submit button. `submit` and
 * `useFieldValues` hold what every auth, account and consent form repeated around them.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { z } from 'zod';
import type { Answer } from '#contract/answers.ts';
import { issuePath, issueToMessage } from '#contract/validation-messages.ts';
import { ApiError, ValidationError, type ApiResponse } from './api-client.ts';
import { usePresenter } from './presenter.tsx';
import { handleAnswer, handleRejection } from './response-handler.ts';

/** Field name → message; `_` holds what belongs to no field of the form. */
export type FieldErrors<F extends string> = Partial<Record<F | '_', string>>;

type Translate = (key: string, params?: Record<string, string | number>) => string;

function place<F extends string>(out: FieldErrors<F>, fields: readonly F[], path: string, message: string) {
  const key = (fields as readonly string[]).includes(path) ? (path as F) : '_';
  out[key] = out[key] ? `${out[key]} ${message}` : message;
}

/** The first message per field of a failed zod parse, translated. */
export function zodFieldErrors<F extends string>(issues: readonly z.core.$ZodIssue[], fields: readonly F[], t: Translate): FieldErrors<F> {
  const out: FieldErrors<F> = {};
  const seen = new Set<string>();
  for (const issue of issues) {
    const path = issuePath(issue);
    if (seen.has(path)) continue;
    seen.add(path);
    const { key, params } = issueToMessage(issue);
    place(out, fields, path, t(key, params));
  }
  return out;
}

/** A 422 answer's `errors` (already translated by the server) onto the fields; the rest, or the message, to `_`. */
export function serverFieldErrors<F extends string>(data: Answer | undefined, fields: readonly F[]): FieldErrors<F> {
  const out: FieldErrors<F> = {};
  for (const [path, messages] of Object.entries(data?.errors ?? {})) {
    if (messages.length) place(out, fields, path, messages.join(' '));
  }
  if (Object.keys(out).length === 0 && data?.message) out._ = data.message;
  return out;
}

const FOCUSABLE = 'input:not([type="hidden"]):not([hidden]), textarea, select';

export interface RunOptions {
  /** Handles a failure itself (returns true) before the generic handling. */
  onError?: (err: unknown) => boolean | Promise<boolean>;
}

export interface SubmitOptions<F extends string> extends RunOptions {
  /** Errors the schema cannot see (a checkbox the server never gets, a confirmation typed so far). */
  extra?: FieldErrors<F>;
  /**
   * What to do with a successful answer: `handle` shows it and follows its redirect; `toast` only shows its
   * message, for screens that choose where to go themselves; unset leaves it to the caller.
   */
  answer?: 'handle' | 'toast';
}

/** "The two passwords differ" as soon as a confirmation has been typed (the schema only checks complete input). */
export function confirmationMismatch(
  values: { password: string; password_confirmation: string },
  t: Translate,
): FieldErrors<'password_confirmation'> {
  return values.password_confirmation && values.password !== values.password_confirmation
    ? { password_confirmation: t('validation.password_confirmation') }
    : {};
}

/**
 * A form's values in one state: `set(field)` gives the field's change handler, which also clears the field's
 * error (typing is the answer to it).
 */
export function useFieldValues<V extends Record<string, unknown>>(
  initial: V | (() => V),
  clearError: (field: Extract<keyof V, string>) => void,
) {
  const [values, setValues] = useState<V>(initial);
  const set =
    <K extends Extract<keyof V, string>>(field: K) =>
    (value: V[K]) => {
      setValues((v) => ({ ...v, [field]: value }));
      clearError(field);
    };
  return { values, set, setValues };
}

export function useApiForm<F extends string>(fields: readonly F[]) {
  const { t } = useTranslation();
  const ui = usePresenter();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [pending, setPending] = useState(false);
  const [focusRequest, setFocusRequest] = useState(0);

  useEffect(() => {
    if (!focusRequest) return;
    const form = formRef.current;
    if (!form) return;
    // Mantine marks some wrappers (PasswordInput) rather than the input itself: focus the control inside.
    const invalid = [...form.querySelectorAll<HTMLElement>('[aria-invalid="true"]')]
      .map((el) => (el.matches(FOCUSABLE) ? el : el.querySelector<HTMLElement>(FOCUSABLE)))
      .find((el) => el !== null);
    (invalid ?? form.querySelector<HTMLElement>('[data-form-error]'))?.focus();
  }, [focusRequest]);

  /** Shows errors and moves the focus to the first invalid field (or the form's general error). */
  const fail = useCallback((next: FieldErrors<F>) => {
    setErrors(next);
    setFocusRequest((n) => n + 1);
  }, []);

  const clearError = useCallback((field: F) => {
    setErrors((prev) => {
      if (!(field in prev) && !prev._) return prev;
      const { [field]: _removed, _: _general, ...rest } = prev;
      return rest as FieldErrors<F>;
    });
  }, []);

  const reset = useCallback(() => setErrors({}), []);

  /** Parses `values` with `schema`; on failure shows the messages and returns undefined. */
  const validate = useCallback(
    <S extends z.ZodType>(schema: S, values: unknown, extra?: FieldErrors<F>): z.output<S> | undefined => {
      const result = schema.safeParse(values);
      const found: FieldErrors<F> = result.success ? {} : zodFieldErrors(result.error.issues, fields, (k, p) => t(k, p));
      for (const [k, v] of Object.entries(extra ?? {}) as [F | '_', string | undefined][]) {
        if (v && !found[k]) found[k] = v;
      }
      if (!result.success || Object.keys(found).length) {
        fail(found);
        return undefined;
      }
      setErrors({});
      return result.data;
    },
    [fail, fields, t],
  );

  /**
   * Runs the request. 422 → field errors; other HTTP failures → the "¡Ha ocurrido algo!" notification with the
   * server's message (SPEC §8); no answer at all → the "Error!" modal. Resolves to the response, or undefined.
   */
  const run = useCallback(
    async <T>(action: () => Promise<ApiResponse<T>>, opts: RunOptions = {}): Promise<ApiResponse<T> | undefined> => {
      setPending(true);
      try {
        const res = await action();
        setErrors({});
        return res;
      } catch (err) {
        if (opts.onError && (await opts.onError(err))) return undefined;
        if (err instanceof ValidationError) fail(serverFieldErrors(err.data, fields));
        else if (err instanceof ApiError) handleAnswer({ status: err.status, data: err.data }, ui);
        else handleRejection(err, ui);
        return undefined;
      } finally {
        setPending(false);
      }
    },
    [fail, fields, ui],
  );

  /** The answer's message as a notification, its redirect left out: the screen decides where to go. */
  const notify = useCallback(
    (res: ApiResponse<unknown>) => handleAnswer({ status: res.status, data: { ...(res.data as Answer), redirect: undefined } }, ui),
    [ui],
  );

  /**
   * Checks `values` with the contract's schema, sends the parsed input, and handles the answer as asked.
   * Resolves to the input and the response, or to undefined when the check or the request failed (already shown).
   */
  const submit = useCallback(
    async <S extends z.ZodType, T>(
      schema: S,
      values: unknown,
      send: (input: z.output<S>) => Promise<ApiResponse<T>>,
      opts: SubmitOptions<F> = {},
    ): Promise<{ input: z.output<S>; res: ApiResponse<T> } | undefined> => {
      const input = validate(schema, values, opts.extra);
      if (input === undefined) return undefined;
      const res = await run(() => send(input), opts);
      if (!res) return undefined;
      if (opts.answer === 'handle') handleAnswer(res, ui);
      else if (opts.answer === 'toast') notify(res);
      return { input, res };
    },
    [notify, run, ui, validate],
  );

  return { formRef, errors, pending, fail, clearError, reset, validate, run, submit, notify, ui };
}
