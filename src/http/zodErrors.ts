// How a zod refusal reads to a caller of the API or a person on a page: `field: message`.
import type { z } from 'zod';

/** `field: message` for the first few issues; unknown parameters are named. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') return `unknown parameter${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
      const path = issue.path.join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
