import { synchronizer } from '../src/contracts/synchronizer';
import { implement } from './implement';

export const synchronizerRoutes = implement(synchronizer, {
  status: () => ({
    running: false,
    source_id: null,
    follower_ids: [],
    mode: 'element' as const,
    options: {},
    tabs: [],
    events: [],
    error: null,
  }),
});
