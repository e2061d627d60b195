import { z } from 'zod';
import { FILE_NAME_MAX_CHARS, fileNameProblem } from '../shared/file-name';

export const AutomationFileName = z
  .string()
  .max(FILE_NAME_MAX_CHARS)
  .superRefine((name, check) => {
    const problem = fileNameProblem(name);
    if (problem) check.addIssue({ code: 'custom', message: `A file name ${problem}` });
  })
  .meta({ description: 'A plain file name: 1..200 characters, no separators, no "..", no leading dot, no control characters.' });

export const AutomationFileEntry = z.object({ name: z.string(), size_bytes: z.int() }).meta({ id: 'AutomationFileEntry' });
export type AutomationFileEntry = z.output<typeof AutomationFileEntry>;

/**
 * The automation folder (its real absolute path) and the files in it: the host serves it
 * (src/host/node) and the worker reads it (src/host/client), so the shape lives beside the port.
 */
export const AutomationFileListing = z.object({ directory: z.string(), items: z.array(AutomationFileEntry) });
export type AutomationFileListing = z.output<typeof AutomationFileListing>;
