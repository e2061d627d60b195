import { z } from 'zod';
import { LogExcerpt } from '../shared/logs/excerpt';
import { LogFileList, LogFileName, LogStream } from '../shared/logs/streams';
import { defineContract } from './define';

export const logs = {
  list: defineContract({
    method: 'GET',
    path: '/api/v1/system/logs',
    home: 'local',
    tag: 'System',
    summary: 'Every log file of every stream',
    scopes: ['audit:read'],
    response: LogFileList,
  }),
  tail: defineContract({
    method: 'GET',
    path: '/api/v1/system/logs/:stream/:file',
    home: 'local',
    tag: 'System',
    summary: 'The end of one log file (at most 256 KiB and 1000 lines), sanitized',
    scopes: ['audit:read'],
    params: z.object({ stream: LogStream, file: LogFileName }),
    response: LogExcerpt,
    errors: ['resource.not_found'],
  }),
};
