import { z } from 'zod';
import { Ok } from '../shared/schemas/ok';
import {
  AutomationFileContent,
  AutomationFileListing,
  AutomationFileName,
  AutomationFileWrite,
  FILE_BASE64_MAX_CHARS,
} from '../host/files-schema';
import { defineContract } from './define';

/**
 * The largest legal body: base64 where every `/` is written `\/` (as some JSON encoders do), a
 * name of escaped characters, the field names and some white space.
 */
const FILE_BODY_LIMIT = 2 * FILE_BASE64_MAX_CHARS + 64 * 1024;

export const files = {
  list: defineContract({
    method: 'GET',
    path: '/api/v1/automation/files',
    home: 'local',
    tag: 'Automation',
    summary: 'The automation folder and its files',
    scopes: ['runtime:control'],
    response: AutomationFileListing,
    errors: ['files.folder_refused'],
  }),
  write: defineContract({
    method: 'POST',
    path: '/api/v1/automation/files',
    home: 'local',
    tag: 'Automation',
    summary: 'Write a new file; an existing file is never replaced',
    scopes: ['runtime:control', 'rpa:write'],
    body: AutomationFileWrite,
    bodyLimit: FILE_BODY_LIMIT,
    response: Ok,
    audit: 'files.write',
    errors: ['files.exists', 'files.folder_refused'],
  }),
  read: defineContract({
    method: 'GET',
    path: '/api/v1/automation/files/content',
    home: 'local',
    tag: 'Automation',
    summary: 'A file as base64',
    scopes: ['runtime:control'],
    query: z.object({ name: AutomationFileName }).strict(),
    response: AutomationFileContent,
    errors: ['resource.not_found', 'files.folder_refused'],
  }),
};
