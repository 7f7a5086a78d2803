import { z } from 'zod';

/** Largest value of a PostgreSQL `integer` column: ids and counters past it are refused, never sent to the database. */
export const INT4_MAX = 2_147_483_647;

/**
 * A whole number in a path or query string, written the one canonical way: decimal digits, no sign, no leading
 * zero, no exponent, no hex. `Number()` would read `0x3`, `3e0` and `+3` as 3 and hand out record 3 under names
 * that are not its id.
 */
export const intParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^(0|[1-9]\d{0,14})$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const idParam = intParam(1, INT4_MAX);

/** An id in a JSON body: a whole number, or (as form posts send it) its canonical decimal string. */
export const idField = z.union([z.number().int().min(1).max(INT4_MAX), idParam]);
