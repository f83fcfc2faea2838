import * as z from './zod.js';
import { deferred } from './zod.js';

/** The formats a run report is written in (`report --format`); a module of its own, so that the library's argument shapes name them without loading the report's schemas. */
export const ReportFormat = deferred(() => z.enum(['html', 'md', 'json', 'dotenv']));
export type ReportFormat = z.infer<typeof ReportFormat>;
