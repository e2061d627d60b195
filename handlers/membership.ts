import { membership } from '../src/contracts/membership';
import { implement } from './implement';
import { accountStatus } from './membership/provider';

export const membershipRoutes = implement(membership, {
  status: ({ ctx }) => accountStatus(ctx),
});
