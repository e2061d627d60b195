import { AccountStatus } from '../../storage/membership/schema';
import { defineContract } from './define';

export const membership = {
  status: defineContract({
    method: 'GET',
    path: '/api/v1/account/status',
    home: 'local',
    tag: 'Account',
    summary: 'Server-confirmed membership status of the signed-in account',
    description:
      'In local mode (no membership server configured) nobody is signed in: `authenticated` is false and `account` null. ' +
      'With a membership server, its confirmation is the answer until `verifiedUntil`, at once (it is refreshed in the ' +
      'background); `offline: true` says the last exchange with the server failed. Without a valid confirmation the request ' +
      'waits for the server at most 5 s; if that brings none, `authenticated` is false and `error` says why.',
    response: AccountStatus,
  }),
};
