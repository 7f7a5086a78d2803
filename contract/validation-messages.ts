import type { z } from 'zod';

/**
 * Turns a zod issue into a translation key and its parameters, so the server (422 field errors) and the
 * client (form validation) word the same mistake the same way in every language.
 */
export interface MessageRef {
  key: string;
  params?: Record<string, string | number>;
}

export function issueToMessage(issue: z.core.$ZodIssue): MessageRef {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null ? { key: 'validation.required' } : { key: 'validation.invalid_type' };
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? { key: 'validation.required' }
          : { key: 'validation.min_length', params: { min: Number(issue.minimum) } };
      }
      if (issue.origin === 'array' || issue.origin === 'set')
        return { key: 'validation.min_items', params: { min: Number(issue.minimum) } };
      return { key: 'validation.min_value', params: { min: Number(issue.minimum) } };
    case 'too_big':
      if (issue.origin === 'string') return { key: 'validation.max_length', params: { max: Number(issue.maximum) } };
      if (issue.origin === 'array' || issue.origin === 'set')
        return { key: 'validation.max_items', params: { max: Number(issue.maximum) } };
      return { key: 'validation.max_value', params: { max: Number(issue.maximum) } };
    case 'invalid_format':
      return issue.format === 'email' ? { key: 'validation.email' } : { key: 'validation.invalid_format' };
    case 'invalid_value':
      return { key: 'validation.invalid_option' };
    case 'unrecognized_keys':
      return { key: 'validation.unknown_field' };
    case 'custom':
      return typeof issue.params?.key === 'string' ? { key: issue.params.key } : { key: 'validation.invalid' };
    default:
      return { key: 'validation.invalid' };
  }
}

/** Field path as the forms name it: `a.b.0` (Laravel uses dots too). `_` stands for the whole input. */
export function issuePath(issue: z.core.$ZodIssue): string {
  return issue.path.length ? issue.path.map(String).join('.') : '_';
}
