/**
 * The validator every route schema runs through (Fastify's validatorCompiler, zod underneath), so a rule that holds
 * for every input lives here once: no NUL character anywhere in a string or an object key, in the body, the query
 * or the path. PostgreSQL cannot store U+0000 in text or jsonb, and letting it through turned one stray byte into a
 * 500 on every route that saves text. It is refused as a field error naming where it was
 * (`validation.control_characters`), in the same shape as the schema's own issues, before the schema runs.
 */
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';

const MAX_DEPTH = 64;
/** fastify-type-provider-zod marks its issues with this (global) symbol; the error handler looks for it. */
const ZOD_ISSUE = Symbol.for('ZodFastifySchemaValidationError');

type Path = (string | number)[];

/** Where `data` holds a NUL (in a string or a key), at most 20 places; nesting past MAX_DEPTH counts as one. */
export function nulPaths(data: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (out.length >= 20) return out;
  if (typeof data === 'string') {
    if (data.includes('\u0000')) out.push(path);
  } else if (path.length > MAX_DEPTH) {
    if (data !== null && typeof data === 'object') out.push(path);
  } else if (Array.isArray(data)) {
    data.forEach((v, i) => nulPaths(v, [...path, i], out));
  } else if (data !== null && typeof data === 'object') {
    for (const [k, v] of Object.entries(data)) {
      if (k.includes('\u0000')) out.push([...path, k.replaceAll('\u0000', '')]);
      else nulPaths(v, [...path, k], out);
    }
  }
  return out;
}

export const validatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = zodValidatorCompiler(route);
  return (data) => {
    const bad = nulPaths(data);
    if (!bad.length) return validate(data);
    return {
      error: bad.map((path) => ({
        [ZOD_ISSUE]: true,
        keyword: 'custom',
        instancePath: `/${path.join('/')}`,
        schemaPath: `#/${path.join('/')}/custom`,
        message: 'control characters',
        params: { params: { key: 'validation.control_characters' } },
      })) as unknown as Error,
    };
  };
};
