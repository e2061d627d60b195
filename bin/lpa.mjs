#!/usr/bin/env node
// The `lpa` command: the TypeScript CLI, loaded through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
