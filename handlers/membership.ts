import { accountStatus } from '../src/membership/provider';
import { AccountStatus } from '../storage/membership/schema';
import { defineRoute } from '../src/routes/define';

export const membershipRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/account/status',
    tag: 'Account',
    summary: 'Server-confirmed membership status of the signed-in account',
    description:
      'In local mode (no membership server configured) nobody is signed in: `authenticated` is false and `account` null. ' +
      'With a membership server, its confirmation is cached until `verifiedUntil`; while the server cannot be reached the ' +
      'cached status is served with `offline: true`, and once it has expired `authenticated` is false and `error` says why.',
    response: AccountStatus,
    handler: ({ ctx }) => accountStatus(ctx),
  }),
];
