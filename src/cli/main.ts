#!/usr/bin/env node
import { VERSION } from './version';

// `lpa --version` answers before commander and the commands are loaded: it is what scripts and
// installers run to check the command is there, and it should cost no more than starting Node.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) process.stdout.write(`${VERSION}\n`);
else await (await import('./program')).runProgram(process.argv);
