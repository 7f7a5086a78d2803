/**
 * Data rights (GDPR arts. 15, 17, 20): the state of a user's data export as GET /api/user/data-export answers it,
 * and the limits both sides show. The archive itself is a zip of `vitrina-data.json` plus the stored photo files.
 */
import { z } from 'zod';
import { successOf } from './answers.ts';

export const DATA_EXPORT_STATUSES = ['none', 'pending', 'ready', 'failed'] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

/** How long a ready archive can be downloaded. */
export const DATA_EXPORT_TTL_HOURS = 24;
/** Requests a user may make in 24 hours (one at a time). */
export const DATA_EXPORTS_PER_DAY = 3;

export const dataExportStateSchema = z.object({
  status: z.enum(DATA_EXPORT_STATUSES),
  id: z.number().int().nullable(),
  created_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  /** The signed download link (same origin), only while `ready` and not expired. */
  download_url: z.string().nullable(),
  size_bytes: z.number().int().nullable(),
});
export type DataExportState = z.infer<typeof dataExportStateSchema>;

/** The file name inside the archive that holds everything but the photos. */
export const DATA_EXPORT_JSON = 'vitrina-data.json';

/** POST /api/user/data-export (202): an `info` toast (the archive is not there yet) with the export's state. */
export const dataExportRequestedSchema = successOf(dataExportStateSchema).extend({ type: z.literal('info') });
