import { z } from 'zod';
import { Base64Out, base64In } from '../shared/schemas/base64';
import { FILE_NAME_MAX_CHARS, FILE_NAME_PATTERN, fileNameProblem } from '../shared/file-name';

/** 4 MiB of file, as standard base64 with padding. */
export const FILE_BASE64_MAX_CHARS = 5_592_408;

export const AutomationFileName = z
  .string()
  .min(1)
  .max(FILE_NAME_MAX_CHARS)
  .superRefine((name, check) => {
    const problem = fileNameProblem(name);
    if (problem) check.addIssue({ code: 'custom', message: `A file name ${problem}` });
  })
  // The pattern is stated for clients; fileNameProblem checks it, with a message that says which rule failed.
  .meta({
    pattern: FILE_NAME_PATTERN.source,
    description:
      'A plain file name: 1..200 characters and at most 255 bytes of UTF-8, no separators, no "..", no leading dot, no control characters.',
  });

export const AutomationFileEntry = z
  .object({ name: z.string(), size_bytes: z.int() })
  .meta({ id: 'AutomationFileEntry' });
export type AutomationFileEntry = z.output<typeof AutomationFileEntry>;

/**
 * The automation folder (its real absolute path) and the files in it: the host port's `files.list`
 * answers it (operations.ts) and the API route shows it as it is.
 */
export const AutomationFileListing = z
  .object({ directory: z.string(), items: z.array(AutomationFileEntry) })
  .meta({ id: 'AutomationFileListing' });
export type AutomationFileListing = z.output<typeof AutomationFileListing>;

/** A new file: its name and its bytes. */
export const AutomationFileWrite = z
  .object({ name: AutomationFileName, base64: base64In(FILE_BASE64_MAX_CHARS) })
  .strict()
  .meta({ id: 'AutomationFileWrite' });

export const AutomationFileContent = z.object({ base64: Base64Out }).meta({ id: 'AutomationFileContent' });
